import { z } from 'zod';

/**
 * The event log as the back office reads it (GET /api/admin/events, docs/audit.md): one record per
 * event, `id` = its global position. metadata.actor names who did it; hash and prev_hash are its
 * link in its stream's tamper-evidence chain (docs/event-store.md).
 */
export const eventRecord = z.object({
  id: z.number(),
  event_id: z.string(),
  stream_id: z.string(),
  stream_position: z.number(),
  type: z.string(),
  schema_version: z.number(),
  data: z.unknown(),
  metadata: z.unknown(),
  recorded_at: z.string(),
  hash: z.string(),
  prev_hash: z.string(),
});
export type EventRecord = z.infer<typeof eventRecord>;

export const eventActor = z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() });
export type EventActor = z.infer<typeof eventActor>;

/** An event named as a link: enough to show it in a list and open it. */
export const eventSummary = z.object({ id: z.number(), event_id: z.string(), stream_id: z.string(), stream_position: z.number(), type: z.string(), recorded_at: z.string() });
export type EventSummary = z.infer<typeof eventSummary>;

/** Links are capped: a payroll run causes thousands of events; the explorer's filters list them all. */
export const EVENT_LINKS_SHOWN = 100;

/** One event with what it links to: the event that caused it, the events it caused, its request's. */
export const eventDetail = eventRecord.extend({
  actor: eventActor.nullable(),
  cause: eventSummary.nullable(),
  effects: z.array(eventSummary),
  effects_more: z.boolean(),
  correlated: z.array(eventSummary),
  correlated_more: z.boolean(),
});
export type EventDetail = z.infer<typeof eventDetail>;

/**
 * How a step of a trace reaches the next one up: `caused_by` through metadata.causation_id;
 * `settles` a withdrawal's outcome back to its request on the same wallet stream.
 */
export const traceStep = z.object({
  event: eventSummary,
  actor: eventActor.nullable(),
  link: z.enum(['caused_by', 'settles']).nullable(),
  /** What the event did, in words (a bonus's formula with its inputs, a withdrawal's bank...). */
  summary: z.string(),
  amount_kobo: z.number().nullable(),
  amount: z.number().nullable(),
  /** A bonus's formula inputs as recorded (kobo fields end in _kobo). */
  inputs: z.record(z.string(), z.unknown()).nullable(),
});
export type TraceStep = z.infer<typeof traceStep>;

/** From a wallet line (steps[0]) up to its root: the approved payment, an admin's or member's action, or a schedule. */
export const eventTrace = z.object({ steps: z.array(traceStep), root_reached: z.boolean() });
export type EventTrace = z.infer<typeof eventTrace>;

/** A day, YYYY-MM-DD, read in Lagos time (the company's day). */
const statementDay = (label: string) =>
  z
    .string({ error: `The ${label} date must look like 2026-01-31.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `The ${label} date must look like 2026-01-31.`)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && value >= '2000-01-01' && value <= '2999-12-31';
    }, `The ${label} date is not a date between 2000 and 2999.`);

export const statementQuery = z
  .object({ from: statementDay('from').optional(), to: statementDay('to').optional(), format: z.enum(['json', 'csv'], { error: 'The format must be json or csv.' }).default('json') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The from date must not be after the to date.', path: ['from'] });
export type StatementQuery = z.infer<typeof statementQuery>;

/** One credit or debit of a wallet; amounts in naira with the kobo beside them. */
export const statementLine = z.object({
  id: z.number(),
  recorded_at: z.string(),
  type: z.string(),
  description: z.string(),
  credit: z.number(),
  debit: z.number(),
  balance: z.number(),
  credit_kobo: z.number(),
  debit_kobo: z.number(),
  balance_kobo: z.number(),
});
export type StatementLine = z.infer<typeof statementLine>;

export const statement = z.object({
  member_id: z.string(),
  username: z.string(),
  from: z.string(),
  to: z.string(),
  opening_balance: z.number(),
  total_credits: z.number(),
  total_debits: z.number(),
  closing_balance: z.number(),
  opening_balance_kobo: z.number(),
  total_credits_kobo: z.number(),
  total_debits_kobo: z.number(),
  closing_balance_kobo: z.number(),
  lines: z.array(statementLine),
});
export type Statement = z.infer<typeof statement>;
