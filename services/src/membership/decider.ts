import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type { MemberActivated, MemberEvent, MemberPlacementPreferenceChanged, MemberPackageUpgraded, MemberRegistered, MemberReinstated, PlacementLeg } from './events';

export type RegisteredMember = {
  status: 'registered';
  memberId: string;
  emailConfirmed: boolean;
  twoFactor: boolean;
  activated: boolean;
  packageId: number;
  placementParentId: string | null;
  placementLeg: PlacementLeg | null;
  expired: boolean;
  /** Payments already applied to this member (activation, upgrades): each applies once. */
  appliedPayments: readonly string[];
  placementPreference: MemberPlacementPreferenceChanged['data']['preference'];
};
export type MemberState = { status: 'none' } | RegisteredMember;

export type MemberCommand =
  | { type: 'RegisterMember'; data: MemberRegistered['data'] }
  | { type: 'ConfirmEmail'; data: { member_id: string } }
  | { type: 'ActivateMember'; data: MemberActivated['data'] }
  | { type: 'UpgradePackage'; data: MemberPackageUpgraded['data'] }
  | { type: 'ExpireRegistration'; data: { member_id: string; now: string; deadline: string } }
  | { type: 'ReinstateMember'; data: MemberReinstated['data'] }
  | { type: 'ChangeTwoFactor'; data: { member_id: string; enabled: boolean } }
  | { type: 'ChangePlacementPreference'; data: MemberPlacementPreferenceChanged['data'] }
  | { type: 'RecordPasswordChange'; data: { member_id: string; reason: 'reset' | 'change' | 'admin' } };

export const memberMessages = {
  unknown: 'This member does not exist.',
  alreadyActive: 'This member is already active; the payment was not applied.',
  expired: 'This registration has expired. An administrator must reinstate it before it can be paid.',
  notActive: 'Only an active member can upgrade their package.',
  upgradeNotHigher: 'You can only upgrade to a package higher than your current one.',
  packageChanged: 'The member\'s package changed after this upgrade was priced; the payment was not applied.',
  notExpired: 'Only an expired registration can be reinstated.',
} as const;

export const initialMemberState = (): MemberState => ({ status: 'none' });

export function evolveMember(state: MemberState, event: MemberEvent): MemberState {
  if (event.type === 'MemberRegistered') {
    const d = event.data;
    return {
      status: 'registered',
      memberId: d.member_id,
      emailConfirmed: false,
      twoFactor: false,
      activated: false,
      packageId: d.package_id,
      placementParentId: d.placement_parent_id,
      placementLeg: d.placement_leg,
      expired: false,
      appliedPayments: [],
      placementPreference: null,
    };
  }
  if (state.status !== 'registered') return state;
  switch (event.type) {
    case 'MemberEmailConfirmed':
      return { ...state, emailConfirmed: true };
    case 'MemberActivated':
      return { ...state, activated: true, packageId: event.data.package_id, appliedPayments: event.data.payment_id ? [...state.appliedPayments, event.data.payment_id] : state.appliedPayments };
    case 'MemberPackageUpgraded':
      return { ...state, packageId: event.data.to_package_id, appliedPayments: [...state.appliedPayments, event.data.payment_id] };
    case 'MemberRegistrationExpired':
      return { ...state, expired: true, placementParentId: null, placementLeg: null };
    case 'MemberReinstated':
      return { ...state, expired: false, placementParentId: event.data.placement_parent_id, placementLeg: event.data.placement_leg };
    case 'MemberTwoFactorChanged':
      return { ...state, twoFactor: event.data.enabled };
    case 'MemberPasswordChanged':
      return state;
    case 'MemberPlacementPreferenceChanged':
      return { ...state, placementPreference: event.data.preference };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

function requireRegistered(state: MemberState): RegisteredMember {
  if (state.status !== 'registered') throw new RuleViolation(memberMessages.unknown);
  return state;
}

export function decideMember(command: MemberCommand, state: MemberState): MemberEvent[] {
  switch (command.type) {
    case 'RegisterMember':
      if (state.status !== 'none') throw new RuleViolation('This member is already registered.');
      return [{ type: 'MemberRegistered', data: command.data }];
    case 'ConfirmEmail':
      // Confirming twice is a harmless resend, not an error.
      return requireRegistered(state).emailConfirmed ? [] : [{ type: 'MemberEmailConfirmed', data: command.data }];
    case 'ActivateMember': {
      const member = requireRegistered(state);
      const paymentId = command.data.payment_id ?? null;
      if (paymentId && member.appliedPayments.includes(paymentId)) return [];
      if (member.activated) {
        if (!paymentId) return [];
        throw new RuleViolation(memberMessages.alreadyActive);
      }
      if (member.expired) throw new RuleViolation(memberMessages.expired);
      return [{ type: 'MemberActivated', data: command.data }];
    }
    case 'UpgradePackage': {
      const member = requireRegistered(state);
      if (member.appliedPayments.includes(command.data.payment_id)) return [];
      if (!member.activated) throw new RuleViolation(memberMessages.notActive);
      if (member.packageId !== command.data.from_package_id) throw new RuleViolation(memberMessages.packageChanged);
      if (command.data.to_package_id <= command.data.from_package_id) throw new RuleViolation(memberMessages.upgradeNotHigher);
      return [{ type: 'MemberPackageUpgraded', data: command.data }];
    }
    case 'ExpireRegistration': {
      const member = requireRegistered(state);
      if (member.activated || member.expired || command.data.now < command.data.deadline) return [];
      return [{ type: 'MemberRegistrationExpired', data: { member_id: member.memberId, freed_placement_parent_id: member.placementParentId, freed_placement_leg: member.placementLeg } }];
    }
    case 'ReinstateMember':
      if (!requireRegistered(state).expired) throw new RuleViolation(memberMessages.notExpired);
      return [{ type: 'MemberReinstated', data: command.data }];
    case 'ChangeTwoFactor':
      return requireRegistered(state).twoFactor === command.data.enabled ? [] : [{ type: 'MemberTwoFactorChanged', data: command.data }];
    case 'ChangePlacementPreference':
      return requireRegistered(state).placementPreference === command.data.preference ? [] : [{ type: 'MemberPlacementPreferenceChanged', data: command.data }];
    case 'RecordPasswordChange':
      requireRegistered(state);
      return [{ type: 'MemberPasswordChanged', data: command.data }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const memberDecider: Decider<MemberState, MemberCommand, MemberEvent> = {
  initialState: initialMemberState,
  evolve: evolveMember,
  decide: decideMember,
};

/**
 * Binary placement (BUSINESS-RULES.md §1): at most two children, left then right, in order of
 * registration. `occupiedLegs` are the legs already held by the placement's children.
 */
export function choosePlacementLeg(placementUsername: string, occupiedLegs: readonly PlacementLeg[]): PlacementLeg {
  if (!occupiedLegs.includes('left')) return 'left';
  if (!occupiedLegs.includes('right')) return 'right';
  throw new RuleViolation(
    `${placementUsername} already has two direct registrations; enter them as Sponsor and a member of their downline as Placement`,
    'referrer',
  );
}

/** When a sponsor is named, the placement must be the sponsor or inside the sponsor's placement downline. */
export function checkPlacementUnderSponsor(input: { placementIsSponsorOrBelow: boolean; sponsorUsername: string }): void {
  if (!input.placementIsSponsorOrBelow) {
    throw new RuleViolation(
      `The placement must be ${input.sponsorUsername} or a member of ${input.sponsorUsername}'s downline.`,
      'referrer',
    );
  }
}
