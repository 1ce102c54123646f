import type { BonusCause, BonusCredited, BonusWithheld, CompensationEvent } from '../compensation/events';
import { percentOf } from '../core/money';
import {
  MATCHING_OUTCOMES_PER_EVENT,
  type MatchingCycleSettled,
  type MatchingOutcome,
  type MatchingOutcomeColumns,
  type MatchingOutcomesRecorded,
} from './events';

/**
 * The matching (binary pairing) bonus as pure functions (BUSINESS-RULES.md §3 "Matching"): the
 * cycle calendar and one member's result in one cycle. No database or clock: the `matching`
 * policy (projections.ts) gathers the facts set-based and records what these decide.
 */

// ---------------------------------------------------------------------------------------------
// The calendar

/**
 * Cycles are counted from a fixed first day, 2026-01-01 in Lagos: cycle k (k ≥ 1) is the
 * `frequency` days from MATCHING_EPOCH + (k − 1) × frequency, named by its last day
 * MATCHING_EPOCH + k × frequency − 1, and due from the midnight (Lagos) after that day. With the
 * seeded 7 days: 2026-01-07, 2026-01-14, … 2026-11-18, 2026-11-25. A changed frequency moves the
 * grid; cycles already closed stay as they were and the next one is the first end after them.
 */
export const MATCHING_EPOCH = '2026-01-01';

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** The last day of cycle k. */
const cycleEnd = (k: number, frequencyDays: number): string => dateOfDay(dayNumber(MATCHING_EPOCH) + k * frequencyDays - 1);

/**
 * The cycles the scheduler should close on `today` (the company's date), oldest first: every
 * cycle that ended before today and after the last closed one. With nothing closed yet only the
 * latest ended cycle: the first run pays the volume gathered so far once, not once per past week.
 */
export function dueCycleEnds(input: { today: string; frequencyDays: number; lastClosed: string | null }): string[] {
  const f = input.frequencyDays;
  const latest = Math.floor((dayNumber(input.today) - dayNumber(MATCHING_EPOCH)) / f);
  if (latest < 1) return [];
  if (input.lastClosed === null) return [cycleEnd(latest, f)];
  const first = Math.max(1, Math.floor((dayNumber(input.lastClosed) - dayNumber(MATCHING_EPOCH) + 1) / f) + 1);
  const ends: string[] = [];
  for (let k = first; k <= latest; k++) ends.push(cycleEnd(k, f));
  return ends;
}

// ---------------------------------------------------------------------------------------------
// One member in one cycle

/** The plan's terms for a cycle, as recorded on MatchingCycleClosed. */
export type MatchingTerms = { cycle_end: string; total_pv: number; percent: number; unit_point_value_kobo: number };

export type MatchingMember = {
  id: string;
  /** Activated when the cycle closed. */
  active: boolean;
  /** Not active, with a registration payment awaiting an admin's decision at the close. */
  paymentPending?: boolean;
  /** Whether the member had a placement child on that leg at the close and it was active then. */
  leftChildActive: boolean;
  rightChildActive: boolean;
  /** The package's matching_bonus_cap per cycle at the close, kobo; 0 = no cap. */
  capKobo: number;
  /** Leg volume left over after the member's last cycle. */
  carriedLeft: number;
  carriedRight: number;
  /** Leg volume added since then, up to the close. */
  newLeft: number;
  newRight: number;
};

/** Why a member with volume was not paid at a cycle: the volume carries whole to the next cycle. */
export type NotQualifiedReason = 'inactive' | 'payment_pending' | 'no_second_leg';

export type MatchingResult = {
  /** paid (all of it), capped (the part above the cap withheld), not_qualified (nothing consumed, all carries), or none (no pair). */
  outcome: 'paid' | 'capped' | 'not_qualified' | 'none';
  reason: NotQualifiedReason | null;
  decisions: CompensationEvent[];
  /** Pairs formed (for a member who does not qualify: the pairs the volume would form). */
  pairs: number;
  /** PV taken from each leg: pairs × total_pv when paid or capped, else 0 (all of it carries). */
  consumedPv: number;
};

/** Qualifies for a cycle (BUSINESS-RULES.md §3): active at the close, with two active placement children then. */
export function notQualifiedReason(member: MatchingMember): NotQualifiedReason | null {
  if (!member.active) return member.paymentPending ? 'payment_pending' : 'inactive';
  if (!member.leftChildActive || !member.rightChildActive) return 'no_second_leg';
  return null;
}

/**
 * L = carried_left + new_left, R = carried_right + new_right, pairs = floor(min(L, R) / total_pv),
 * bonus = pct(pairs × total_pv × unit_point_value, percent), paid up to the package's cap (when
 * above 0) and the rest withheld as 'matching_cap_reached': money that will never be paid.
 *
 * A member who does not qualify (not active, payment pending, or fewer than two active placement
 * children) keeps both legs whole: nothing is consumed, nothing is withheld (it may still be paid),
 * and the result says why and what carries. Nothing at all when no pair formed.
 */
