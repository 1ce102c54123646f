import { TZDate } from '@date-fns/tz';
import { format, isValid, parseISO } from 'date-fns';

/**
 * The member app's one way of writing dates (issue 11): every page writes a day as
 * "22 Nov 2026", a moment as "22 Nov 2026, 5:47 AM WAT" and a month as "November 2026", through these.
 *
 * Always in Lagos time, as the back office writes them (web-admin/src/common/dates.ts): the
 * company's days, months and payout runs are Lagos ones, and the api sends a month or a day as
 * its Lagos midnight ("2026-11-01T00:00:00+01:00"), which a browser set to UTC would call
 * 31 October. A moment names the zone (Lagos keeps WAT all year) so a member abroad reads it right.
 */
export const COMPANY_TIME_ZONE = 'Africa/Lagos';

type DateInput = string | Date | null | undefined;

/** A bare calendar day ("2026-12-31", a share date) or month ("2026-11", a rebate's month) names itself, not a moment to move into Lagos time. */
const CALENDAR = /^\d{4}-\d{2}(-\d{2})?$/;

function inLagos(value: DateInput): Date | null {
  if (!value) return null;
  if (typeof value === 'string' && CALENDAR.test(value)) {
    const day = parseISO(value);
    return isValid(day) ? day : null;
  }
  const moment = typeof value === 'string' ? parseISO(value) : value;
  return isValid(moment) ? new TZDate(moment, COMPANY_TIME_ZONE) : null;
}

const writing = (pattern: string) => (value: DateInput): string => {
  const date = inLagos(value);
  return date ? format(date, pattern) : '';
};

/** November 2026 (a month of earnings). */
export const formatMonth = writing('MMMM yyyy');

/** Wednesday 22 November 2026, 5:47 AM WAT: a deadline, written out in full. */
export const formatDeadline = writing("EEEE d MMMM yyyy, h:mm a 'WAT'");

/** 22 Nov 2026 */
export const formatDate = writing('d MMM yyyy');

/** 22 Nov 2026, 5:47 AM WAT */
export const formatDateTime = writing("d MMM yyyy, h:mm a 'WAT'");
