import { z } from 'zod';
// Messages of issues whose schema gave none, for every contract (and so every api route and form).
import './readable-issues';

/**
 * Field builders for the admin forms' payloads. The seeds' clients send numbers and flags either
 * as JSON values or as form strings ('12.5', '1', 'true'), so each builder accepts both and
 * answers with the message a person can act on.
 */

/**
 * Text that PostgreSQL can store and a browser can show: no NUL or other C0 control characters
 * (tab, line feed and carriage return are fine) and no lone UTF-16 surrogate (JSON allows
 * "\ud800", UTF-8 has no encoding for it). Every text primitive below checks it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);
export const unstorableTextMessage = (label: string) => `The ${label} contains characters that are not allowed.`;

/** Any text field: storable characters, at most `max` characters. Trimmed. */
export const text = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine(isStorableText, unstorableTextMessage(label));

/** A required text field: 'The {label} field is required.' when missing or blank. */
export const requiredText = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine(isStorableText, unstorableTextMessage(label));

/** Free text that may be empty. */
export const optionalText = (label: string, max = 5000) =>
  z.string({ error: `The ${label} must be text.` }).max(max, `The ${label} may not be greater than ${max} characters.`).refine(isStorableText, unstorableTextMessage(label));

/**
 * Numbers arrive as JSON numbers or as form strings. Only plain decimal strings are numbers here:
 * "12", "-3", "12.50". "0x7d0", "1e3", "Infinity", " 1_000" stay strings and are refused by the
 * number schema, never reinterpreted.
 */
const DECIMAL = /^-?\d{1,20}(\.\d{1,20})?$/;
export const asNumber = (value: unknown) => {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const trimmed = value.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : value;
};

/** The largest value of a PostgreSQL integer column (catalogue ids, points, days). */
export const MAX_INT4 = 2_147_483_647;
/** The largest naira amount the portal takes anywhere: ₦10 billion (10¹² kobo), far inside a safe integer of kobo. */
export const MAX_NAIRA = 10_000_000_000;
/** True when `naira` is a whole number of kobo (12.50 yes, 12.505 no), allowing binary float noise. */
export const isWholeKobo = (naira: number): boolean => Number.isFinite(naira) && Math.abs(naira * 100 - Math.round(naira * 100)) < 1e-6;

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
    return max === undefined ? bounded.max(MAX_INT4, `The ${label} is too large.`) : bounded.max(max, `The ${label} must be between ${min} and ${max}.`);
  }, `The ${label} field is required.`);

/** A quantity of products: a whole number from 1 to 10,000. */
export const quantity = (label = 'quantity') => wholeNumber(label, 1, 10_000);

/**
 * Naira at the API (kobo inside): a decimal number or decimal string with at most two decimals,
 * from `min` (0 unless given) to ₦10 billion. A fraction of a kobo is refused, never rounded.
 */
export const nairaAmount = (label: string, options: { min?: number; positive?: boolean; invalid?: string; fraction?: string } = {}) =>
  numeric(
    options.invalid ?? `The ${label} must be an amount in naira.`,
    (n) => {
      const min = options.min ?? 0;
      const floor = options.positive ? n.positive(options.invalid ?? `The ${label} must be more than zero.`)
        : n.min(min, options.invalid ?? (min > 0 ? `The ${label} must be at least ₦${min.toLocaleString('en-US')}.` : `The ${label} cannot be negative.`));
      return floor.max(MAX_NAIRA, options.invalid ?? `The ${label} is too large (at most ₦10,000,000,000).`);
    },
    options.invalid ?? `The ${label} field is required.`,
  ).refine(isWholeKobo, options.fraction ?? options.invalid ?? `The ${label} may have at most two decimals (whole kobo).`);

/**
 * The lowest price of anything the portal sells (products, registration and stockist packages,
 * bill-payment services): ₦1. A ₦0 price would hand products out of a pick-up allowance for
 * nothing, or activate a package without a payment; the seeds ask only for a price, so the floor
 * is the smallest whole naira.
 */
export const MIN_PRICE_NAIRA = 1;

/** A price in naira: whole kobo, from ₦1 (MIN_PRICE_NAIRA) to ₦10 billion. */
export const priceAmount = (label: string) => nairaAmount(label, { min: MIN_PRICE_NAIRA });

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

/** A positive id given as a number or a numeric string (a catalogue id: at most 2³¹−1). */
export const idField = (required: string, invalid = required) =>
  numeric(invalid, (n) => n.int(invalid).positive(invalid).max(MAX_INT4, invalid), required);

/** A catalogue id in a path (`/packages/{id}`): a whole number from 1 to 2³¹−1. */
export const catalogueIdParams = z.object({ id: idField('The id must be a whole number.') });

/** A page number of the seeds' paginated lists: a bad one is page 1, a huge one is capped. */
export const pageNumber = z.preprocess(asNumber, z.number().int().min(1).max(1_000_000)).catch(1).default(1);

/**
 * A calendar date or timestamp a person could mean: parsable, and between the years 1900 and
 * 9999 (JavaScript accepts ±275,760, PostgreSQL and people do not).
 */
export const isReasonableDate = (value: string): boolean => {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1900 && year <= 9999;
};
export const dateText = (label: string) => z.string({ error: `The ${label} must be a date.` }).trim().refine(isReasonableDate, `The ${label} must be a date between the years 1900 and 9999.`);

/**
 * A naira figure in an answer (kobo inside, naira at the edge). Tagged so the back office's CSV
 * export writes it for spreadsheets: a plain number with two decimals under a "(₦)" header
 * (api/list-export.ts).
 */
export const nairaFigure = z.number().meta({ unit: 'naira', description: 'Naira, two decimals (integer kobo inside).' });
export const isNairaFigure = (schema: unknown): boolean => {
  let inner = schema as z.ZodType | undefined;
  // Optional / nullable / default wrappers carry the tagged schema inside.
  while (inner && 'unwrap' in inner && typeof (inner as { unwrap?: unknown }).unwrap === 'function') inner = (inner as unknown as { unwrap: () => z.ZodType }).unwrap();
  return inner ? z.globalRegistry.get(inner)?.unit === 'naira' : false;
};
