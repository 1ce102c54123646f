import { describe, expect, it } from 'vitest';
import type { BonusCause } from '../compensation/events';
import { type MatchingMember, type MatchingTerms, carryAfter, cycleSettlement, dueCycleEnds, isCalendarDate, matchingBonus, matchingOutcome, outcomeColumns, outcomeRows } from './policies';

/** The seeded plan: a pair is 100 PV, 1 PV = ₦1,000, 10% → one pair pays 100 × ₦1,000 × 10% = ₦10,000. */
const terms: MatchingTerms = { cycle_end: '2026-11-18', total_pv: 100, percent: 10, unit_point_value_kobo: 100_000 };
const cause: BonusCause = { event_id: 'ev-cycle', event_type: 'MatchingCycleClosed', stream_id: 'matching-cycle-2026-11-18', member_id: null };
const member = (overrides: Partial<MatchingMember> = {}): MatchingMember => ({
  id: 'a',
  active: true,
  leftChildActive: true,
  rightChildActive: true,
  capKobo: 0,
  carriedLeft: 0,
  carriedRight: 0,
  newLeft: 0,
  newRight: 0,
  ...overrides,
});

describe('the matching bonus of one member in one cycle', () => {
  it('Given L = 0 + 350 and R = 0 + 320, Then pairs = floor(320 / 100) = 3, bonus = 3 × 100 × ₦1,000 × 10% = ₦30,000, each leg loses 300 (50 and 20 carry)', () => {
    const result = matchingBonus(member({ newLeft: 350, newRight: 320 }), terms, cause);
    expect(result.pairs).toBe(3);
    expect(result.consumedPv).toBe(300);
    expect(result.decisions).toEqual([
      {
        type: 'BonusCredited',
        data: {
          kind: 'matching',
          beneficiary_id: 'a',
          amount_kobo: 3_000_000,
          cause,
          generation: null,
          inputs: { cycle_end: '2026-11-18', carried_left: 0, carried_right: 0, new_left: 350, new_right: 320, pairs: 3, total_pv: 100, unit_point_value_kobo: 100_000, percent: 10, cap_kobo: 0 },
        },
      },
    ]);
  });

  it('Given carried L 50 + new 30 = 80 and carried R 20 + new 200 = 220, Then min 80 < 100: no pair, nothing recorded, nothing consumed', () => {
    expect(matchingBonus(member({ carriedLeft: 50, newLeft: 30, carriedRight: 20, newRight: 200 }), terms, cause)).toEqual({ outcome: 'none', reason: null, decisions: [], pairs: 0, consumedPv: 0 });
  });

  it('Given carried L 50 + new 60 = 110 and carried R 20 + new 180 = 200, Then 1 pair = ₦10,000, and the carry forms part of it', () => {
    const result = matchingBonus(member({ carriedLeft: 50, newLeft: 60, carriedRight: 20, newRight: 180 }), terms, cause);
    expect(result).toMatchObject({ pairs: 1, consumedPv: 100 });
    expect(result.decisions[0]).toMatchObject({ type: 'BonusCredited', data: { amount_kobo: 1_000_000, inputs: { carried_left: 50, new_left: 60, carried_right: 20, new_right: 180, pairs: 1 } } });
  });

  it('Given a 7.5% plan and 1 pair, Then 100 × ₦1,000 × 7.5% = ₦7,500; with 1 PV = ₦0.33, 100 × 33 kobo × 7.5% = 247.5 → 247 kobo (rounded down)', () => {
    expect(matchingBonus(member({ newLeft: 100, newRight: 100 }), { ...terms, percent: 7.5 }, cause).decisions[0]!.data.amount_kobo).toBe(750_000);
    expect(matchingBonus(member({ newLeft: 100, newRight: 100 }), { ...terms, percent: 7.5, unit_point_value_kobo: 33 }, cause).decisions[0]!.data.amount_kobo).toBe(247);
  });

  it('Given 6 pairs (₦60,000) and a Starter cap of ₦50,000, Then ₦50,000 credited and ₦60,000 − ₦50,000 = ₦10,000 withheld as matching_cap_reached; all 600 PV per leg are consumed', () => {
    const result = matchingBonus(member({ newLeft: 800, newRight: 600, capKobo: 5_000_000 }), terms, cause);
    expect(result).toMatchObject({ pairs: 6, consumedPv: 600 });
    expect(result.decisions.map((d) => [d.type, d.data.amount_kobo, d.type === 'BonusWithheld' ? d.data.reason : null])).toEqual([
      ['BonusCredited', 5_000_000, null],
      ['BonusWithheld', 1_000_000, 'matching_cap_reached'],
    ]);
    expect(result.decisions[0]!.data.inputs).toMatchObject({ cap_kobo: 5_000_000, pairs: 6 });
  });

  it('Given 5 pairs (₦50,000) and a cap of exactly ₦50,000, Then ₦50,000 credited and nothing withheld; a cap of 0 means no cap: 20 pairs = ₦200,000', () => {
    expect(matchingBonus(member({ newLeft: 500, newRight: 500, capKobo: 5_000_000 }), terms, cause).decisions.map((d) => d.type)).toEqual(['BonusCredited']);
    expect(matchingBonus(member({ newLeft: 2_000, newRight: 2_000, capKobo: 0 }), terms, cause).decisions.map((d) => d.data.amount_kobo)).toEqual([20_000_000]);
  });

  it('Given an inactive member with 2 pairs (L 250, R 200), Then not qualified: nothing paid, nothing withheld, nothing consumed (250 and 200 carry whole)', () => {
    expect(matchingBonus(member({ active: false, newLeft: 250, newRight: 200 }), terms, cause)).toEqual({ outcome: 'not_qualified', reason: 'inactive', decisions: [], pairs: 2, consumedPv: 0 });
  });

  it('Given a member whose registration payment awaits approval at the close, with 6 pairs, Then not qualified for that reason: the volume waits for the cycle after approval', () => {
    expect(matchingBonus(member({ active: false, paymentPending: true, newLeft: 600, newRight: 600, capKobo: 5_000_000 }), terms, cause)).toMatchObject({
      outcome: 'not_qualified',
      reason: 'payment_pending',
      decisions: [],
      consumedPv: 0,
    });
  });

  it('Given 1 pair but the right placement child inactive (its downline made the volume), Then not qualified (no second leg): nothing withheld, 100 and 100 carry', () => {
    expect(matchingBonus(member({ rightChildActive: false, newLeft: 100, newRight: 100 }), terms, cause)).toEqual({ outcome: 'not_qualified', reason: 'no_second_leg', decisions: [], pairs: 1, consumedPv: 0 });
  });

  it('Given a member who did not qualify last cycle (carried L 250, R 200) and qualifies now with new L 0, R 100, Then min(250, 200 + 100) = 250 → 2 pairs = ₦20,000, from volume that carried whole', () => {
    const result = matchingBonus(member({ carriedLeft: 250, carriedRight: 200, newRight: 100 }), terms, cause);
    expect(result).toMatchObject({ outcome: 'paid', pairs: 2, consumedPv: 200 });
    expect(result.decisions.map((d) => d.data.amount_kobo)).toEqual([2_000_000]);
  });

  it('Given an active member with volume on one leg only (L 500, R 0), Then no pair: nothing recorded, no withheld row every cycle', () => {
    expect(matchingBonus(member({ rightChildActive: false, newLeft: 500 }), terms, cause).decisions).toEqual([]);
  });

  it('Given a 0% plan and 3 pairs, Then nothing is recorded and nothing consumed (the volume keeps carrying)', () => {
    expect(matchingBonus(member({ newLeft: 300, newRight: 300 }), { ...terms, percent: 0 }, cause)).toMatchObject({ decisions: [], consumedPv: 0 });
  });
});

