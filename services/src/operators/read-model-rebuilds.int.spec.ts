import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { readModels } from '../read-models';
import { runRebuild } from './rebuild-jobs';

/**
 * The Consumers page's read models (docs/operations.md): every read model of the registry is
 * listed, inline ones too, and an admin rebuilds any of them from the page, recorded as events
 * like a projection's rebuild; the rebuild's progress is the page's bar, and the rebuilt table
 * is swapped in equal to the live one. Finance staff, members and visitors may not ask.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
let adminId: string;

const overview = async (token = admin) => (await h.call('GET', '/api/admin/consumers', { token })).body.data;
const membersTable = async () => (await sql`select * from members order by id`.execute(t.runtime.db)).rows;

beforeAll(async () => {
  t = await createTestApp({ consumers: [] });
  h = httpHelpers(t);
  admin = await h.adminToken('admin');
  finance = await h.adminToken('finance');
  adminId = (await h.call('GET', '/api/auth/admin', { token: admin })).body.data.uuid;
  // Members registered, confirmed and paid for: the members and payments tables have rows.
  await h.activeMember();
  await h.activeMember();
  await h.registeredMember();
}, 90_000);
afterAll(async () => t?.close());

describe('read models on the Consumers page', () => {
  it('lists every read model of the registry, inline and asynchronous, for admins and finance', async () => {
    for (const token of [admin, finance]) {
      const listed = (await overview(token)).read_models as Array<{ name: string; kind: string; tables: string[]; rebuild: unknown }>;
      expect(listed.map((m) => m.name)).toEqual(readModels.map((m) => m.name));
      expect(listed.find((m) => m.name === 'members')).toMatchObject({ kind: 'inline', tables: ['members', 'daily_member_totals'], rebuild: null });
      expect(listed.find((m) => m.name === 'wallet-ledger')).toMatchObject({ kind: 'projection' });
    }
  });

  it('refuses finance staff, members and visitors a rebuild; an unknown name is a 404', async () => {
    const member = await h.registeredMember();
    expect((await h.call('POST', '/api/admin/read-models/members/rebuild', { token: finance, body: {} })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/read-models/members/rebuild', { token: member.token, body: {} })).status).toBe(403);
    expect((await h.call('POST', '/api/admin/read-models/members/rebuild', { body: {} })).status).toBe(401);
    const unknown = await h.call('POST', '/api/admin/read-models/no-such-model/rebuild', { token: admin, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('no read model named no-such-model');
    expect((await sql<{ n: number }>`select count(*)::int as n from projection_rebuilds`.execute(t.runtime.db)).rows[0]!.n).toBe(0);
  });

  it('rebuilds an inline read model for an admin: queued, progress, swapped in equal, recorded as events', async () => {
    const before = await membersTable();
    expect(before.length).toBeGreaterThan(3);
    const asked = await h.call('POST', '/api/admin/read-models/members/rebuild', { token: admin, body: {} });
    expect(asked.status, asked.body.message).toBe(200);
    const rebuildId = asked.body.data.rebuild_id as string;
    expect((await h.call('POST', '/api/admin/read-models/members/rebuild', { token: admin, body: {} })).body.message).toContain('already running');
    expect((await overview()).read_models.find((m: { name: string }) => m.name === 'members').rebuild).toMatchObject({ id: rebuildId, status: 'queued', percent: 0, requested_by: { id: adminId } });

    // The worker's job (rebuild-jobs.ts), here run in the test: progress written, then the outcome.
    const outcome = await runRebuild({ db: t.runtime.db, commands: t.runtime.commands, consumers: [], clock: () => new Date(), workerId: 'test-worker' }, { rebuildId, consumer: 'members' });
    expect(outcome).toBe('succeeded');
    const run = (await overview()).read_models.find((m: { name: string }) => m.name === 'members').rebuild;
    expect(run).toMatchObject({ status: 'succeeded', percent: 100, worker: 'test-worker' });
    expect(run.applied).toBeGreaterThan(0);
    expect(run.total).toBeGreaterThanOrEqual(run.applied);
    expect(await membersTable()).toEqual(before);

    const { rows } = await sql<{ type: string; actor: string; data: Record<string, unknown> }>`
      select type, metadata->'actor'->>'id' as actor, data from events where stream_id = 'read-model-members' order by stream_position`.execute(t.runtime.db);
    expect(rows.map((r) => r.type)).toEqual(['ProjectionRebuildRequested', 'ProjectionRebuilt']);
    expect(rows[0]).toMatchObject({ actor: adminId, data: { consumer: 'members', rebuild_id: rebuildId } });
    expect(rows[1]!.data).toMatchObject({ rebuild_id: rebuildId, applied: run.applied });
    expect((await overview()).recent_actions.map((a: { type: string; stream_id: string }) => `${a.type} ${a.stream_id}`)).toContain('ProjectionRebuilt read-model-members');
  });

  it('asks an asynchronous read model’s rebuild on its consumer’s stream, so one runs at a time whichever button asked', async () => {
    const asked = await h.call('POST', '/api/admin/read-models/wallet-ledger/rebuild', { token: admin, body: {} });
    expect(asked.status, asked.body.message).toBe(200);
    const again = await h.call('POST', '/api/admin/read-models/wallet-ledger/rebuild', { token: admin, body: {} });
    expect(again.status).toBe(422);
    expect(again.body.message).toContain('already running');
    const { rows } = await sql<{ stream_id: string }>`select stream_id from events where type = 'ProjectionRebuildRequested' and data->>'consumer' = 'wallet-ledger'`.execute(t.runtime.db);
    expect(rows).toEqual([{ stream_id: 'consumer-wallet-ledger' }]);
  });
});
