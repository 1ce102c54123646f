import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type { MemberEvent, MemberRegistered, PlacementLeg } from './events';

export type MemberState =
  | { status: 'none' }
  | { status: 'registered'; memberId: string; emailConfirmed: boolean; twoFactor: boolean; activated: boolean };

export type MemberCommand =
  | { type: 'RegisterMember'; data: MemberRegistered['data'] }
  | { type: 'ConfirmEmail'; data: { member_id: string } }
  | { type: 'ActivateMember'; data: { member_id: string; package_id: number } }
  | { type: 'ChangeTwoFactor'; data: { member_id: string; enabled: boolean } }
  | { type: 'RecordPasswordChange'; data: { member_id: string; reason: 'reset' | 'change' | 'admin' } };

export const initialMemberState = (): MemberState => ({ status: 'none' });

export function evolveMember(state: MemberState, event: MemberEvent): MemberState {
  switch (event.type) {
    case 'MemberRegistered':
      return { status: 'registered', memberId: event.data.member_id, emailConfirmed: false, twoFactor: false, activated: false };
    case 'MemberEmailConfirmed':
      return state.status === 'registered' ? { ...state, emailConfirmed: true } : state;
    case 'MemberActivated':
      return state.status === 'registered' ? { ...state, activated: true } : state;
    case 'MemberTwoFactorChanged':
      return state.status === 'registered' ? { ...state, twoFactor: event.data.enabled } : state;
    case 'MemberPasswordChanged':
      return state;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

function requireRegistered(state: MemberState): Extract<MemberState, { status: 'registered' }> {
  if (state.status !== 'registered') throw new RuleViolation('This member does not exist.');
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
    case 'ActivateMember':
      return requireRegistered(state).activated ? [] : [{ type: 'MemberActivated', data: command.data }];
    case 'ChangeTwoFactor':
      return requireRegistered(state).twoFactor === command.data.enabled ? [] : [{ type: 'MemberTwoFactorChanged', data: command.data }];
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
