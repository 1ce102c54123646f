import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { type MailCapture, startMailCapture } from '../../infra/src/mail-capture';
import { type PaystackStandin, startPaystackStandin } from '../../infra/src/paystack-standin';
import { type AppOptions, buildApp } from '../src/api/app';
import { type Runtime, createRuntime } from '../src/api/runtime';
import { loadConfig } from '../src/core/config';
import type { Consumer } from '../src/core/consumers';
import { redisConnection } from '../src/core/wakeups';
import { mailJobs } from '../src/mail-jobs';
import { MAIL_QUEUE, type MailDelivery, startMailDelivery } from '../src/notifications/outbox';
import { seedDemoCompany } from '../src/seed/demo-company';
import { type TestDatabase, createTestDatabase, testQueuePrefix } from './database';
import { redisUrl } from './urls';

export type TestApp = {
  app: FastifyInstance;
  runtime: Runtime;
  database: TestDatabase;
  /** The mail capture; `waitFor` first lets the outbox deliver every mail already due. */
  mail: MailCapture;
  /** The outbox's delivery job, as the worker runs it (stopped and started by outage tests). */
  mailDelivery: { stop: () => Promise<void>; start: () => Promise<void>; settled: () => Promise<void> };
  /** This app's own Paystack stand-in; its webhooks reach the app's /api/payments/webhook. */
  paystack: PaystackStandin;
  /** The clock the app reads; tests move it to cross time limits (idle sessions, code expiry). */
  clock: { now: Date; advanceMinutes: (minutes: number) => void };
  close: () => Promise<void>;
};

/**
 * The real api on this file's own database, Redis prefix and mail capture, seeded with the demo
 * company. Requests go through `app.inject`, or a real port with `listen: true`.
 */
export async function createTestApp(
  options: { consumers?: readonly Consumer[]; listen?: boolean; env?: Record<string, string>; httpLogger?: AppOptions['httpLogger']; /** A migrated database of the caller's (the benchmarks'), instead of a clone of the test template. */ database?: TestDatabase } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const mail = await startMailCapture();
  const paystack = await startPaystackStandin();
  const uploadDir = await mkdtemp(path.join(os.tmpdir(), 'portal-uploads-'));
  const clock = {
    now: new Date(),
    advanceMinutes(minutes: number) {
      clock.now = new Date(clock.now.getTime() + minutes * 60_000);
    },
  };
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl(),
    QUEUE_PREFIX: testQueuePrefix(),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(mail.smtpPort),
    JWT_SECRET: 'test-secret-test-secret-test-secret',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    REGISTRATIONS_PER_ADDRESS: '100000',
    PAYSTACK_BASE_URL: paystack.url,
    PAYSTACK_SECRET_KEY: paystack.secretKey,
    UPLOAD_DIR: uploadDir,
    ...options.env,
  });
  const runtime = createRuntime(config, pino({ level: 'silent' }), { consumers: options.consumers ?? [], clock: () => clock.now });
  await seedDemoCompany(runtime.commands, clock.now);
  let delivery: MailDelivery | null = null;
  const mailQueue = new Queue(MAIL_QUEUE, { connection: redisConnection(config.REDIS_URL), prefix: config.QUEUE_PREFIX });
  const mailDelivery = {
    async start() {
      delivery ??= await startMailDelivery({ db: runtime.db, redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, transport: runtime.smtp, clock: () => clock.now, logger: runtime.logger, sweepEveryMs: 1_000, handlers: mailJobs({ ...runtime, clock: () => clock.now }) });
    },
    async stop() {
      await delivery?.close();
      delivery = null;
    },
    /** Waits (on the condition, polled) until no mail job is waiting or running and no mail is due and undelivered, at most 30 s (a loaded CI machine has taken more than 10). */
    async settled() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const jobs = await mailQueue.getJobCounts('wait', 'active', 'prioritized');
        if ((jobs.wait ?? 0) + (jobs.active ?? 0) + (jobs.prioritized ?? 0) > 0) {
          if (Date.now() > deadline) throw new Error('the mail jobs did not finish within 30 s');
          await new Promise((resolve) => setTimeout(resolve, 25));
          continue;
        }
        const due = await runtime.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('sent_at', 'is', null)
          .where('gave_up_at', 'is', null)
          .where('next_attempt_at', '<=', clock.now)
          .limit(1)
          .executeTakeFirst();
        if (!due) return;
        if (Date.now() > deadline) throw new Error('the mail outbox did not deliver within 30 s');
        await runtime.outbox.wake().catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  await mailDelivery.start();
  const capture = mail;
  const settledMail: MailCapture = {
    ...capture,
    messages: () => capture.messages(),
    clear: () => capture.clear(),
    close: () => capture.close(),
    waitFor: async (predicate, timeoutMs) => {
      if (delivery) await mailDelivery.settled();
      return capture.waitFor(predicate, timeoutMs);
    },
  };
  const app = await buildApp({ ...runtime, httpLogger: options.httpLogger });
  if (options.listen) {
    // Port 0: the kernel picks a free port at listen, so no other test file can take it first.
    await app.listen({ port: 0, host: '127.0.0.1' });
    // The app's own address is its public one (the card provider returns the browser there).
    if (!options.env?.PUBLIC_URL) config.publicUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  paystack.setWebhookTarget(
    options.listen
      ? `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/payments/webhook`
      : async (rawBody, signature) => {
          const response = await app.inject({
            method: 'POST',
            url: '/api/payments/webhook',
            payload: rawBody,
            headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
          });
          if (response.statusCode >= 300) throw new Error(`/api/payments/webhook answered ${response.statusCode}: ${response.body}`);
        },
  );
  return {
    app,
    runtime,
    database,
    mail: settledMail,
    mailDelivery,
    paystack,
    clock,
    async close() {
      // First: its webhooks go to the app.
      await paystack.close();
      await app.close();
      await mailDelivery.stop();
      await mailQueue.close();
      await runtime.close();
      await mail.close();
      await database.drop();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}

/** The 6-digit code in the newest mail to `email`. */
export async function codeMailedTo(mail: MailCapture, email: string, subjectPattern?: RegExp): Promise<string> {
  const message = await mail.waitFor((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()) && (!subjectPattern || subjectPattern.test(m.subject)));
  const code = /\b(\d{6})\b/.exec(message.text)?.[1];
  if (!code) throw new Error(`no code in mail "${message.subject}"`);
  return code;
}
