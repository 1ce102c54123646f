import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { type MailCapture, startMailCapture } from '../../infra/src/mail-capture';
import { buildApp } from '../src/api/app';
import { type Runtime, createRuntime } from '../src/api/runtime';
import { loadConfig } from '../src/core/config';
import type { Consumer } from '../src/core/consumers';
import { seedDemoCompany } from '../src/seed/demo-company';
import { type TestDatabase, createTestDatabase, testQueuePrefix } from './database';
import { redisUrl } from './urls';

export type TestApp = {
  app: FastifyInstance;
  runtime: Runtime;
  database: TestDatabase;
  mail: MailCapture;
  /** The clock the app reads; tests move it to cross time limits (idle sessions, code expiry). */
  clock: { now: Date; advanceMinutes: (minutes: number) => void };
  close: () => Promise<void>;
};

/**
 * The real api on this file's own database, Redis prefix and mail capture, seeded with the demo
 * company. Requests go through `app.inject`, or a real port with `listen: true`.
 */
export async function createTestApp(options: { consumers?: readonly Consumer[]; listen?: boolean; env?: Record<string, string> } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const mail = await startMailCapture();
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
    ...options.env,
  });
  const runtime = createRuntime(config, pino({ level: 'silent' }), { consumers: options.consumers ?? [], clock: () => clock.now });
  await seedDemoCompany(runtime.commands, clock.now);
  const app = await buildApp(runtime);
  if (options.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    runtime,
    database,
    mail,
    clock,
    async close() {
      await app.close();
      await runtime.close();
      await mail.close();
      await database.drop();
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
