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
const ZONE_NAME = 'WAT';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type DateInput = string | Date | null | undefined;

interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  /** 0–23; 0 for a calendar day */
  hour: number;
  minute: number;
  /** 0 = Sunday */
  weekday: number;
}

const lagosParts = new Intl.DateTimeFormat('en-US', {
  timeZone: COMPANY_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});

/** A bare calendar date ("2026-12-31", a share date) names that day itself, not a moment to move into Lagos time. */
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A bare month ("2026-11", a rebate's month). */
const CALENDAR_MONTH = /^(\d{4})-(\d{2})$/;

const weekdayOf = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).getUTCDay();

function wallClock(value: DateInput): WallClock | null {
  if (!value) return null;
  if (typeof value === 'string') {
    const day = CALENDAR_DAY.exec(value) ?? (CALENDAR_MONTH.exec(value) ? [...CALENDAR_MONTH.exec(value)!, '01'] : null);
    if (day) {
      const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
      return { year, month, day: date, hour: 0, minute: 0, weekday: weekdayOf(year, month, date) };
    }
  }
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return null;
  const part = Object.fromEntries(lagosParts.formatToParts(d).map((p) => [p.type, p.value]));
  const [year, month, day] = [Number(part.year), Number(part.month), Number(part.day)];
  return { year, month, day, hour: Number(part.hour) % 24, minute: Number(part.minute), weekday: weekdayOf(year, month, day) };
}

const dayText = (c: WallClock) => `${c.day} ${MONTHS[c.month - 1]!.slice(0, 3)} ${c.year}`;
const timeText = (c: WallClock) => `${c.hour % 12 || 12}:${String(c.minute).padStart(2, '0')} ${c.hour < 12 ? 'AM' : 'PM'} ${ZONE_NAME}`;

/** November 2026 (a month of earnings; "2026-11" is read as that month). */
export function formatMonth(value: DateInput): string {
  const c = wallClock(value);
  return c ? `${MONTHS[c.month - 1]} ${c.year}` : '';
}

/** Wednesday 22 November 2026, 5:47 AM WAT: a deadline, written out in full. */
export function formatDeadline(value: DateInput): string {
  const c = wallClock(value);
  return c ? `${WEEKDAYS[c.weekday]} ${c.day} ${MONTHS[c.month - 1]} ${c.year}, ${timeText(c)}` : '';
}

/** 22 Nov 2026 */
export function formatDate(value: DateInput): string {
  const c = wallClock(value);
  return c ? dayText(c) : '';
}

/** 22 Nov 2026, 5:47 AM WAT */
export function formatDateTime(value: DateInput): string {
  const c = wallClock(value);
  return c ? `${dayText(c)}, ${timeText(c)}` : '';
}
