import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { pruneThrottlesAndSentMail, scheduledJobs, startSchedules } from './schedules';

/**
 * The hourly clean-up of sign-in throttles and sent mail (docs/security-auth.md A8), on the real
 * database: what no longer counts goes, what still counts or was never delivered stays.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SENT_MAIL_RETENTION_DAYS: '30' } });
});
afterAll(async () => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function seedRows(now: Date, tag: string) {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  await t.runtime.db
    .insertInto('sign_in_throttles')
    .values([
      { key: `member-name:${tag}-forgotten`, failures: 3, window_started_at: ago(2 * DAY), last_failure_at: ago(25 * HOUR), locked_until: null },
      { key: `member-name:${tag}-lock-ended`, failures: 9, window_started_at: ago(3 * DAY), last_failure_at: ago(30 * HOUR), locked_until: ago(29 * HOUR) },
      { key: `member-name:${tag}-recent`, failures: 2, window_started_at: ago(HOUR), last_failure_at: ago(HOUR), locked_until: null },
      { key: `member-name:${tag}-locked`, failures: 7, window_started_at: ago(HOUR), last_failure_at: ago(10 * 60_000), locked_until: new Date(now.getTime() + 20 * 60_000) },
    ])
    .execute();
  const mail = (subject: string, created: Date, fields: { sent_at?: Date; gave_up_at?: Date }) => ({
    category: 'general',
    recipient: `${tag}@example.test`,
    subject,
    body_text: subject,
    created_at: created,
    next_attempt_at: created,
    ...fields,
  });
  await t.runtime.db
    .insertInto('mail_outbox')
    .values([
      mail('sent 31 days ago', ago(31 * DAY), { sent_at: ago(31 * DAY) }),
      mail('sent 29 days ago', ago(29 * DAY), { sent_at: ago(29 * DAY) }),
      mail('never sent, 60 days old', ago(60 * DAY), {}),
      mail('given up 60 days ago', ago(61 * DAY), { gave_up_at: ago(60 * DAY) }),
    ])
    .execute();
}

const throttleKeys = (tag: string) =>
  t.runtime.db.selectFrom('sign_in_throttles').select('key').where('key', 'like', `member-name:${tag}-%`).orderBy('key').execute().then((rows) => rows.map((r) => r.key.split(`${tag}-`)[1]));
const mailSubjects = (tag: string) =>
  t.runtime.db.selectFrom('mail_outbox').select('subject').where('recipient', '=', `${tag}@example.test`).orderBy('subject').execute().then((rows) => rows.map((r) => r.subject));

describe('pruning sign-in throttles and sent mail', () => {
  it('deletes forgotten throttles and mail sent before the retention period; keeps live locks, recent failures, unsent and given-up mail', async () => {
    const now = t.runtime.clock();
    await seedRows(now, 'direct');
    await t.runtime.db.insertInto('sign_in_throttles').values({ key: 'global', failures: 40, window_started_at: new Date(now.getTime() - 16 * 60_000) }).onConflict((oc) => oc.column('key').doUpdateSet({ failures: 40, window_started_at: new Date(now.getTime() - 16 * 60_000) })).execute();

    const first = await pruneThrottlesAndSentMail(t.runtime, now);
    expect(first.sentMails).toBe(1);
    expect(first.throttles).toBeGreaterThanOrEqual(3); // the two forgotten names and the ended global window
    expect(await throttleKeys('direct')).toEqual(['locked', 'recent']);
    expect(await t.runtime.db.selectFrom('sign_in_throttles').select('key').where('key', '=', 'global').executeTakeFirst()).toBeUndefined();
    expect(await mailSubjects('direct')).toEqual(['given up 60 days ago', 'never sent, 60 days old', 'sent 29 days ago']);

    // Idempotent: a second run finds nothing more of these.
    await pruneThrottlesAndSentMail(t.runtime, now);
    expect(await throttleKeys('direct')).toEqual(['locked', 'recent']);
  });

  it('keeps sent mail for SENT_MAIL_RETENTION_DAYS', async () => {
    const now = t.runtime.clock();
    await seedRows(now, 'retention');
    await pruneThrottlesAndSentMail({ db: t.runtime.db, config: { ...t.runtime.config, SENT_MAIL_RETENTION_DAYS: 7 } }, now);
    expect(await mailSubjects('retention')).toEqual(['given up 60 days ago', 'never sent, 60 days old']);
  });

  it('runs as a BullMQ job scheduler in the worker', async () => {
    const now = t.runtime.clock();
    await seedRows(now, 'scheduled');
    const job = scheduledJobs.find((j) => j.name === 'prune-throttles-and-sent-mail');
    expect(job?.everyMs).toBe(60 * 60_000);
    // The same job on a short period, so its first run comes soon.
    const schedules = await startSchedules(t.runtime, pino({ level: 'silent' }), [{ ...job!, everyMs: 200 }]);
    try {
      await expect.poll(() => throttleKeys('scheduled'), { timeout: 15_000, interval: 100 }).toEqual(['locked', 'recent']);
      await expect.poll(() => mailSubjects('scheduled'), { timeout: 15_000, interval: 100 }).toEqual(['given up 60 days ago', 'never sent, 60 days old', 'sent 29 days ago']);
    } finally {
      await schedules.close();
    }
  });
});
