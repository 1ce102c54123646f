import type { BonusCause, BonusCredited } from '../compensation/events';
import { percentOf } from '../core/money';
import type { ProfitPoolCriteria } from './events';

/**
 * Global profit and profit pool as pure functions (BUSINESS-RULES.md §3): given a run and the
 * members as they are when it is paid, the bonuses it pays. Amounts are floored to the kobo at
 * each step; what the floors leave stays with the company and is written into every bonus's
 * inputs, so an auditor can add the shares and the remainders back up to the pool.
 *
 * Dates are the company's calendar dates in Lagos, as 'YYYY-MM-DD' (wallet/payout-schedule.ts
 * `companyDate`); months as 'YYYY-MM'.
 */

// ---- calendar ----------------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** (year, month 1–12, day) as a date; a day past the month's end is the month's last day (31 in February → 28/29). */
export function dateOf(year: number, month: number, day: number): string {
  return `${year}-${pad(month)}-${pad(Math.min(day, daysInMonth(year, month)))}`;
}

function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Same day `months` later (or earlier), on the month's last day when it has no such day. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  return dateOf(Math.floor(index / 12), (index % 12) + 1, d);
}

/** The month before the date's month, as 'YYYY-MM'. */
export function previousMonth(date: string): string {
  return addMonths(`${date.slice(0, 7)}-01`, -1).slice(0, 7);
}

// ---- global profit -----------------------------------------------------------------------------

/**
 * The settings hold only a month and a day (seed 002 "Global Profit Settings"). The share date they
 * name is their first occurrence on or after the day they were set (`anchor`): set on 20 November
 * to month 12 day 31, it is 31 December of that year; set on 20 November to month 1 day 15, it is
 * 15 January of the next year.
 */
export function shareDateOnOrAfter(anchor: string, month: number, day: number): string {
  const year = Number(anchor.slice(0, 4));
  const candidate = dateOf(year, month, day);
  return candidate >= anchor ? candidate : dateOf(year + 1, month, day);
}

/** After a share the next share date moves one month on: December's is followed by January's. */
export function nextShareMonth(month: number): number {
  return month === 12 ? 1 : month + 1;
}

export type GlobalProfitMember = { id: string; cpv: number };

/**
 * A global profit share among the eligible members (rank held is global-profit eligible):
 * - equal part: equal_pool = pct(pool, first%); each member floor(equal_pool / n);
 * - CPV part: cpv_pool = pct(pool, second%); each member floor(cpv_pool × cpv_i / Σcpv).
 * One bonus per member (both parts); none when the member's total is 0; no members, nothing paid.
 */
export function globalProfitShares(input: {
  cause: BonusCause;
  share_date: string;
  pool_kobo: number;
  first_percentage: number;
  second_percentage: number;
  members: readonly GlobalProfitMember[];
}): BonusCredited[] {
  const n = input.members.length;
  if (n === 0) return [];
  const equalPool = percentOf(input.pool_kobo, input.first_percentage);
  const cpvPool = percentOf(input.pool_kobo, input.second_percentage);
  const equalShare = Math.floor(equalPool / n);
  const totalCpv = input.members.reduce((sum, m) => sum + m.cpv, 0);
  // BigInt: a pool of billions of kobo times a CPV of millions passes 2^53.
  const cpvShare = (cpv: number) => (totalCpv > 0 ? Number((BigInt(cpvPool) * BigInt(cpv)) / BigInt(totalCpv)) : 0);
  const cpvPaid = input.members.reduce((sum, m) => sum + cpvShare(m.cpv), 0);
  const shared = {
    share_date: input.share_date,
    pool_kobo: input.pool_kobo,
    first_percentage: input.first_percentage,
    second_percentage: input.second_percentage,
    eligible_count: n,
    equal_pool_kobo: equalPool,
    equal_share_kobo: equalShare,
    equal_remainder_kobo: equalPool - equalShare * n,
    cpv_pool_kobo: cpvPool,
    total_cpv: totalCpv,
    // With no CPV at all the CPV part is not shared: it all stays with the company.
    cpv_remainder_kobo: cpvPool - cpvPaid,
    company_remainder_kobo: input.pool_kobo - equalShare * n - cpvPaid,
  };
  return input.members.flatMap((member): BonusCredited[] => {
    const share = cpvShare(member.cpv);
    const amount = equalShare + share;
    if (amount <= 0) return [];
    return [{
      type: 'BonusCredited',
      data: { kind: 'global_profit', beneficiary_id: member.id, amount_kobo: amount, cause: input.cause, generation: null, inputs: { ...shared, cpv: member.cpv, cpv_share_kobo: share } },
    }];
  });
}

// ---- profit pool -------------------------------------------------------------------------------

