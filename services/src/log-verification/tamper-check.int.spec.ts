import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import type { LogVerification } from '../contracts/log-verification';
import { startLogVerificationWorker } from './jobs';

/**
 * The tamper check through the real api and a real BullMQ worker (docs/tamper-check.md): finance
 * starts it, the worker walks the log, the run ends intact; then a superuser edits one event past
 * the append-only trigger and cuts the tail off another stream, and the next run names both.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let finance: string;
let worker: Awaited<ReturnType<typeof startLogVerificationWorker>>;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  finance = await h.adminToken('finance');
  await h.activeMember({ first_name: 'Chiamaka' });
  await h.activeMember({ first_name: 'Tunde' });
  worker = await startLogVerificationWorker({ db: t.runtime.db, redisUrl: t.runtime.config.REDIS_URL, prefix: t.runtime.config.QUEUE_PREFIX, logger: t.runtime.logger });
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
});

/** Starts a check as finance and waits (polling its record) until the worker finishes it. */
async function runCheck(): Promise<LogVerification> {
  const started = await h.call('POST', '/api/admin/log-verifications', { token: finance, body: {} });
  expect(started.status, started.body.message).toBe(202);
  const id = started.body.data.id as string;
  await expect.poll(async () => ((await h.call('GET', `/api/admin/log-verifications/${id}`, { token: finance })).body as unknown as LogVerification).status, { timeout: 60_000, interval: 100 }).toMatch(/intact|broken|failed/);
  return (await h.call('GET', `/api/admin/log-verifications/${id}`, { token: finance })).body as unknown as LogVerification;
}

/** What a superuser can do: turn the triggers off for the session and change history. */
async function asSuperuser(statement: ReturnType<typeof sql>) {
  await t.runtime.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });
}

const metric = async (name: string) => {
  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
  return new RegExp(`^${name}\\{check="hash_chains"\\} (\\S+)$`, 'm').exec(response.body)?.[1];
};

describe('the tamper check', () => {
  it('checks every event of an untouched log and finds it intact; /metrics says so', async () => {
    expect(await metric('portal_log_verification_ok')).toBeUndefined();
    const run = await runCheck();
    const { rows } = await sql<{ events: number; streams: number }>`select count(*)::int as events, count(distinct stream_id)::int as streams from events`.execute(t.runtime.db);
    expect(run).toMatchObject({ status: 'intact', events_checked: rows[0]!.events, streams_checked: rows[0]!.streams, percent: 100, problems_count: 0, first_problem: null });
    expect(run.heads_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(await metric('portal_log_verification_ok')).toBe('1');
    expect(Number(await metric('portal_log_verification_timestamp_seconds'))).toBe(Math.floor(new Date(run.finished_at!).getTime() / 1000));
    const latest = await h.call('GET', '/api/admin/log-verifications/latest', { token: finance });
    expect(latest.body.data.last_finished.id).toBe(run.id);
  });

  it('names the edited event and the stream cut short, with what was expected', async () => {
    const { rows: target } = await sql<{ stream_id: string; stream_position: number; hash: string }>`
      select stream_id, stream_position, hash from events where type = 'MemberRegistered' and data->>'first_name' = 'Chiamaka'`.execute(t.runtime.db);
    const edited = target[0]!;
    // The append-only trigger refuses an ordinary edit...
    await expect(sql`update events set data = data || '{"first_name":"Chioma"}' where stream_id = ${edited.stream_id} and stream_position = ${edited.stream_position}`.execute(t.runtime.db)).rejects.toThrow();
    // ...a superuser turns it off.
    await asSuperuser(sql`update events set data = data || '{"first_name":"Chioma"}' where stream_id = ${edited.stream_id} and stream_position = ${edited.stream_position}`);
    // And removes the last event of another stream: its chain stays valid, only the anchor shows it.
    const { rows: tails } = await sql<{ stream_id: string; stream_position: number }>`
      select stream_id, max(stream_position)::int as stream_position from events where stream_id <> ${edited.stream_id} group by stream_id having max(stream_position) > 1 order by stream_id limit 1`.execute(t.runtime.db);
    const cut = tails[0]!;
    await asSuperuser(sql`delete from events where stream_id = ${cut.stream_id} and stream_position = ${cut.stream_position}`);

    const run = await runCheck();
    expect(run.status).toBe('broken');
    expect(run.problems, JSON.stringify(run.problems)).toHaveLength(2);
    expect(run.problems_count).toBe(2);
    const editedProblem = run.problems.find((p) => p.kind === 'content');
    expect(editedProblem).toMatchObject({ stream_id: edited.stream_id, stream_position: edited.stream_position, expected: edited.hash });
    expect(editedProblem!.found).not.toBe(edited.hash);
    expect(run.problems.find((p) => p.kind === 'truncated')).toMatchObject({ stream_id: cut.stream_id, stream_position: cut.stream_position, found: `stream ends at position ${cut.stream_position - 1}` });
    expect(run.first_problem).toEqual(run.problems[0]);
    expect(await metric('portal_log_verification_ok')).toBe('0');
  });

  it('is for the back office only', async () => {
    const member = await h.activeMember();
    expect((await h.call('POST', '/api/admin/log-verifications', { token: member.token, body: {} })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/log-verifications', { body: {} })).status).toBe(401);
    expect((await h.call('GET', '/api/admin/log-verifications/not-a-run', { token: finance })).status).toBe(422);
  });
});
