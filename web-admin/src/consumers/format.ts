import { formatDateTime } from '../common/dates';

/** Small formatters of the Consumers page. */
export const count = (n: number) => n.toLocaleString('en-US');

export const duration = (seconds: number): string => {
  if (seconds <= 0) return '0 s';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const hours = Math.floor(seconds / 3600);
  return `${hours} h ${Math.floor((seconds % 3600) / 60)} min`;
};

/** "12 s ago", "5 min ago", or the date for older times. */
export const ago = (iso: string | null | undefined, now = Date.now()): string => {
  if (!iso) return '—';
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 3600 * 24) return `${duration(seconds).replace(/ \d+ s$/, '')} ago`;
  return formatDateTime(iso);
};
