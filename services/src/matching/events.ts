import type { DomainEvent } from '../core/event-store';
import type { NotQualifiedReason } from './policies';

/**
 * The matching (binary pairing) bonus runs in cycles (BUSINESS-RULES.md §3 "Matching"). A cycle is
 * named by its last day, a date in Lagos; closing it is one event on its own stream, appended at
 * expected version 0, so a cycle closes once however often the scheduler or an operator asks.
 * The terms of the plan are copied from the settings when the cycle closes: the `matching`
 * policy pays the cycle with them, so a settings change afterwards does not change a closed cycle.
 */
export type MatchingCycleClosed = DomainEvent<
  'MatchingCycleClosed',
  {
    /** The cycle's last day, YYYY-MM-DD (Lagos). */
    cycle_end: string;
    /** setting.matching_bonus_frequency when the cycle closed. */
    frequency_days: number;
    /** PV per pair: setting.matching_bonus_total_pv. */
    total_pv: number;
    /** setting.matching_bonus_percent. */
    percent: number;
    /** Naira value of 1 PV, in kobo: setting.unit_point_value. */
    unit_point_value_kobo: number;
  }
>;

/**
 * Each member the points policy considered at a cycle's close (one with at least a pair's worth of
 * volume, paid or not), what came of it and what carries: the facts `matching_results` and
 * `matching_carry` are projected from (projections.ts projectMatching), so both rebuild from the
 * log. The paid and capped members' money is in their wallet events; this records the rest too
 * (members who did not qualify, and the leg volumes seen at the close).
 *
 * Up to MATCHING_OUTCOMES_PER_EVENT members per event, on `matching-outcomes-<cycle_end>`, and in
 * columns (index i of every array is one member): a cycle over 1,000,000 members is some 500
 * events of compact arrays rather than a million small ones, or a million repeated key names.
 */
export type MatchingOutcomesRecorded = DomainEvent<
  'MatchingOutcomesRecorded',
  {
    cycle_end: string;
    columns: MatchingOutcomeColumns;
  }
>;

/** One array per field of MatchingOutcome, the same length each. */
export type MatchingOutcomeColumns = { [K in keyof MatchingOutcome]: Array<MatchingOutcome[K]> };

/** One considered member at one cycle (a row of matching_results, and the member's carry after it). */
export type MatchingOutcome = {
  member_id: string;
  outcome: 'paid' | 'capped' | 'not_qualified';
  reason: NotQualifiedReason | null;
  /** Pairs formed (for a member who did not qualify: the pairs the volume would have formed). */
  pairs: number;
  /** Volume to pair at the close on each leg: carried from the last cycle plus new. */
  left_pv: number;
  right_pv: number;
  credited_kobo: number;
  withheld_kobo: number;
  /** What carries to the next cycle on each leg (left_pv less the pairs' PV when paid or capped; all of it otherwise). */
  carried_left: number;
  carried_right: number;
  /** The member's cumulative leg volumes (member_points) at the close. */
  seen_left: number;
  seen_right: number;
};

/**
 * The cycle's totals, after its MatchingOutcomesRecorded: `matching_cycles`' paid_at and counts
 * are projected from it. One per payment of the cycle (normally one per cycle; a re-run of a paid
 * cycle that finds nobody new records nothing). The totals are of the members these outcomes name.
 */
export type MatchingCycleSettled = DomainEvent<
  'MatchingCycleSettled',
  {
    cycle_end: string;
    /** Paid or capped. */
    members_matched: number;
    members_capped: number;
    members_not_qualified: number;
    /** Pairs paid (paid and capped members). */
    pairs: number;
    credited_kobo: number;
    withheld_kobo: number;
    /** How many MatchingOutcomesRecorded precede it for this payment. */
    outcome_events: number;
  }
>;

export type MatchingEvent = MatchingCycleClosed | MatchingOutcomesRecorded | MatchingCycleSettled;

export const matchingCycleStream = (cycleEnd: string) => `matching-cycle-${cycleEnd}`;
export const matchingOutcomesStream = (cycleEnd: string) => `matching-outcomes-${cycleEnd}`;

/** Members per MatchingOutcomesRecorded: ~200 KB of data each, and words the explorer's search indexes stay well under a tsvector's 1 MB. */
export const MATCHING_OUTCOMES_PER_EVENT = 2000;
