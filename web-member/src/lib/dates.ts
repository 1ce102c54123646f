import { format, isValid, parseISO } from 'date-fns';

/**
 * The member app's one way of writing dates (issue 11): every page writes a day as
 * "22 Nov 2026", a moment as "22 Nov 2026, 5:47 AM" and a month as "November 2026", through these.
 */
const toDate = (value: string | Date | null | undefined): Date | null => {
  if (!value) return null;
  const d = typeof value === 'string' ? parseISO(value) : value;
  return isValid(d) ? d : null;
};

/** November 2026 (a month of earnings). */
export function formatMonth(value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? format(d, 'MMMM yyyy') : '';
}

/** Wednesday 22 November 2026, 5:47 AM: a deadline, written out in full. */
export function formatDeadline(value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? format(d, 'EEEE d MMMM yyyy, h:mm a') : '';
}

/** 22 Nov 2026 */
export function formatDate(iso: string | null | undefined): string {
  const d = iso ? parseISO(iso) : null;
  return d && isValid(d) ? format(d, 'd MMM yyyy') : '';
}

/** 22 Nov 2026, 5:47 AM */
export function formatDateTime(iso: string | null | undefined): string {
  const d = iso ? parseISO(iso) : null;
  return d && isValid(d) ? format(d, 'd MMM yyyy, h:mm a') : '';
}
