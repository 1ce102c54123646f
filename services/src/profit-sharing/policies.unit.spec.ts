import { describe, expect, it } from 'vitest';
import type { BonusCause, BonusCredited } from '../compensation/events';
import type { ProfitPoolCriteria } from './events';
import {
  addMonths,
  dueGlobalProfitShare,
  globalProfitShares,
  previousMonth,
  profitPool,
  profitPoolPackageId,
  profitPoolShares,
  qualifiesForProfitPool,
  shareDateOnOrAfter,
  type ProfitPoolCandidate,
} from './policies';

const cause: BonusCause = { event_id: 'ev-share', event_type: 'GlobalProfitShared', stream_id: 'global-profit-2026-12-31', member_id: null };
const paid = (events: BonusCredited[]) => Object.fromEntries(events.map((e) => [e.data.beneficiary_id, e.data.amount_kobo]));
const share = (pool: number, members: { id: string; cpv: number }[], first = 40, second = 60) =>
  globalProfitShares({ cause, share_date: '2026-12-31', pool_kobo: pool, first_percentage: first, second_percentage: second, members });

describe('global profit (Given a pool and the eligible members with their CPV)', () => {
  it('pool ₦1,000,000, 40% equal / 60% by CPV, A cpv 300 and B cpv 100: A 20,000,000 + 45,000,000 kobo, B 20,000,000 + 15,000,000 kobo', () => {
    const events = share(100_000_000, [{ id: 'a', cpv: 300 }, { id: 'b', cpv: 100 }]);
    expect(paid(events)).toEqual({ a: 65_000_000, b: 35_000_000 });
    expect(events.every((e) => e.data.kind === 'global_profit' && e.data.generation === null && e.data.cause === cause)).toBe(true);
  });

  it('pool 100,000 kobo at 33% / 67%, CPV 400 and 200: equal floor(33,000/2) = 16,500; CPV floor(67,000×400/600) = 44,666 and floor(67,000×200/600) = 22,333; the 1 kobo left stays with the company', () => {
    const events = share(100_000, [{ id: 'a', cpv: 400 }, { id: 'b', cpv: 200 }], 33, 67);
    expect(paid(events)).toEqual({ a: 16_500 + 44_666, b: 16_500 + 22_333 });
    expect(events[0]!.data.inputs).toMatchObject({
      share_date: '2026-12-31', pool_kobo: 100_000, eligible_count: 2, equal_pool_kobo: 33_000, equal_share_kobo: 16_500, equal_remainder_kobo: 0,
      cpv_pool_kobo: 67_000, total_cpv: 600, cpv: 400, cpv_share_kobo: 44_666, cpv_remainder_kobo: 1, company_remainder_kobo: 1,
    });
  });

  it('pool 1,000 kobo, 40% equal among 3 = floor(400/3) = 133 each, remainder 1 kobo; 60% by CPV 1:1:1 = 200 each', () => {
    const events = share(1_000, [{ id: 'a', cpv: 5 }, { id: 'b', cpv: 5 }, { id: 'c', cpv: 5 }]);
    expect(paid(events)).toEqual({ a: 333, b: 333, c: 333 });
    expect(events[0]!.data.inputs).toMatchObject({ equal_remainder_kobo: 1, cpv_remainder_kobo: 0, company_remainder_kobo: 1 });
  });

  it('a pool of ₦100,000,000 with CPVs in the millions is exact (no float overflow): 60% of 10,000,000,000 kobo × 3,000,000 / 4,000,000 = 4,500,000,000', () => {
    const events = share(10_000_000_000, [{ id: 'a', cpv: 3_000_000 }, { id: 'b', cpv: 1_000_000 }], 0, 60);
    expect(paid(events)).toEqual({ a: 4_500_000_000, b: 1_500_000_000 });
  });

  it('no eligible members: nothing is paid (the whole pool stays with the company)', () => {
    expect(share(100_000_000, [])).toEqual([]);
  });

  it('all CPVs 0: only the equal part is paid, 40% of 10,000 kobo / 2 = 2,000 each; the CPV part stays with the company', () => {
    const events = share(10_000, [{ id: 'a', cpv: 0 }, { id: 'b', cpv: 0 }]);
    expect(paid(events)).toEqual({ a: 2_000, b: 2_000 });
    expect(events[0]!.data.inputs).toMatchObject({ cpv_remainder_kobo: 6_000, company_remainder_kobo: 6_000 });
  });

  it('a member whose two parts are both 0 kobo gets no bonus: pool 10 kobo, 0% equal, CPV 1 of 100 → floor(6×1/100) = 0', () => {
    expect(paid(share(10, [{ id: 'a', cpv: 99 }, { id: 'b', cpv: 1 }], 0, 60))).toEqual({ a: 5 });
  });
});

