import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { createRecorderTable, recorder } from '../../test/fixtures/recorder';
import { type Json, httpHelpers } from '../../test/http';
import { drainConsumer } from '../core/consumers';
import { runInTransaction } from '../core/command';
import { appendToStream } from '../core/event-store';
import { QUEUES_COOKIE } from './bull-board';

/**
 * The operators' console over HTTP (docs/operations.md): Bull Board behind the admin session (a
 * bearer token, or the short-lived cookie the back office asks for), and the Consumers page's
 * paths: who may read, who may pause / resume / retry / rebuild, and that each action is recorded.
 */
const tally = recorder({ name: 'console-tally', table: 'console_tally', eventTypes: ['ConsoleTallied'] });
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
let member: { token: string };
let adminId: string;

async function appendTallies(n: number) {
  await runInTransaction(t.runtime.commands, (trx) =>
    appendToStream(trx, `tally-${crypto.randomUUID()}`, Array.from({ length: n }, (_, i) => ({ type: 'ConsoleTallied', data: { i } })), {
      expectedVersion: 0,
      metadata: { actor: { type: 'system', id: 'test' }, now: new Date().toISOString() },
    }),
  );
}

const page = (response: { headers: Record<string, unknown> }) => String(response.headers['content-type'] ?? '');
const setCookieOf = (response: { headers: Record<string, unknown> }) => [response.headers['set-cookie']].flat().map(String).find((c) => c.startsWith(`${QUEUES_COOKIE}=`)) ?? '';

beforeAll(async () => {
  t = await createTestApp({ consumers: [tally] });
  await createRecorderTable(t.runtime.db, 'console_tally');
  h = httpHelpers(t);
  admin = await h.adminToken('admin');
  finance = await h.adminToken('finance');
  member = await h.registeredMember();
  adminId = (await h.call('GET', '/api/auth/admin', { token: admin })).body.data.uuid;
}, 60_000);
afterAll(async () => t?.close());

