import { addDays, isValid, parseISO } from 'date-fns';

/** Registration must be completed within 7 days of sign-up (seed 000 §9). */
export const REGISTRATION_WINDOW_DAYS = 7;

export interface RegistrationCountdown {
  /** Whole days left until the deadline (6 just after sign-up: 6 days 23 hours 59 minutes). */
  daysLeft: number;
  /** Whole hours left beyond those days (0–23). */
  hoursLeft: number;
  /** Whole minutes left beyond those hours (0–59). */
  minutesLeft: number;
  deadline: Date;
  expired: boolean;
}

/**
 * The countdown from created_at, or from the server's deadline when it gives one (a reinstated
 * registration gets a new 7-day window that no longer starts at created_at).
 */
export function registrationCountdown(createdAt: string, now: Date = new Date(), expiresAt?: string | null): RegistrationCountdown | null {
  const serverDeadline = expiresAt ? parseISO(expiresAt) : null;
  const created = serverDeadline && isValid(serverDeadline) ? addDays(serverDeadline, -REGISTRATION_WINDOW_DAYS) : parseISO(createdAt);
  if (!isValid(created)) return null;
  const deadline = addDays(created, REGISTRATION_WINDOW_DAYS);
  const expired = now.getTime() >= deadline.getTime();
  // The real time left, in whole units: "7 days 23 hours" just after sign-up was more than the 7-day window.
  const minutes = expired ? 0 : Math.floor((deadline.getTime() - now.getTime()) / 60_000);
  return { daysLeft: Math.floor(minutes / 1440), hoursLeft: Math.floor((minutes % 1440) / 60), minutesLeft: minutes % 60, deadline, expired };
}