/**
 * The profit-pool package. Packages carry no flag for it; BUSINESS-RULES.md names the seeded
 * package 6 (Crown), the highest one, and the seeds' dashboard tests `package_id == 6`. The
 * highest registration package is that package in the seed and stays the top package if an
 * admin renames or reprices it. Recorded in each run's criteria.
 */
export function profitPoolPackageId(packageIds: readonly number[]): number | null {
  return packageIds.length === 0 ? null : Math.max(...packageIds);
}

export type ProfitPoolCandidate = {
  id: string;
  package_id: number;
  active: boolean;
  /** The company date of the activation; null if never activated. */
  activated_on: string | null;
  /** Members this member sponsored who are active. */
  active_sponsored: number;
};

/**
 * On the profit-pool package, active, with at least min_downlines active sponsored members,
 * activated at least days_offset days and at most duration_months months before the run's date
 * (both bounds inclusive, compared as calendar dates).
 */
export function qualifiesForProfitPool(member: ProfitPoolCandidate, criteria: ProfitPoolCriteria, runDate: string): boolean {
  if (!member.active || member.activated_on === null) return false;
  if (member.package_id !== criteria.package_id) return false;
  if (member.active_sponsored < criteria.min_downlines) return false;
  return member.activated_on <= addDays(runDate, -criteria.days_offset) && member.activated_on >= addMonths(runDate, -criteria.duration_months);
}

/** The criteria in force: the profit-pool package and the settings' profit_pool_* values. */
export function profitPoolCriteria(
  settings: { profit_pool_num_of_downlines: number; profit_pool_days_offset: number; profit_pool_duration: number },
  packageId: number,
): ProfitPoolCriteria {
  return { package_id: packageId, min_downlines: settings.profit_pool_num_of_downlines, days_offset: settings.profit_pool_days_offset, duration_months: settings.profit_pool_duration };
}

/** pool = pct(last month's registration and upgrade payments, profit_pool_percentage). */
export function profitPool(basisKobo: number, percentage: number): number {
  return percentOf(basisKobo, percentage);
}

/** The profit pool of a month shared equally: floor(pool / n) to each qualifying member. */
export function profitPoolShares(input: {
  cause: BonusCause;
  month: string;
  basis_kobo: number;
  percentage: number;
  pool_kobo: number;
  criteria: ProfitPoolCriteria;
  run_date: string;
  candidates: readonly ProfitPoolCandidate[];
}): BonusCredited[] {
  const qualifying = input.candidates.filter((c) => qualifiesForProfitPool(c, input.criteria, input.run_date));
  const n = qualifying.length;
  if (n === 0) return [];
  const share = Math.floor(input.pool_kobo / n);
  if (share <= 0) return [];
  const inputs = {
    month: input.month,
    basis_kobo: input.basis_kobo,
    percentage: input.percentage,
    pool_kobo: input.pool_kobo,
    qualifying_count: n,
    share_kobo: share,
    company_remainder_kobo: input.pool_kobo - share * n,
    package_id: input.criteria.package_id,
    min_downlines: input.criteria.min_downlines,
    days_offset: input.criteria.days_offset,
    duration_months: input.criteria.duration_months,
    run_date: input.run_date,
  };
  return qualifying.map((member) => ({
    type: 'BonusCredited',
    data: {
      kind: 'profit_pool',
      beneficiary_id: member.id,
      amount_kobo: share,
      cause: input.cause,
      generation: null,
      inputs: { ...inputs, active_sponsored: member.active_sponsored, activated_on: member.activated_on },
    },
  }));
}

// ---- the runs ------------------------------------------------------------------------------------

export type GlobalProfitSettings = {
  global_profit_value_kobo: number;
  global_profit_first_percentage: number;
  global_profit_second_percentage: number;
  next_global_profit_share_month: number;
  next_global_profit_share_day: number;
};

/**
 * Whether a global profit share is due on `today`: the share date the settings name (counted from
 * `anchor`, the day they were set) has come. Due: the run's event and the month the next share
 * date moves to. A run the worker missed (down on the share date) happens on its next pass.
 */
export function dueGlobalProfitShare(input: { today: string; anchor: string; settings: GlobalProfitSettings }):
  | { share_date: string; pool_kobo: number; first_percentage: number; second_percentage: number; next_month: number }
  | null {
  const s = input.settings;
  const shareDate = shareDateOnOrAfter(input.anchor, s.next_global_profit_share_month, s.next_global_profit_share_day);
  if (input.today < shareDate) return null;
  return {
    share_date: shareDate,
    pool_kobo: s.global_profit_value_kobo,
    first_percentage: s.global_profit_first_percentage,
    second_percentage: s.global_profit_second_percentage,
    next_month: nextShareMonth(s.next_global_profit_share_month),
  };
}
