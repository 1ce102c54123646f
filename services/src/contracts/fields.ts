import { z } from 'zod';

/**
 * Field builders for the admin forms' payloads. The seeds' clients send numbers and flags either
 * as JSON values or as form strings ('12.5', '1', 'true'), so each builder accepts both and
 * answers with the message a person can act on.
 */

/** A required text field: 'The {label} field is required.' when missing or blank. */
export const requiredText = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`);

/** Free text that may be empty. */
export const optionalText = (label: string, max = 5000) =>
  z.string({ error: `The ${label} must be text.` }).max(max, `The ${label} may not be greater than ${max} characters.`);

const asNumber = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value);

/**
 * A number given as a JSON number or a numeric string. Missing: `required` (defaults to
 * `invalid`); blank or not a finite number: `invalid`. `rules` adds bounds with their own messages.
 */
export function numeric(invalid: string, rules: (n: z.ZodNumber) => z.ZodNumber = (n) => n, required = invalid) {
  return z.preprocess(asNumber, rules(z.number({ error: (issue) => (issue.input === undefined ? required : invalid) })));
}

/** Like `numeric`, but blank or null means 0 (the seeds' "empty or numeric" fields). */
export function numericOrEmpty(invalid: string, rules: (n: z.ZodNumber) => z.ZodNumber = (n) => n) {
  return z.preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? 0 : asNumber(value)), rules(z.number({ error: invalid })));
}

/** A whole number of points, days, months... */
export const wholeNumber = (label: string, min = 0, max?: number) =>
  numeric(`The ${label} must be a whole number.`, (n) => {
    const bounded = n.int(`The ${label} must be a whole number.`).min(min, max === undefined ? `The ${label} must be at least ${min}.` : `The ${label} must be between ${min} and ${max}.`);
    return max === undefined ? bounded : bounded.max(max, `The ${label} must be between ${min} and ${max}.`);
  }, `The ${label} field is required.`);

/** Naira at the API (kobo inside): zero or more, at most two decimals' worth is kept. */
export const nairaAmount = (label: string) =>
  numeric(`The ${label} must be an amount in naira.`, (n) => n.min(0, `The ${label} cannot be negative.`).max(1_000_000_000_000, `The ${label} is too large.`), `The ${label} field is required.`);

/** A percentage from 0 to 100. */
export const percentage = (label: string, invalid = `The ${label} must be a number.`) =>
  numeric(invalid, (n) => n.min(0, `The ${label} must be between 0 and 100.`).max(100, `The ${label} must be between 0 and 100.`), `The ${label} field is required.`);

/** A yes/no flag sent as true/false, 1/0 or their strings. */
export const flag = (label: string) =>
  z.preprocess(
    (value) => {
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return value;
    },
    z.boolean({ error: (issue) => (issue.input === undefined ? `The ${label} field is required.` : `The ${label} must be true or false.`) }),
  );

/** A positive id given as a number or a numeric string. */
export const idField = (required: string, invalid = required) =>
  numeric(invalid, (n) => n.int(invalid).positive(invalid), required);
