/**
 * The back office's one way of writing dates (issue 11 item 4): a day is "22 Nov 2026", a moment
 * "22 Nov 2026, 5:47 am", a month "November 2026", always in Lagos time, since the company's days,
 * months and reports are Lagos days (docs/admin-dashboard.md) whatever the admin's own computer says.
 * Every date on a back-office screen goes through these (or <DateTimeField>, which uses the same
 * options); the member app has its own in web-member/src/lib/dates.ts.
 */
export const DATE_LOCALE = 'en-GB';
export const COMPANY_TIME_ZONE = 'Africa/Lagos';

export const dayOptions: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: COMPANY_TIME_ZONE };
export const momentOptions: Intl.DateTimeFormatOptions = { ...dayOptions, hour: 'numeric', minute: '2-digit', hour12: true };
/** The audit trail's moments, where events a second apart must read apart: the same, with seconds. */
const instantOptions: Intl.DateTimeFormatOptions = { ...momentOptions, second: '2-digit' };
const monthOptions: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric', timeZone: COMPANY_TIME_ZONE };

const dayFormat = new Intl.DateTimeFormat(DATE_LOCALE, dayOptions);
/** A bare calendar date ("2026-11-22") names that day itself, not a moment to move into Lagos time. */
const calendarDayFormat = new Intl.DateTimeFormat(DATE_LOCALE, { ...dayOptions, timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat(DATE_LOCALE, momentOptions);
const instantFormat = new Intl.DateTimeFormat(DATE_LOCALE, instantOptions);
const monthFormat = new Intl.DateTimeFormat(DATE_LOCALE, monthOptions);

type DateInput = string | number | Date | null | undefined;

const isCalendarDay = (value: DateInput) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

const toDate = (value: DateInput): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

const using = (format: Intl.DateTimeFormat, empty: string) => (value: DateInput) => {
  const date = toDate(value);
  return date ? format.format(date) : empty;
};

/** 22 Nov 2026 ('' when there is none). */
export const formatDate = (value: DateInput, empty = ''): string => (isCalendarDay(value) ? using(calendarDayFormat, empty)(value) : using(dayFormat, empty)(value));
/** 22 Nov 2026, 5:47 am */
export const formatDateTime = (value: DateInput, empty = ''): string => using(momentFormat, empty)(value);
/** 22 Nov 2026, 5:47:09 am: the event log's and tamper check's moments. */
export const formatInstant = (value: DateInput, empty = ''): string => using(instantFormat, empty)(value);
/** November 2026 */
export const formatMonth = (value: DateInput, empty = ''): string => using(monthFormat, empty)(value);
/** November 2026, from a year and a 1-based month (the product sales report's rows). */
export const formatYearMonth = (year: number, month: number): string => formatMonth(new Date(Date.UTC(year, month - 1, 15, 12)));
