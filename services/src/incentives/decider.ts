import type { Decider } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import type { IncentiveClaimApproved, IncentiveClaimDeclined, IncentiveClaimEvent, IncentiveClaimStatus, IncentiveClaimed } from './events';

/**
 * One incentive claim (BUSINESS-RULES.md §3): claimed once per incentive by a member who holds the
 * incentive's rank, then approved or declined by an admin. Pure: the unit of work
 * (commands.ts) reads the member's rank, the catalogue and the member's other claims and hands
 * them in as facts.
 */
export type ClaimState =
  | { status: 'none' }
  | { status: IncentiveClaimStatus; claimId: string; memberId: string; rankId: number; incentiveId: number; incentive: string; worthKobo: number };

export type RankFacts = { id: number; name: string; points: number };

export type ClaimIncentiveCommand = {
  type: 'ClaimIncentive';
  data: {
    claim_id: string;
    member_id: string;
    rank_id: number;
    incentive_id: number;
    member_active: boolean;
    /** The rank the member holds now; null before they hold any. */
    held_rank: RankFacts | null;
    /** The claimed rank as the catalogue has it; null when there is no such rank. */
    rank: RankFacts | null;
    /** The claimed incentive as the catalogue has it; null when there is no such incentive. */
    incentive: { id: number; rank_id: number; incentive: string; worth_kobo: number } | null;
    /** The member's processing or approved claim of the same incentive, if any (a declined one does not count). */
    existing_claim: { claim_id: string; status: 'processing' | 'approved' } | null;
    cpv: number;
  };
};

export type IncentiveClaimCommand =
  | ClaimIncentiveCommand
  | { type: 'ApproveClaim'; data: { claim_id: string } }
  | { type: 'DeclineClaim'; data: { claim_id: string; reason?: string } };

export const incentiveMessages = {
  claimed: 'incentive claimed successfully',
  approved: 'Incentive approved successfully',
  declined: 'Incentive declined successfully',
  notActive: 'Only an active member can claim an incentive.',
  notQualified: 'You are yet to qualify for an incentive',
  rankInvalid: 'The selected rank is invalid.',
  incentiveInvalid: 'The selected incentive is invalid.',
  notOfRank: (incentive: string, rank: string) => `"${incentive}" is not the incentive of the ${rank} rank.`,
  rankNotReached: (rank: string, points: number) => `You have not reached the ${rank} rank yet: it needs ${points.toLocaleString('en-US')} CPV.`,
  alreadyProcessing: 'You have already claimed this incentive; your claim is being processed.',
  alreadyApproved: 'You have already received this incentive.',
  claimNotFound: 'Incentive claim not found.',
  notProcessing: (status: IncentiveClaimStatus) => `This claim has already been ${status}; only a claim being processed can be approved or declined.`,
} as const;

export const initialClaimState = (): ClaimState => ({ status: 'none' });

export function evolveClaim(state: ClaimState, event: IncentiveClaimEvent): ClaimState {
  switch (event.type) {
    case 'IncentiveClaimed': {
      const d = event.data;
      return { status: 'processing', claimId: d.claim_id, memberId: d.member_id, rankId: d.rank_id, incentiveId: d.incentive_id, incentive: d.incentive, worthKobo: d.worth_kobo };
    }
    case 'IncentiveClaimApproved':
      return state.status === 'none' ? state : { ...state, status: 'approved' };
    case 'IncentiveClaimDeclined':
      return state.status === 'none' ? state : { ...state, status: 'declined' };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

function claim(command: ClaimIncentiveCommand['data'], state: ClaimState): IncentiveClaimEvent[] {
  // The same claim id again (a retried request): it is already recorded.
  if (state.status !== 'none') return [];
  if (!command.member_active) throw new RuleViolation(incentiveMessages.notActive);
  const { rank, incentive, held_rank: held } = command;
  if (!rank) throw new RuleViolation(incentiveMessages.rankInvalid, 'rank_id');
  if (!incentive) throw new RuleViolation(incentiveMessages.incentiveInvalid, 'incentive_id');
  if (incentive.rank_id !== rank.id) throw new RuleViolation(incentiveMessages.notOfRank(incentive.incentive, rank.name), 'incentive_id');
  if (!held) throw new RuleViolation(incentiveMessages.notQualified, 'rank_id');
  // A member holds every rank at or below the one they reached: the claimed rank's points ≤ the held rank's.
  if (rank.points > held.points) throw new RuleViolation(incentiveMessages.rankNotReached(rank.name, rank.points), 'rank_id');
  if (command.existing_claim?.status === 'processing') throw new RuleViolation(incentiveMessages.alreadyProcessing, 'incentive_id');
  if (command.existing_claim?.status === 'approved') throw new RuleViolation(incentiveMessages.alreadyApproved, 'incentive_id');
  const claimed: IncentiveClaimed = {
    type: 'IncentiveClaimed',
    data: {
      claim_id: command.claim_id,
      member_id: command.member_id,
      rank_id: rank.id,
      rank_name: rank.name,
      incentive_id: incentive.id,
      incentive: incentive.incentive,
      worth_kobo: incentive.worth_kobo,
      points: rank.points,
      cpv: command.cpv,
    },
  };
  return [claimed];
}

function processing(state: ClaimState) {
  if (state.status === 'none') throw new NotFound(incentiveMessages.claimNotFound);
  if (state.status !== 'processing') throw new RuleViolation(incentiveMessages.notProcessing(state.status));
  return state;
}

export function decideClaim(command: IncentiveClaimCommand, state: ClaimState): IncentiveClaimEvent[] {
  switch (command.type) {
    case 'ClaimIncentive':
      return claim(command.data, state);
    case 'ApproveClaim': {
      const open = processing(state);
      const approved: IncentiveClaimApproved = {
        type: 'IncentiveClaimApproved',
        data: { claim_id: open.claimId, member_id: open.memberId, rank_id: open.rankId, incentive_id: open.incentiveId, incentive: open.incentive, worth_kobo: open.worthKobo },
      };
      return [approved];
    }
    case 'DeclineClaim': {
      const open = processing(state);
      const reason = command.data.reason?.trim();
      const declined: IncentiveClaimDeclined = {
        type: 'IncentiveClaimDeclined',
        data: { claim_id: open.claimId, member_id: open.memberId, incentive_id: open.incentiveId, ...(reason ? { reason } : {}) },
      };
      return [declined];
    }
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const incentiveClaimDecider: Decider<ClaimState, IncentiveClaimCommand, IncentiveClaimEvent> = {
  initialState: initialClaimState,
  evolve: evolveClaim,
  decide: decideClaim,
};
