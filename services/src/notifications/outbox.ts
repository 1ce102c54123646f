import { Queue, Worker } from 'bullmq';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db, Executor } from '../core/db';
import { redisConnection } from '../core/wakeups';
import type { Mail, Mailer } from './mailer';

/**
 * The mail outbox (docs/mail-outbox.md). A mail is a row written with `enqueueMail` in the same
 * transaction as the decision that sends it (a code issued, a withdrawal paid): it exists exactly
 * when the decision does. A BullMQ job (`deliver`) sends the due rows afterwards and retries a
 * failure with back-off, so an answer never waits for the mail server, and an outage delays mail
 * without losing it. Rung after every command's commit (runtime.ts) and swept every few seconds.
 */
export const MAIL_QUEUE = 'mail';
export const MAX_MAIL_ATTEMPTS = 12;
/** How long a claimed row is left to its sender before another worker may take it. */
const CLAIM_MINUTES = 2;
const BATCH = 20;

export type OutboxMail = Mail & {
  /** What kind of mail: `code` (one-time codes, counted per recipient), `sign-in-lock`, `invitation`, … */
  category?: string;
  /** A mail that must go out once per cause (e.g. `withdrawal-paid:<event id>`): a second enqueue with the key is ignored. */
  key?: string;
  /** Bodies hold a secret (a code): erased once sent. */
  secret?: boolean;
};

/** The SMTP side: sends one mail or throws. */
export type MailTransport = { send: (mail: Mail) => Promise<void>; close: () => void };

/** Writes a mail to the outbox; returns its id, or null when a mail with the same key exists. */
export async function enqueueMail(db: Executor, mail: OutboxMail, now: Date): Promise<number | null> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      dedupe_key: mail.key ?? null,
      category: mail.category ?? 'general',
      recipient: mail.to.trim(),
      subject: mail.subject,
      body_text: mail.text,
      body_html: mail.html ?? null,
      contains_secret: mail.secret ?? false,
      created_at: now,
      next_attempt_at: now,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Mails of a category (or of any of several) written to one recipient since `since` (sent or not). */