describe('Bull Board at /admin/queues', () => {
  it('refuses anonymous visitors, members and finance staff, on its page and its api', async () => {
    for (const url of ['/admin/queues/', '/admin/queues/api/queues', '/admin/queues/queue/consumers']) {
      const anonymous = await t.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      for (const token of [member.token, finance]) {
        const refused = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        expect(refused.statusCode, url).toBe(403);
        expect(refused.body).not.toContain('__UI_CONFIG__');
      }
    }
    // A page load is told where to go; an api call gets the portal's JSON error.
    const pageLoad = await t.app.inject({ method: 'GET', url: '/admin/queues/' });
    expect(page(pageLoad)).toContain('text/html');
    expect(pageLoad.body).toContain('Consumers page');
    const apiCall = await t.app.inject({ method: 'GET', url: '/admin/queues/api/queues' });
    expect(apiCall.json()).toEqual({ success: false, message: expect.stringMatching(/sign in/i) });
    // Finance cannot get the cookie either, nor write through the queues' api.
    expect((await h.call('POST', '/api/admin/queues/session', { token: finance })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/queues/session', { token: member.token })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/queues/session')).status).toBe(401);
    const financeWrite = await t.app.inject({ method: 'PUT', url: '/admin/queues/api/queues/pause', headers: { authorization: `Bearer ${finance}` } });
    expect(financeWrite.statusCode).toBe(403);
  });

  it("answers an admin's bearer token on its api, and records the admin's writes", async () => {
    const queues = await t.app.inject({ method: 'GET', url: '/admin/queues/api/queues?activeQueue=consumers&page=1&jobsPerPage=10', headers: { authorization: `Bearer ${admin}` } });
    expect(queues.statusCode, queues.body).toBe(200);
    const names = (queues.json() as { queues: Array<{ name: string }> }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['consumers', 'log-verification', 'mail', 'operations', 'schedules']);

    const paused = await t.app.inject({ method: 'PUT', url: '/admin/queues/api/queues/operations/pause', headers: { authorization: `Bearer ${admin}` } });
    expect(paused.statusCode, paused.body).toBeLessThan(300);
    const resumed = await t.app.inject({ method: 'PUT', url: '/admin/queues/api/queues/operations/resume', headers: { authorization: `Bearer ${admin}` } });
    expect(resumed.statusCode, resumed.body).toBeLessThan(300);
    const { rows } = await sql<{ data: { method: string; path: string }; actor: string }>`
      select data, metadata->'actor'->>'id' as actor from events where type = 'QueueActionTaken' order by global_position`.execute(t.runtime.db);
    expect(rows).toEqual([
      { data: { method: 'PUT', path: '/admin/queues/api/queues/operations/pause', status: paused.statusCode }, actor: adminId },
      { data: { method: 'PUT', path: '/admin/queues/api/queues/operations/resume', status: resumed.statusCode }, actor: adminId },
    ]);
  });

  it('opens the page with the cookie the back office asks for, and only while the session lives', async () => {
    const session = await t.app.inject({ method: 'POST', url: '/api/admin/queues/session', headers: { authorization: `Bearer ${admin}` } });
    expect(session.statusCode, session.body).toBe(200);
    const setCookie = setCookieOf(session);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/admin\/queues(;|$)/);
    expect(setCookie).toMatch(/Expires=/);
    const value = /^portal_queues=([^;]+)/.exec(setCookie)![1]!;
    const withCookie = (url: string, cookie = value) => t.app.inject({ method: 'GET', url, headers: { cookie: `${QUEUES_COOKIE}=${cookie}` } });

    const board = await withCookie('/admin/queues/');
    expect(board.statusCode).toBe(200);
    expect(page(board)).toContain('text/html');
    expect(board.body).toContain('__UI_CONFIG__');
    expect(board.body).not.toContain('fonts.googleapis.com');
    expect(String(board.headers['content-security-policy'])).toContain("script-src 'self'");
    expect((await withCookie('/admin/queues/api/queues')).statusCode).toBe(200);

    // The cookie is no bearer token, and a forged or altered one opens nothing.
    expect((await h.call('GET', '/api/admin/consumers', { token: decodeURIComponent(value) })).status).toBe(401);
    const [sid, expires] = decodeURIComponent(value).split('.');
    expect((await withCookie('/admin/queues/api/queues', `${sid}.${Number(expires) + 3_600_000}.AAAA`)).statusCode).toBe(401);

    // Signing out of the back office closes the queues too.
    const second = await h.adminToken('admin');
    const secondCookie = /^portal_queues=([^;]+)/.exec(setCookieOf(await t.app.inject({ method: 'POST', url: '/api/admin/queues/session', headers: { authorization: `Bearer ${second}` } })))![1]!;
    expect((await withCookie('/admin/queues/api/queues', secondCookie)).statusCode).toBe(200);
    expect((await h.call('POST', '/api/auth/logout', { token: second })).status).toBe(200);
    expect((await withCookie('/admin/queues/api/queues', secondCookie)).statusCode).toBe(401);
  });
});

