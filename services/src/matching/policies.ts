import type { BonusCause, BonusCredited, BonusWithheld, CompensationEvent } from '../compensation/events';
import { percentOf } from '../core/money';

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