export function matchingBonus(member: MatchingMember, terms: MatchingTerms, cause: BonusCause): MatchingResult {
  const none: MatchingResult = { outcome: 'none', reason: null, decisions: [], pairs: 0, consumedPv: 0 };
  if (terms.total_pv <= 0) return none;
  const left = member.carriedLeft + member.newLeft;
  const right = member.carriedRight + member.newRight;
  const pairs = Math.floor(Math.min(left, right) / terms.total_pv);
  if (pairs <= 0) return none;
  const reason = notQualifiedReason(member);
  if (reason) return { outcome: 'not_qualified', reason, decisions: [], pairs, consumedPv: 0 };
  const bonus = percentOf(pairs * terms.total_pv * terms.unit_point_value_kobo, terms.percent);
  if (bonus <= 0) return { ...none, pairs };
  const payable = member.capKobo > 0 ? Math.min(bonus, member.capKobo) : bonus;
  const inputs = {
    cycle_end: terms.cycle_end,
    carried_left: member.carriedLeft,
    carried_right: member.carriedRight,
    new_left: member.newLeft,
    new_right: member.newRight,
    pairs,
    total_pv: terms.total_pv,
    unit_point_value_kobo: terms.unit_point_value_kobo,
    percent: terms.percent,
    cap_kobo: member.capKobo,
  };
  const base = { kind: 'matching' as const, beneficiary_id: member.id, cause, generation: null, inputs };
  const credited: BonusCredited = { type: 'BonusCredited', data: { ...base, amount_kobo: payable } };
  if (bonus === payable) return { outcome: 'paid', reason: null, decisions: [credited], pairs, consumedPv: pairs * terms.total_pv };
  const withheld: BonusWithheld = { type: 'BonusWithheld', data: { ...base, amount_kobo: bonus - payable, reason: 'matching_cap_reached' } };
  return { outcome: 'capped', reason: null, decisions: [credited, withheld], pairs, consumedPv: pairs * terms.total_pv };
}

// ---------------------------------------------------------------------------------------------
// A cycle's outcomes, as recorded in the log

/**
 * One considered member's outcome as MatchingOutcomesRecorded carries it, or null when nothing
 * formed (no row, no carry change). `seen` is the member's cumulative leg volumes at the close.
 */
export function matchingOutcome(member: MatchingMember, result: MatchingResult, seen: { left: number; right: number }): MatchingOutcome | null {
  if (result.outcome === 'none') return null;
  const amount = (type: CompensationEvent['type']) => result.decisions.filter((e) => e.type === type).reduce((sum, e) => sum + e.data.amount_kobo, 0);
  const left = member.carriedLeft + member.newLeft;
  const right = member.carriedRight + member.newRight;
  return {
    member_id: member.id,
    outcome: result.outcome,
    reason: result.reason,
    pairs: result.pairs,
    left_pv: left,
    right_pv: right,
    credited_kobo: amount('BonusCredited'),
    withheld_kobo: amount('BonusWithheld'),
    carried_left: left - result.consumedPv,
    carried_right: right - result.consumedPv,
    seen_left: seen.left,
    seen_right: seen.right,
  };
}

/**
 * The member's carry after the cycle (a matching_carry row): consumed is what pairs have used of
 * each cumulative leg so far, i.e. the volume seen at the close less what carries.
 */
export function carryAfter(outcome: MatchingOutcome): { consumed_left: number; consumed_right: number; seen_left: number; seen_right: number } {
  return {
    consumed_left: outcome.seen_left - outcome.carried_left,
    consumed_right: outcome.seen_right - outcome.carried_right,
    seen_left: outcome.seen_left,
    seen_right: outcome.seen_right,
  };
}

const outcomeFields = [
  'member_id', 'outcome', 'reason', 'pairs', 'left_pv', 'right_pv', 'credited_kobo', 'withheld_kobo', 'carried_left', 'carried_right', 'seen_left', 'seen_right',
] as const satisfies ReadonlyArray<keyof MatchingOutcome>;

/** Outcomes as columns (the event's form): index i of every array is the i-th member. */
export function outcomeColumns(outcomes: readonly MatchingOutcome[]): MatchingOutcomeColumns {
  return Object.fromEntries(outcomeFields.map((field) => [field, outcomes.map((o) => o[field])])) as MatchingOutcomeColumns;
}

/** The members of a MatchingOutcomesRecorded, row by row. */
export function outcomeRows(columns: MatchingOutcomeColumns): MatchingOutcome[] {
  return columns.member_id.map((_, i) => Object.fromEntries(outcomeFields.map((field) => [field, columns[field][i]])) as MatchingOutcome);
}

/**
 * What a payment of a cycle records: its outcomes in events of up to `perEvent` members, in the
 * order given, then the totals of those members (MatchingCycleSettled).
 */
export function cycleSettlement(
  cycleEnd: string,
  outcomes: readonly MatchingOutcome[],
  perEvent: number = MATCHING_OUTCOMES_PER_EVENT,
): { recorded: MatchingOutcomesRecorded[]; settled: MatchingCycleSettled } {
  const recorded: MatchingOutcomesRecorded[] = [];
  for (let start = 0; start < outcomes.length; start += perEvent) {
    recorded.push({ type: 'MatchingOutcomesRecorded', data: { cycle_end: cycleEnd, columns: outcomeColumns(outcomes.slice(start, start + perEvent)) } });
  }
  const matched = outcomes.filter((o) => o.outcome !== 'not_qualified');
  const sum = (pick: (o: MatchingOutcome) => number) => outcomes.reduce((total, o) => total + pick(o), 0);
  const settled: MatchingCycleSettled = {
    type: 'MatchingCycleSettled',
    data: {
      cycle_end: cycleEnd,
      members_matched: matched.length,
      members_capped: outcomes.filter((o) => o.outcome === 'capped').length,
      members_not_qualified: outcomes.length - matched.length,
      pairs: matched.reduce((total, o) => total + o.pairs, 0),
      credited_kobo: sum((o) => o.credited_kobo),
      withheld_kobo: sum((o) => o.withheld_kobo),
      outcome_events: recorded.length,
    },
  };
  return { recorded, settled };
}
