/**
 * The payout schedule (BUSINESS-RULES.md §4, seed 002 "Withdrawal payout schedule"): weekly on
 * weekday 1–7 (Sunday–Saturday), monthly on day 1–30, or none (withdrawals go out at once). Days
 * are the company's, in Nigeria (West Africa Time, UTC+1 all year).
 */
export type PayoutSchedule = { withdrawal_type: 'weekly' | 'monthly' | null; withdrawal_period: number | null };

const WAT_OFFSET_MS = 60 * 60_000;

/** The company's calendar date at `now`, as YYYY-MM-DD. */
export function companyDate(now: Date): string {
  return new Date(now.getTime() + WAT_OFFSET_MS).toISOString().slice(0, 10);
}

export function hasSchedule(schedule: PayoutSchedule): boolean {
  return schedule.withdrawal_type !== null && schedule.withdrawal_period !== null;
}

/**
 * Whether `now` falls on a payout day. Without a schedule every day is one. A monthly day past
 * the month's end (30 in February) pays on the month's last day, so no month is skipped.
 */
export function isPayoutDay(schedule: PayoutSchedule, now: Date): boolean {
  if (!hasSchedule(schedule)) return true;
  const local = new Date(now.getTime() + WAT_OFFSET_MS);
  const period = schedule.withdrawal_period!;
  if (schedule.withdrawal_type === 'weekly') return local.getUTCDay() + 1 === period;
  const daysInMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
  return local.getUTCDate() === Math.min(period, daysInMonth);
}
