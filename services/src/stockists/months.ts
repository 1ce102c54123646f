import { companyDate } from '../wallet/payout-schedule';

/** The start of a Lagos calendar month (offset 0 = this month, -1 = the previous one), as an instant and as YYYY-MM. */
export function lagosMonthStart(now: Date, offset: number): { start: Date; month: string } {
  const today = companyDate(now);
  const index = Number(today.slice(0, 4)) * 12 + (Number(today.slice(5, 7)) - 1) + offset;
  const month = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  // Lagos is UTC+1 all year (no daylight saving).
  return { start: new Date(`${month}-01T00:00:00+01:00`), month };
}