describe('the global profit share date (settings hold a month and a day; the year is the first one on or after the day they were set)', () => {
  it('set on 2026-11-20 to 12/31: the share date is 2026-12-31; to 1/15: 2027-01-15; to 11/20: today', () => {
    expect(shareDateOnOrAfter('2026-11-20', 12, 31)).toBe('2026-12-31');
    expect(shareDateOnOrAfter('2026-11-20', 1, 15)).toBe('2027-01-15');
    expect(shareDateOnOrAfter('2026-11-20', 11, 20)).toBe('2026-11-20');
  });

  it('day 31 in February falls on its last day: 2027-02-28, 2028-02-29', () => {
    expect(shareDateOnOrAfter('2027-01-31', 2, 31)).toBe('2027-02-28');
    expect(shareDateOnOrAfter('2028-01-31', 2, 31)).toBe('2028-02-29');
  });

  const settings = { global_profit_value_kobo: 100_000_000, global_profit_first_percentage: 40, global_profit_second_percentage: 60, next_global_profit_share_month: 12, next_global_profit_share_day: 31 };

  it('Given 12/31 set on 2026-11-20, When it is 2026-12-30 Then nothing is due; on 2026-12-31 the share of 2026-12-31 is due and the next month is 1', () => {
    expect(dueGlobalProfitShare({ today: '2026-12-30', anchor: '2026-11-20', settings })).toBeNull();
    expect(dueGlobalProfitShare({ today: '2026-12-31', anchor: '2026-11-20', settings })).toEqual({
      share_date: '2026-12-31', pool_kobo: 100_000_000, first_percentage: 40, second_percentage: 60, next_month: 1,
    });
  });

  it('a share the worker missed is still due later (today 2027-01-02 ≥ 2026-12-31), for its own date', () => {
    expect(dueGlobalProfitShare({ today: '2027-01-02', anchor: '2026-11-20', settings })?.share_date).toBe('2026-12-31');
  });

  it('after the share moved the month to 1 on 2026-12-31, the next share date is 2027-01-31: not due on 2026-12-31', () => {
    const moved = { ...settings, next_global_profit_share_month: 1 };
    expect(dueGlobalProfitShare({ today: '2026-12-31', anchor: '2026-12-31', settings: moved })).toBeNull();
    expect(dueGlobalProfitShare({ today: '2027-01-31', anchor: '2026-12-31', settings: moved })?.share_date).toBe('2027-01-31');
  });
});

describe('profit pool (Given last month’s payments, the criteria and the members on the top package)', () => {
  const criteria: ProfitPoolCriteria = { package_id: 6, min_downlines: 4, days_offset: 30, duration_months: 12 };
  const runDate = '2026-12-01';
  const member = (over: Partial<ProfitPoolCandidate> = {}): ProfitPoolCandidate => ({ id: 'p', package_id: 6, active: true, activated_on: '2026-06-15', active_sponsored: 4, ...over });

  it('the profit-pool package is the highest package id: 6 of 1..6', () => {
    expect(profitPoolPackageId([1, 2, 3, 4, 5, 6])).toBe(6);
    expect(profitPoolPackageId([])).toBeNull();
  });

  it('pool = 2% of ₦2,365,000 = ₦47,300 (4,730,000 kobo), shared by 2 qualifying members = 2,365,000 kobo each', () => {
    const pool = profitPool(236_500_000, 2);
    expect(pool).toBe(4_730_000);
    const events = profitPoolShares({
      cause, month: '2026-11', basis_kobo: 236_500_000, percentage: 2, pool_kobo: pool, criteria, run_date: runDate,
      candidates: [member({ id: 'p1' }), member({ id: 'p2' }), member({ id: 'few', active_sponsored: 3 })],
    });
    expect(paid(events)).toEqual({ p1: 2_365_000, p2: 2_365_000 });
    expect(events[0]!.data).toMatchObject({ kind: 'profit_pool', generation: null, inputs: { month: '2026-11', qualifying_count: 2, share_kobo: 2_365_000, company_remainder_kobo: 0, package_id: 6 } });
  });

  it('pool 1,000 kobo among 3 = 333 each; the 1 kobo remainder stays with the company', () => {
    const events = profitPoolShares({ cause, month: '2026-11', basis_kobo: 50_000, percentage: 2, pool_kobo: 1_000, criteria, run_date: runDate, candidates: [member({ id: 'a' }), member({ id: 'b' }), member({ id: 'c' })] });
    expect(paid(events)).toEqual({ a: 333, b: 333, c: 333 });
    expect(events[0]!.data.inputs).toMatchObject({ company_remainder_kobo: 1 });
  });

  it('no qualifying member: nothing is paid', () => {
    expect(profitPoolShares({ cause, month: '2026-11', basis_kobo: 1_000_000, percentage: 2, pool_kobo: 20_000, criteria, run_date: runDate, candidates: [member({ package_id: 5 })] })).toEqual([]);
  });

  it('qualifies: package 6, active, ≥ 4 active sponsored members, activated between 2025-12-01 and 2026-11-01 inclusive (12 months and 30 days before 2026-12-01)', () => {
    expect(qualifiesForProfitPool(member(), criteria, runDate)).toBe(true);
    expect(qualifiesForProfitPool(member({ activated_on: '2026-11-01' }), criteria, runDate)).toBe(true);
    expect(qualifiesForProfitPool(member({ activated_on: '2025-12-01' }), criteria, runDate)).toBe(true);
  });

  it('does not qualify: another package, inactive, 3 sponsored, activated 29 days before, 12 months and a day before, never activated', () => {
    expect(qualifiesForProfitPool(member({ package_id: 5 }), criteria, runDate)).toBe(false);
    expect(qualifiesForProfitPool(member({ active: false }), criteria, runDate)).toBe(false);
    expect(qualifiesForProfitPool(member({ active_sponsored: 3 }), criteria, runDate)).toBe(false);
    expect(qualifiesForProfitPool(member({ activated_on: '2026-11-02' }), criteria, runDate)).toBe(false);
    expect(qualifiesForProfitPool(member({ activated_on: '2025-11-30' }), criteria, runDate)).toBe(false);
    expect(qualifiesForProfitPool(member({ activated_on: null }), criteria, runDate)).toBe(false);
  });

  it('the month shared on 2027-01-01 is 2026-12; on 2026-03-15 it is 2026-02; one month before 2026-03-31 is 2026-02-28', () => {
    expect(previousMonth('2027-01-01')).toBe('2026-12');
    expect(previousMonth('2026-03-15')).toBe('2026-02');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });
});
