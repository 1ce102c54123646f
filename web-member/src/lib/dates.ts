import { format, isValid, parseISO } from 'date-fns';

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
