import { addDays, differenceInDays, differenceInHours, isValid, parseISO } from 'date-fns';

/** Registration must be completed within 7 days of sign-up (seed 000 §9). */
export const REGISTRATION_WINDOW_DAYS = 7;

export interface RegistrationCountdown {
  /** 7 minus the whole days elapsed since created_at (seed 000 §2.3), never below 0. */
  daysLeft: number;
  /** Hours left in the current day of the countdown (0–23). */
  hoursLeft: number;
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
  const elapsedDays = differenceInDays(now, created);
  const daysLeft = expired ? 0 : Math.max(0, REGISTRATION_WINDOW_DAYS - elapsedDays);
  const hoursLeft = expired ? 0 : Math.max(0, differenceInHours(deadline, now) % 24);
  return { daysLeft, hoursLeft, deadline, expired };
}