describe('the cycle calendar (from 2026-01-01 in Lagos, named by the last day)', () => {
  it('Given 7-day cycles and nothing closed, When today is 2026-11-22, Then only the latest ended cycle: day 0 = 01-01, 325 days later floor(325 / 7) = 46 cycles, the 46th ends 01-01 + 46 × 7 − 1 = 2026-11-18', () => {
    expect(dueCycleEnds({ today: '2026-11-22', frequencyDays: 7, lastClosed: null })).toEqual(['2026-11-18']);
  });

  it('Given 2026-11-18 closed, Then nothing is due until 2026-11-26 (the day after 11-25)', () => {
    expect(dueCycleEnds({ today: '2026-11-25', frequencyDays: 7, lastClosed: '2026-11-18' })).toEqual([]);
    expect(dueCycleEnds({ today: '2026-11-26', frequencyDays: 7, lastClosed: '2026-11-18' })).toEqual(['2026-11-25']);
  });

  it('Given 2026-11-04 closed and the scheduler down for two weeks, When today is 2026-11-22, Then 11-11 and 11-18 close, oldest first', () => {
    expect(dueCycleEnds({ today: '2026-11-22', frequencyDays: 7, lastClosed: '2026-11-04' })).toEqual(['2026-11-11', '2026-11-18']);
  });

  it('Given the first 7 days not over (today 2026-01-07), Then nothing; on 2026-01-08 the cycle ending 2026-01-07 is due', () => {
    expect(dueCycleEnds({ today: '2026-01-07', frequencyDays: 7, lastClosed: null })).toEqual([]);
    expect(dueCycleEnds({ today: '2026-01-08', frequencyDays: 7, lastClosed: null })).toEqual(['2026-01-07']);
  });

  it('Given the frequency changed from 7 to 30 days after 2026-11-18 closed, Then the next end on the 30-day grid after it: 01-01 + 11 × 30 − 1 = 2026-11-26, due from 11-27', () => {
    expect(dueCycleEnds({ today: '2026-11-26', frequencyDays: 30, lastClosed: '2026-11-18' })).toEqual([]);
    expect(dueCycleEnds({ today: '2026-11-27', frequencyDays: 30, lastClosed: '2026-11-18' })).toEqual(['2026-11-26']);
  });

  it('accepts only real dates written YYYY-MM-DD', () => {
    expect(isCalendarDate('2026-11-18')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('18/11/2026')).toBe(false);
  });
});

