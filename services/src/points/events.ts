import type { BonusCause } from '../compensation/events';
import type { DomainEvent } from '../core/event-store';

/**
 * A member reached a rank (BUSINESS-RULES.md §3 "Ranks and incentives"): the highest rank whose
 * points ≤ the member's CPV and whose package id ≤ the member's package id, once it is above the
 * rank recorded before. Ranks never go down, and each (member, rank) is recorded once.
 *
 * Recorded by the `points` policy on `rank-<memberId>`. `cause` names the event that raised the
 * CPV (an activation, an upgrade or a repurchase somewhere in the downline) or unlocked the rank
 * (the member's own upgrade), so "why do I hold this rank?" has an answer in the log, and
 * incentives can be claimed against it.
 */
export type RankAchieved = DomainEvent<
  'RankAchieved',
  {
    member_id: string;
    rank_id: number;
    rank_name: string;
    /** The rank held before; null for the first rank. */
    previous_rank_id: number | null;
    /** The CPV and package that qualified for the rank when it was reached. */
    cpv: number;
    package_id: number;
    cause: BonusCause;
  }
>;

export type PointsEvent = RankAchieved;

export const rankStream = (memberId: string) => `rank-${memberId}`;

/** The unique-key scope and key that keep a rank from being recorded twice (replays, rebuilds). */
export const rankKeyScope = 'rank';
export const rankKey = (memberId: string, rankId: number) => `${memberId}:${rankId}`;