describe('the Consumers paths', () => {
  it('lets admins and finance staff read every consumer, and nobody else', async () => {
    expect((await h.call('GET', '/api/admin/consumers')).status).toBe(401);
    expect((await h.call('GET', '/api/admin/consumers', { token: member.token })).status).toBe(403);
    const read = await h.call('GET', '/api/admin/consumers', { token: finance });
    expect(read.status).toBe(200);
    expect(read.body.data.consumers.map((c: { name: string }) => c.name)).toEqual(['console-tally']);
  });

  it('pauses and resumes a consumer for an admin, refuses finance, and records who did it', async () => {
    for (const action of ['pause', 'resume', 'retry', 'rebuild']) {
      const refused = await h.call('POST', `/api/admin/consumers/console-tally/${action}`, { token: finance, body: {} });
      expect(refused.status, action).toBe(403);
    }
    expect((await h.call('POST', '/api/admin/consumers/no-such-consumer/pause', { token: admin, body: {} })).status).toBe(404);

    const paused = await h.call('POST', '/api/admin/consumers/console-tally/pause', { token: admin, body: { reason: 'checking the tally table' } });
    expect(paused.status, paused.body.message).toBe(200);
    expect((await h.call('POST', '/api/admin/consumers/console-tally/pause', { token: admin, body: {} })).body.message).toMatch(/already paused/);

    // Paused: events wait, the runner reads none of them.
    await appendTallies(3);
    expect(await drainConsumer(t.runtime.db, tally)).toMatchObject({ applied: 0, status: 'paused' });
    let overview = (await h.call('GET', '/api/admin/consumers', { token: admin })).body as Json;
    const record = overview.data.consumers[0];
    expect(record).toMatchObject({ status: 'paused', events_behind: 3, paused: { by: { id: adminId, name: expect.any(String) }, reason: 'checking the tally table' } });
    expect(record.seconds_behind).toBeGreaterThanOrEqual(0);

    const resumed = await h.call('POST', '/api/admin/consumers/console-tally/resume', { token: admin, body: {} });
    expect(resumed.status, resumed.body.message).toBe(200);
    expect(await drainConsumer(t.runtime.db, tally)).toMatchObject({ applied: 3, status: 'caught_up' });
    overview = (await h.call('GET', '/api/admin/consumers', { token: admin })).body as Json;
    expect(overview.data.consumers[0]).toMatchObject({ status: 'caught_up', events_behind: 0, seconds_behind: 0, paused: null });
    expect(overview.data.consumers[0].events_per_minute).toBeGreaterThan(0);

    // Retry is for a consumer that stopped on an event; a policy cannot be rebuilt (the tally is a projection).
    expect((await h.call('POST', '/api/admin/consumers/console-tally/retry', { token: admin, body: {} })).body.message).toMatch(/nothing to retry/);

    const actions = overview.data.recent_actions.filter((a: { stream_id: string }) => a.stream_id === 'consumer-console-tally');
    expect(actions.map((a: { type: string; actor: { id: string } }) => [a.type, a.actor.id])).toEqual([
      ['ConsumerResumed', adminId],
      ['ConsumerPaused', adminId],
    ]);
  });

  it('refuses a second rebuild while the first is unfinished', async () => {
    const first = await h.call('POST', '/api/admin/consumers/console-tally/rebuild', { token: admin, body: {} });
    expect(first.status, first.body.message).toBe(200);
    const second = await h.call('POST', '/api/admin/consumers/console-tally/rebuild', { token: admin, body: {} });
    expect(second.status).toBe(422);
    expect(second.body.message).toMatch(/already running/);
    const overview = (await h.call('GET', '/api/admin/consumers', { token: finance })).body as Json;
    expect(overview.data.consumers[0].rebuild).toMatchObject({ id: first.body.data.rebuild_id, status: 'queued', percent: 0, requested_by: { id: adminId } });
  });

  it('/metrics shows events per type, consumer throughput and lag, rebuild progress and jobs per queue', async () => {
    await drainConsumer(t.runtime.db, tally);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    const text = metrics.body;
    expect(text).toContain('events_appended_total{type="ConsoleTallied"} 3');
    expect(text).toContain('events_appended_total{type="ConsumerPaused"} 1');
    expect(text).toContain('consumer_events_applied_total{consumer="console-tally"} 3');
    expect(text).toMatch(/consumer_throughput_events_per_minute\{consumer="console-tally"\} [0-9.]+/);
    expect(text).toContain('consumer_lag_seconds{consumer="console-tally"} 0');
    expect(text).toContain('consumer_paused{consumer="console-tally"} 0');
    // The rebuild asked for above waits for a worker (none runs in this file): queued, 0 %.
    expect(text).toContain('rebuild_running{consumer="console-tally"} 1');
    expect(text).toContain('rebuild_progress_ratio{consumer="console-tally"} 0');
    expect(text).toContain('queue_jobs{queue="operations",state="waiting"} 1');
    expect(text).toMatch(/queue_jobs\{queue="consumers",state="failed"\} \d+/);
    // Counters grow by what happened between scrapes.
    await appendTallies(2);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toContain('events_appended_total{type="ConsoleTallied"} 5');
  });
});
