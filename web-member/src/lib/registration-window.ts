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

export function registrationCountdown(createdAt: string, now: Date = new Date()): RegistrationCountdown | null {
  const created = parseISO(createdAt);
  if (!isValid(created)) return null;
  const deadline = addDays(created, REGISTRATION_WINDOW_DAYS);
  const expired = now.getTime() >= deadline.getTime();
  const elapsedDays = differenceInDays(now, created);
  const daysLeft = expired ? 0 : Math.max(0, REGISTRATION_WINDOW_DAYS - elapsedDays);
  const hoursLeft = expired ? 0 : Math.max(0, differenceInHours(deadline, now) % 24);
  return { daysLeft, hoursLeft, deadline, expired };
}
