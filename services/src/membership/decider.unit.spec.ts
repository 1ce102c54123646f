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