export async function mailsTo(db: Executor, recipient: string, category: string | readonly string[], since: Date): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql`lower(recipient)`, '=', recipient.trim().toLowerCase())
    .where('category', 'in', typeof category === 'string' ? [category] : [...category])
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes mails sent more than `retentionDays` ago (the worker's hourly clean-up). Mails not yet
 * sent, and mails given up (kept for an operator to read and resend), stay.
 */
export async function pruneSentMail(db: Executor, now: Date, retentionDays: number): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const result = await db.deleteFrom('mail_outbox').where('sent_at', 'is not', null).where('sent_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The wait before the next try after `attempts` failures: 15 s, 30 s, 1 min … at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 15_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends every due mail once. Rows are claimed by one short statement (no transaction stays open
 * while the mail server answers: an open transaction holds back every log reader), sent, then
 * marked sent, or rescheduled with back-off, or given up after MAX_MAIL_ATTEMPTS.
 */
export async function deliverDueMails(db: Db, transport: Pick<MailTransport, 'send'>, clock: () => Date, logger?: Logger): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    const now = clock();
    const { rows } = await sql<{ id: number; recipient: string; subject: string; body_text: string | null; body_html: string | null; contains_secret: boolean; attempts: number }>`
      update mail_outbox set attempts = attempts + 1, next_attempt_at = ${new Date(now.getTime() + CLAIM_MINUTES * 60_000)}
      where id in (
        select id from mail_outbox
        where sent_at is null and gave_up_at is null and next_attempt_at <= ${now}
        order by next_attempt_at, id limit ${BATCH} for update skip locked)
      returning id, recipient, subject, body_text, body_html, contains_secret, attempts`.execute(db);
    if (rows.length === 0) return { sent, failed };
    for (const row of rows.sort((a, b) => a.id - b.id)) {
      try {
        await transport.send({ to: row.recipient, subject: row.subject, text: row.body_text ?? '', ...(row.body_html ? { html: row.body_html } : {}) });
      } catch (error) {
        failed++;
        const message = error instanceof Error ? error.message : String(error);
        const giveUp = row.attempts >= MAX_MAIL_ATTEMPTS;
        logger?.warn({ mail: row.id, attempts: row.attempts, err: message }, giveUp ? 'mail given up' : 'mail failed; will retry');
        await db
          .updateTable('mail_outbox')
          .set({ last_error: message.slice(0, 500), next_attempt_at: new Date(clock().getTime() + retryDelayMs(row.attempts)), gave_up_at: giveUp ? clock() : null })
          .where('id', '=', row.id)
          .execute();
        continue;
      }
      sent++;
      await db
        .updateTable('mail_outbox')
        .set({ sent_at: clock(), last_error: null, ...(row.contains_secret ? { subject: '(erased after sending)', body_text: null, body_html: null } : {}) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

/** The api's side: writes mails and rings the delivery job. `mailer.send` is the one-call form (its own statement). */
export type MailOutbox = {
  enqueue: (db: Executor, mail: OutboxMail, now?: Date) => Promise<number | null>;
  /** Asks a worker to deliver now (after a commit); losing a ring only delays mail until the next sweep. */
  wake: () => Promise<void>;
  /**
   * Hands work that decides whether to mail at all to the delivery worker (a named job handler,
   * e.g. `code-request`): the answer then costs the same whatever the work finds, retried with back-off.
   */
  request: (job: string, data: Record<string, unknown>) => Promise<void>;
  mailer: Mailer;
  close: () => Promise<void>;
};

export function createMailOutbox(options: { db: Db; redisUrl: string; prefix: string; clock: () => Date; logger: Logger }): MailOutbox {
  const queue = new Queue(MAIL_QUEUE, { connection: { ...redisConnection(options.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1 }, prefix: options.prefix });
  queue.on('error', () => {});
  async function wake() {
    await queue.add('deliver', {}, { deduplication: { id: 'deliver', keepLastIfActive: true }, removeOnComplete: true, removeOnFail: 100 });
  }
  const ringQuietly = () => wake().catch((error) => options.logger.warn({ err: error }, 'could not wake mail delivery'));
  async function enqueue(db: Executor, mail: OutboxMail, now = options.clock()) {
    return enqueueMail(db, mail, now);
  }
  async function request(job: string, data: Record<string, unknown>) {
    await queue.add(job, data, { attempts: 5, backoff: { type: 'exponential', delay: 2_000 }, removeOnComplete: true, removeOnFail: 100 });
  }
  return {
    enqueue,
    wake,
    request,
    mailer: {
      async send(mail: OutboxMail) {
        await enqueueMail(options.db, mail, options.clock());
        await ringQuietly();
      },
      close: () => {},
    },
    close: () => queue.close(),
  };
}

export type MailDelivery = { close: () => Promise<void>; worker: Worker };

/** The worker's side: one BullMQ worker that runs `deliverDueMails` when rung and on a sweep. */
export async function startMailDelivery(options: {
  db: Db;
  redisUrl: string;
  prefix: string;
  transport: Pick<MailTransport, 'send'>;
  clock: () => Date;
  logger: Logger;
  sweepEveryMs?: number;
  /** Handlers of `MailOutbox.request` jobs by name; each may enqueue mail, delivered right after. */
  handlers?: Readonly<Record<string, (data: unknown) => Promise<void>>>;
}): Promise<MailDelivery> {
  const queue = new Queue(MAIL_QUEUE, { connection: redisConnection(options.redisUrl), prefix: options.prefix });
  await queue.upsertJobScheduler('mail-sweep', { every: options.sweepEveryMs ?? 5_000 }, { name: 'deliver', opts: { removeOnComplete: true, removeOnFail: 100 } });
  const worker = new Worker(MAIL_QUEUE, async (job) => {
    if (job.name !== 'deliver') {
      const handler = options.handlers?.[job.name];
      if (!handler) throw new Error(`no handler for mail job ${job.name}`);
      await handler(job.data);
    }
    return deliverDueMails(options.db, options.transport, options.clock, options.logger);
  }, {
    connection: { ...redisConnection(options.redisUrl), maxRetriesPerRequest: null },
    prefix: options.prefix,
    concurrency: 1,
  });
  worker.on('error', (error) => options.logger.warn({ err: error }, 'mail worker error'));
  await worker.waitUntilReady();
  await queue.add('deliver', {}, { deduplication: { id: 'deliver', keepLastIfActive: true }, removeOnComplete: true, removeOnFail: 100 });
  return {
    worker,
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
