import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../core/errors';
import { type MemberCommand, checkPlacementUnderSponsor, choosePlacementLeg, decideMember, evolveMember, initialMemberState } from './decider';
import type { MemberEvent, MemberRegistered } from './events';

/** Given past events, when a command, then these new events (or this refusal). */
const given = (past: MemberEvent[]) => ({
  when: (command: MemberCommand) => {
    const state = past.reduce(evolveMember, initialMemberState());
    return {
      then: (expected: MemberEvent[]) => expect(decideMember(command, state)).toEqual(expected),
      thenThrows: (message: RegExp) => expect(() => decideMember(command, state)).toThrow(message),
    };
  },
});

const registration: MemberRegistered['data'] = {
  member_id: 'm1', username: 'ada', email: 'ada@example.test', first_name: 'Ada', last_name: 'Obi', phone: '08030000000',
  package_id: 2, sponsor_id: 'root', placement_parent_id: 'root', placement_leg: 'left', is_root: false,
};
const registered: MemberEvent = { type: 'MemberRegistered', data: registration };

describe('member decider', () => {
  it('registers a new member', () => {
    given([]).when({ type: 'RegisterMember', data: registration }).then([registered]);
  });
  it('refuses to register the same member twice', () => {
    given([registered]).when({ type: 'RegisterMember', data: registration }).thenThrows(/already registered/);
  });
  it('confirms an e-mail once; a second confirmation records nothing', () => {
    given([registered]).when({ type: 'ConfirmEmail', data: { member_id: 'm1' } }).then([{ type: 'MemberEmailConfirmed', data: { member_id: 'm1' } }]);
    given([registered, { type: 'MemberEmailConfirmed', data: { member_id: 'm1' } }]).when({ type: 'ConfirmEmail', data: { member_id: 'm1' } }).then([]);
  });
  it('refuses to confirm an unknown member', () => {
    given([]).when({ type: 'ConfirmEmail', data: { member_id: 'm1' } }).thenThrows(/does not exist/);
  });
  it('records a two-factor change only when the setting changes', () => {
    given([registered]).when({ type: 'ChangeTwoFactor', data: { member_id: 'm1', enabled: true } }).then([{ type: 'MemberTwoFactorChanged', data: { member_id: 'm1', enabled: true } }]);
    given([registered]).when({ type: 'ChangeTwoFactor', data: { member_id: 'm1', enabled: false } }).then([]);
  });
  it('activates once', () => {
    const activated: MemberEvent = { type: 'MemberActivated', data: { member_id: 'm1', package_id: 2 } };
    given([registered]).when({ type: 'ActivateMember', data: { member_id: 'm1', package_id: 2 } }).then([activated]);
    given([registered, activated]).when({ type: 'ActivateMember', data: { member_id: 'm1', package_id: 2 } }).then([]);
  });
});

describe('activation, upgrade, expiry and reinstatement (BUSINESS-RULES.md §2)', () => {
  const activation = { member_id: 'm1', package_id: 2, payment_id: 'pay-1', registration_value_kobo: 3_500_000, point_value: 25, pickup_allowance_kobo: 3_000_000 };
  const activated: MemberEvent = { type: 'MemberActivated', data: activation };
  const upgrade = { member_id: 'm1', payment_id: 'pay-2', from_package_id: 2, to_package_id: 4, difference_kobo: 10_500_000, point_value_added: 75, pickup_allowance_kobo: 9_000_000 };
  const upgraded: MemberEvent = { type: 'MemberPackageUpgraded', data: upgrade };
  const expired: MemberEvent = { type: 'MemberRegistrationExpired', data: { member_id: 'm1', freed_placement_parent_id: 'root', freed_placement_leg: 'left' } };

  it('applies the same payment once: a repeated activation by that payment records nothing', () => {
    given([registered]).when({ type: 'ActivateMember', data: activation }).then([activated]);
    given([registered, activated]).when({ type: 'ActivateMember', data: activation }).then([]);
  });
  it('refuses a second, different registration payment for an active member (it is flagged, not applied)', () => {
    given([registered, activated]).when({ type: 'ActivateMember', data: { ...activation, payment_id: 'pay-9' } }).thenThrows(/already active/);
  });
  it('refuses to activate an expired registration', () => {
    given([registered, expired]).when({ type: 'ActivateMember', data: activation }).thenThrows(/expired/);
  });
  it('upgrades an active member from the package the upgrade was priced on, once', () => {
    given([registered, activated]).when({ type: 'UpgradePackage', data: upgrade }).then([upgraded]);
    given([registered, activated, upgraded]).when({ type: 'UpgradePackage', data: upgrade }).then([]);
  });
  it('refuses an upgrade priced on a package the member no longer holds', () => {
    given([registered, activated, upgraded]).when({ type: 'UpgradePackage', data: { ...upgrade, payment_id: 'pay-3', from_package_id: 2, to_package_id: 5 } }).thenThrows(/package changed/);
  });
  it('refuses an upgrade of an inactive member or to a package that is not higher', () => {
    given([registered]).when({ type: 'UpgradePackage', data: upgrade }).thenThrows(/active member/);
    given([registered, activated]).when({ type: 'UpgradePackage', data: { ...upgrade, to_package_id: 2 } }).thenThrows(/higher/);
  });
  it('expires an unpaid registration at its deadline and frees its placement slot', () => {
    const command = { type: 'ExpireRegistration' as const, data: { member_id: 'm1', now: '2026-11-29T10:00:00.000Z', deadline: '2026-11-29T09:00:00.000Z' } };
    given([registered]).when(command).then([expired]);
    given([registered]).when({ ...command, data: { ...command.data, now: '2026-11-29T08:59:59.000Z' } }).then([]);
    given([registered, activated]).when(command).then([]);
    given([registered, expired]).when(command).then([]);
  });
  it('reinstates only an expired registration', () => {
    const reinstated = { member_id: 'm1', placement_parent_id: 'root', placement_leg: 'right' as const, expires_at: '2026-12-10T00:00:00.000Z' };
    given([registered, expired]).when({ type: 'ReinstateMember', data: reinstated }).then([{ type: 'MemberReinstated', data: reinstated }]);
    given([registered]).when({ type: 'ReinstateMember', data: reinstated }).thenThrows(/Only an expired registration/);
  });
});

describe('binary placement', () => {
  it('fills the left leg first, then the right', () => {
    expect(choosePlacementLeg('ada', [])).toBe('left');
    expect(choosePlacementLeg('ada', ['left'])).toBe('right');
    expect(choosePlacementLeg('ada', ['right'])).toBe('left');
  });
  it('refuses a third child with the seeds message naming the placement', () => {
    expect(() => choosePlacementLeg('ada', ['left', 'right'])).toThrow(RuleViolation);
    expect(() => choosePlacementLeg('ada', ['left', 'right'])).toThrow(
      'ada already has two direct registrations; enter them as Sponsor and a member of their downline as Placement',
    );
  });
  it('refuses a placement outside the sponsor downline', () => {
    expect(() => checkPlacementUnderSponsor({ placementIsSponsorOrBelow: false, sponsorUsername: 'bola' })).toThrow(/bola's downline/);
    expect(() => checkPlacementUnderSponsor({ placementIsSponsorOrBelow: true, sponsorUsername: 'bola' })).not.toThrow();
  });
});