describe("a cycle's outcomes as the log records them (MatchingOutcomesRecorded, MatchingCycleSettled)", () => {
  // Seen = the member's cumulative legs at the close; consumed before = seen before − carried.
  const outcomeOf = (m: MatchingMember, seen: { left: number; right: number }) => matchingOutcome(m, matchingBonus(m, terms, cause), seen);

  it('Given carried L 50 + new 60 and carried R 20 + new 180, cumulative legs 410 and 500 at the close, When paid 1 pair, Then 10 and 100 carry, and the carry has consumed 400 of each leg', () => {
    const outcome = outcomeOf(member({ id: 'p', carriedLeft: 50, newLeft: 60, carriedRight: 20, newRight: 180 }), { left: 410, right: 500 })!;
    expect(outcome).toEqual({
      member_id: 'p', outcome: 'paid', reason: null, pairs: 1, left_pv: 110, right_pv: 200, credited_kobo: 1_000_000, withheld_kobo: 0,
      carried_left: 10, carried_right: 100, seen_left: 410, seen_right: 500,
    });
    // Before: 410 − 50 − 60 = 300 consumed on the left, 500 − 20 − 180 = 300 on the right; the pair adds 100 each.
    expect(carryAfter(outcome)).toEqual({ consumed_left: 400, consumed_right: 400, seen_left: 410, seen_right: 500 });
  });

  it('Given 6 pairs against a ₦50,000 cap, Then capped: ₦50,000 credited, ₦10,000 withheld, 600 consumed per leg', () => {
    expect(outcomeOf(member({ id: 'c', newLeft: 800, newRight: 600, capKobo: 5_000_000 }), { left: 800, right: 600 })).toMatchObject({
      outcome: 'capped', pairs: 6, credited_kobo: 5_000_000, withheld_kobo: 1_000_000, carried_left: 200, carried_right: 0,
    });
  });

  it('Given an inactive member with 2 pairs, Then not qualified: nothing paid, both legs carry whole and nothing more is consumed', () => {
    const outcome = outcomeOf(member({ id: 'n', active: false, carriedLeft: 30, newLeft: 220, newRight: 200 }), { left: 350, right: 200 })!;
    expect(outcome).toMatchObject({ outcome: 'not_qualified', reason: 'inactive', pairs: 2, credited_kobo: 0, withheld_kobo: 0, carried_left: 250, carried_right: 200 });
    expect(carryAfter(outcome)).toEqual({ consumed_left: 100, consumed_right: 0, seen_left: 350, seen_right: 200 });
  });

  it('Given no pair formed, Then no outcome is recorded (no row, the carry stays as it was)', () => {
    expect(outcomeOf(member({ newLeft: 90, newRight: 500 }), { left: 90, right: 500 })).toBeNull();
  });

  it('Given 5 outcomes and 2 per event, When settled, Then 3 events of 2, 2 and 1 members in order, and the totals of all 5 (pairs only of those paid or capped)', () => {
    const outcomes = [
      outcomeOf(member({ id: 'm1', newLeft: 100, newRight: 100 }), { left: 100, right: 100 })!,
      outcomeOf(member({ id: 'm2', newLeft: 800, newRight: 600, capKobo: 5_000_000 }), { left: 800, right: 600 })!,
      outcomeOf(member({ id: 'm3', active: false, newLeft: 300, newRight: 300 }), { left: 300, right: 300 })!,
      outcomeOf(member({ id: 'm4', rightChildActive: false, newLeft: 100, newRight: 100 }), { left: 100, right: 100 })!,
      outcomeOf(member({ id: 'm5', newLeft: 250, newRight: 200 }), { left: 250, right: 200 })!,
    ];
    const { recorded, settled } = cycleSettlement('2026-11-18', outcomes, 2);
    expect(recorded.map((e) => e.data.columns.member_id)).toEqual([['m1', 'm2'], ['m3', 'm4'], ['m5']]);
    expect(recorded.flatMap((e) => outcomeRows(e.data.columns))).toEqual(outcomes);
    expect(settled.data).toEqual({
      cycle_end: '2026-11-18', members_matched: 3, members_capped: 1, members_not_qualified: 2, pairs: 1 + 6 + 2,
      credited_kobo: 1_000_000 + 5_000_000 + 2_000_000, withheld_kobo: 1_000_000, outcome_events: 3,
    });
  });

  it('Given nobody considered, Then no outcome event, and a settlement of zeros (it still marks the cycle paid)', () => {
    const { recorded, settled } = cycleSettlement('2026-11-18', []);
    expect(recorded).toEqual([]);
    expect(settled.data).toMatchObject({ members_matched: 0, members_not_qualified: 0, pairs: 0, credited_kobo: 0, outcome_events: 0 });
  });

  it('records outcomes in columns: one array per field, index i is one member', () => {
    const one = outcomeOf(member({ id: 'x', newLeft: 100, newRight: 100 }), { left: 100, right: 100 })!;
    expect(outcomeColumns([one])).toEqual(Object.fromEntries(Object.entries(one).map(([k, v]) => [k, [v]])));
  });
});
