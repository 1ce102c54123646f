import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { type Consumer, consumerLag } from '../core/consumers';
import { drainAll } from '../../test/consumers';
import type { Db } from '../core/db';
import { type EventMetadata, appendToStream } from '../core/event-store';
import { rebuildProjection } from '../core/rebuild';
import type { Database } from '../database';
import type { MemberRegistered } from '../membership/events';
import { expireOverdueRegistrations } from '../membership/expiry';
import { projectMembers } from '../membership/projections';
import { genealogyProjection } from './projections';
import { downlinePage, genealogyTreeOf, placementOf, sponsorChainOf, uplineDetailsOf } from './queries';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let adminToken: string;
let financeToken: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  adminToken = await h.adminToken('admin');
  financeToken = await h.adminToken('finance');
});
afterAll(async () => t?.close());

/**
 * Runs the genealogy projection until it has applied every committed event. One 'caught_up' is
 * not enough: a transaction open anywhere in the instance (another test file's) holds back what a
 * log reader may see, so we also wait for the lag to reach zero.
 */
async function drain(consumer: Consumer = genealogyProjection): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await drainAll(t.runtime.db, consumer);
    if (result.status === 'failed') throw new Error(`${consumer.name} failed: ${result.error}`);
    const [lag] = await consumerLag(t.runtime.db, [consumer]);
    if (result.status === 'caught_up' && lag!.behind === 0) return;
    if (Date.now() > deadline) throw new Error(`${consumer.name} did not catch up (${lag!.behind} behind)`);
    await sleep(20);
  }
}

const get = async (url: string, token: string) => h.call('GET', url, { token });
/** A registered, signed-in member; `asParent` keeps other registrations from being auto-placed below it. */
const member = (overrides: Record<string, unknown> = {}, asParent = false) => h.registeredMember(overrides, { asParent });

// A 1×1 PNG: a real image by its content.
const PNG = tinyPng();

type Member = Awaited<ReturnType<typeof member>>;

/**
 * The tree the tests read (sponsor in brackets when it is not the placement parent):
 *
 *            A
 *        B       C
 *     D(A)  E       G
 *   F(B)
 */
let tree: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G', Member>;

describe('the genealogy read models, built from registrations by the worker', () => {
  beforeAll(async () => {
    const A = await member({}, true);
    const B = await member({ referrer: A.username }, true);
    const C = await member({ referrer: A.username }, true);
    const D = await member({ referrer: B.username, placer: A.username }, true);
    const E = await member({ referrer: B.username });
    const F = await member({ referrer: D.username, placer: B.username });
    const G = await member({ referrer: C.username });
    tree = { A, B, C, D, E, F, G };
    const photo = await h.upload('POST', '/api/users/create-profile', {
      fields: { address: '3 Broad Street, Lagos', gender: 'female', phone: '08055550000' },
      files: { image: { bytes: PNG, filename: 'a.png', type: 'image/png' } },
      token: A.token,
    });
    expect(photo.status, photo.body.message).toBe(200);
    await drain();
  }, 60_000);

  it('places members on the leg they registered into and counts each leg below every ancestor', async () => {
    const { A, B, C, D, E, F, G } = tree;
    const chart = await get(`/api/users/${A.id}/genealogy?depth=3`, A.token);
    expect(chart.status).toBe(200);
    const node = (n: any) => ({ username: n.username, leg: n.leg, left: n.left_count, right: n.right_count, children: n.children.map(node) });
    expect(node(chart.body.data)).toEqual({
      username: A.username, leg: expect.any(String), left: 4, right: 2,
      children: [
        { username: B.username, leg: 'left', left: 2, right: 1, children: [
          { username: D.username, leg: 'left', left: 1, right: 0, children: [{ username: F.username, leg: 'left', left: 0, right: 0, children: [] }] },
          { username: E.username, leg: 'right', left: 0, right: 0, children: [] },
        ] },
        // An empty slot is left out: C has only a left child.
        { username: C.username, leg: 'right', left: 1, right: 0, children: [{ username: G.username, leg: 'left', left: 0, right: 0, children: [] }] },
      ],
    });
    expect(chart.body.data).toMatchObject({ uuid: A.id, name: `${A.first_name} ${A.last_name}`, package: expect.any(String), active: false, downlines: 6, level: 0 });
    expect(chart.body.data.photo_path).toMatch(/^storage\//);
  });

  it('stops the org chart at the asked depth (default 3, at most 6); the counts still tell what lies below', async () => {
    const { A, F } = tree;
    const shallow = await get(`/api/users/${A.id}/genealogy?depth=1`, A.token);
    expect(shallow.body.data.children.map((c: any) => c.children)).toEqual([[], []]);
    expect(shallow.body.data.children[0].left_count).toBe(2);
    const byDefault = await get(`/api/users/${A.id}/genealogy`, A.token);
    const levels = (n: any): number => Math.max(n.level, ...n.children.map(levels));
    expect(levels(byDefault.body.data)).toBe(3);
    expect(levels((await get(`/api/users/${A.id}/genealogy?depth=2`, A.token)).body.data)).toBe(2);
    expect(levels((await get(`/api/users/${A.id}/genealogy?depth=abc`, A.token)).body.data)).toBe(3);
    const leaf = await get(`/api/users/${F.id}/genealogy`, F.token);
    expect(leaf.body.data).toMatchObject({ uuid: F.id, leg: 'left', children: [], left_count: 0, right_count: 0 });
  });

  it('lists the sponsored direct downlines in the order they joined, with their leg, downline count and activity', async () => {
    const { A, B, C, D, E, F } = tree;
    const direct = await get(`/api/users/${A.id}/direct-downlines`, A.token);
    expect(direct.status).toBe(200);
    expect(direct.body.data.map((d: any) => [d.username, d.leg, d.downlines, d.active])).toEqual([
      [B.username, 'left', 3, false],
      [C.username, 'right', 1, false],
      [D.username, 'left', 1, false],
    ]);
    expect(direct.body.data[0]).toMatchObject({ uuid: B.id, name: `${B.first_name} ${B.last_name}`, email: B.email, package: expect.any(String), photo_path: null });
    expect((await get(`/api/users/${A.id}/count-direct-downlines`, A.token)).body).toMatchObject({ success: true, data: 3 });
    expect((await get(`/api/users/${B.id}/count-direct-downlines`, B.token)).body.data).toBe(2);
    const none = await get(`/api/users/${E.id}/direct-downlines`, E.token);
    expect(none.body).toMatchObject({ success: true, message: 'There are no direct downlines', data: [] });
    expect((await get(`/api/users/${F.id}/count-direct-downlines`, F.token)).body.data).toBe(0);
  });

  it('pages the whole placement downline 5 at a time, in tree order (left leg before right), with each level', async () => {
    const { A, B, C, D, E, F, G } = tree;
    const first = await get(`/api/users/${A.id}/downlines?page=1`, A.token);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ current_page: 1, last_page: 2, per_page: 5, total: 6 });
    expect(first.body.data.data.map((d: any) => [d.username, d.level, d.leg, d.downlines])).toEqual([
      [B.username, 1, 'left', 3],
      [D.username, 2, 'left', 1],
      [F.username, 3, 'left', 0],
      [E.username, 2, 'right', 0],
      [C.username, 1, 'right', 1],
    ]);
    const second = await get(`/api/users/${A.id}/downlines?page=2`, A.token);
    expect(second.body.data).toMatchObject({ current_page: 2, last_page: 2, per_page: 5, total: 6 });
    expect(second.body.data.data.map((d: any) => [d.username, d.level])).toEqual([[G.username, 2]]);
    expect(second.body.data.data[0]).toMatchObject({ uuid: G.id, email: G.email, name: `${G.first_name} ${G.last_name}`, package: expect.any(String), photo_path: null, active: false });
    const ofB = await get(`/api/users/${B.id}/downlines`, B.token);
    expect(ofB.body.data.data.map((d: any) => [d.username, d.level])).toEqual([[D.username, 1], [F.username, 2], [E.username, 1]]);
    const empty = await get(`/api/users/${F.id}/downlines`, F.token);
    expect(empty.body).toMatchObject({ message: 'There are no downlines', data: { data: [], total: 0, current_page: 1, last_page: 1, per_page: 5 } });
  });

  it('shows the sponsor as upline, with package and photo; the company root has none', async () => {
    const { A, D, F, B } = tree;
    const upline = await get(`/api/users/${D.id}/upline-details`, D.token);
    expect(upline.status).toBe(200);
    expect(upline.body.data).toEqual({ uuid: A.id, package: expect.any(String), first_name: A.first_name, last_name: A.last_name, email: A.email, username: A.username, photo_path: expect.stringMatching(/^storage\//) });
    expect((await get(`/api/users/${F.id}/upline-details`, F.token)).body.data).toMatchObject({ uuid: B.id, username: B.username, photo_path: null });
    const root = await h.rootToken();
    expect((await get(`/api/users/${root.id}/upline-details`, root.token)).body).toMatchObject({ success: true, data: null });
  });

  it('keeps the sponsor chain nearest first: generation 1 is the sponsor', async () => {
    const { A, B, F } = tree;
    const chain = await sponsorChainOf(t.runtime.db, F.id);
    const aSponsor = (await uplineDetailsOf(t.runtime.db, A.id))!.uuid;
    expect(chain.slice(0, 3).map((g) => [g.generation, g.member_id])).toEqual([[1, B.id], [2, A.id], [3, aSponsor]]);
    expect(chain.map((g) => g.generation)).toEqual(chain.map((_, i) => i + 1));
  });

  it('lets a member read only their own genealogy (403 otherwise); admins and finance staff read anyone', async () => {
    const { A, B } = tree;
    for (const path of ['upline-details', 'direct-downlines', 'count-direct-downlines', 'downlines', 'genealogy']) {
      expect((await get(`/api/users/${A.id}/${path}`, B.token)).status, path).toBe(403);
      expect((await get(`/api/users/${A.id}/${path}`, adminToken)).status, path).toBe(200);
      expect((await get(`/api/users/${A.id}/${path}`, financeToken)).status, path).toBe(200);
    }
    expect((await h.call('GET', `/api/users/${A.id}/genealogy`)).status).toBe(401);
    expect((await get(`/api/users/${randomUUID()}/genealogy`, adminToken)).status).toBe(404);
    expect((await get(`/api/users/${randomUUID()}/downlines`, adminToken)).status).toBe(404);
  });
});

describe('an expired registration', () => {
  it('leaves its slot with its own downline; the slot is taken again; reinstated, it brings its downline to its new slot', async () => {
    const P = await member({}, true);
    const X = await member({ referrer: P.username }, true);
    const Y = await member({ referrer: X.username });
    await drain();
    expect(await placementOf(t.runtime.db, P.id)).toMatchObject({ downline_count: 2, left_count: 2, right_count: 0 });

    // Given X's 7 days have passed unpaid (only X's: the other members here keep their window).
    await t.runtime.db.updateTable('members').set({ registration_expires_at: new Date(t.clock.now.getTime() - 60_000) }).where('id', '=', X.id).execute();
    expect(await expireOverdueRegistrations(t.runtime.commands, t.clock.now)).toBe(1);
    await drain();
    expect(await placementOf(t.runtime.db, P.id)).toMatchObject({ downline_count: 0, left_count: 0, right_count: 0 });
    expect((await get(`/api/users/${P.id}/genealogy`, P.token)).body.data.children).toEqual([]);
    expect((await get(`/api/users/${P.id}/downlines`, P.token)).body.data.total).toBe(0);
    // X keeps what was placed below it.
    const detached = await get(`/api/users/${X.id}/genealogy`, X.token);
    expect(detached.body.data).toMatchObject({ leg: null, left_count: 1, children: [{ uuid: Y.id, leg: 'left' }] });
    expect((await get(`/api/users/${X.id}/downlines`, X.token)).body.data.data.map((d: any) => [d.uuid, d.level])).toEqual([[Y.id, 1]]);

    const Z = await member({ referrer: P.username });
    await drain();
    expect((await get(`/api/users/${P.id}/genealogy`, P.token)).body.data.children.map((c: any) => [c.uuid, c.leg])).toEqual([[Z.id, 'left']]);

    const reinstated = await h.call('POST', `/api/users/${X.id}/reinstate`, { token: adminToken });
    expect(reinstated.status, reinstated.body.message).toBe(200);
    await drain();
    expect(await placementOf(t.runtime.db, P.id)).toMatchObject({ downline_count: 3, left_count: 1, right_count: 2 });
    const page = await get(`/api/users/${P.id}/downlines`, P.token);
    expect(page.body.data.data.map((d: any) => [d.uuid, d.level, d.leg])).toEqual([[Z.id, 1, 'left'], [X.id, 1, 'right'], [Y.id, 2, 'left']]);
    // P's own ancestors counted the whole move out and back.
    const pSponsor = (await uplineDetailsOf(t.runtime.db, P.id))!.uuid;
    const ancestorView = await downlinePage(t.runtime.db, pSponsor, 1, 10_000);
    expect(ancestorView.data.map((d) => d.uuid)).toEqual(expect.arrayContaining([P.id, Z.id, X.id, Y.id]));
    expect(ancestorView.total).toBe(ancestorView.data.length);
  });
});

describe('admin members lists (seed 001 §2.10)', () => {
  it('counts, lists by type, pages and searches members in the list-row shape; members and finance may not', async () => {
    // The test clock stands still: move it so the newest member is known.
    t.clock.advanceMinutes(1);
    const zed = await member({ first_name: 'Zainab', last_name: 'Quadri' });
    const total = await get('/api/users/total-users', financeToken);
    expect(total.body).toMatchObject({ success: true, data: expect.any(Number) });
    const { n } = await t.runtime.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(total.body.data).toBe(Number(n));
    // Only the seeded company root is active (nobody here has paid).
    expect((await get('/api/users/total-active-users', adminToken)).body.data).toBe(1);
    const active = await get('/api/users/active-users?page=1', adminToken);
    expect(active.body.data).toMatchObject({ total: 1, current_page: 1, per_page: 20, data: [{ username: 'herbalhq', status: true }] });

    const all = await get('/api/users?type=all&page=1', adminToken);
    expect(all.body.data).toMatchObject({ current_page: 1, per_page: 20, total: Number(n), last_page: Math.ceil(Number(n) / 20) });
    // Newest first, in the row shape of seed 001 §3.11.
    expect(all.body.data.data[0]).toEqual({
      uuid: zed.id, first_name: 'Zainab', last_name: 'Quadri', email: zed.email, username: zed.username, phone: zed.phone,
      package_id: 2, package_name: expect.any(String), rank_id: null, photo_path: null, created_at: expect.any(String),
      is_stockist: false, stockist_package_name: null, stockist_status: null, stockist_created_at: null, status: false,
    });
    const inactive = await get('/api/users?type=inactive', adminToken);
    expect(inactive.body.data.total).toBe(Number(n) - 1);
    expect(inactive.body.data.data.every((r: any) => r.status === false)).toBe(true);
    const page2 = await get('/api/users?type=all&page=2', adminToken);
    expect(page2.body.data.current_page).toBe(2);
    expect(page2.body.data.data.map((r: any) => r.uuid)).not.toContain(zed.id);

    for (const term of ['zainab', 'QUADRI', 'Zainab Quad', zed.username, zed.email]) {
      const found = await get(`/api/users/search?search=${encodeURIComponent(term)}&page=1`, adminToken);
      expect(found.body.data.data.map((r: any) => r.uuid), term).toEqual([zed.id]);
    }
    const byPackage = await get(`/api/users/search?search=${encodeURIComponent(all.body.data.data[0].package_name)}`, adminToken);
    expect(byPackage.body.data.data.map((r: any) => r.uuid)).toContain(zed.id);
    expect((await get('/api/users/search?search=%25', adminToken)).body.data.total).toBe(0);

    for (const path of ['/api/users/total-users', '/api/users/total-active-users', '/api/users/active-users', '/api/users?type=all', '/api/users/search?search=a']) {
      expect((await get(path, zed.token)).status, path).toBe(403);
    }
  });
});

describe('rebuilding the genealogy', () => {
  it('from the log into fresh tables gives exactly the live tables', async () => {
    await drain();
    const snapshot = async () => ({
      nodes: (await sql`select member_id, tree_root_id, path::text, depth, placement_parent_id, placement_leg, sponsor_id, sponsor_chain, sponsor_depth, registered_position from genealogy_nodes order by member_id`.execute(t.runtime.db)).rows,
      counts: (await sql`select * from genealogy_counts order by member_id`.execute(t.runtime.db)).rows,
    });
    const live = await snapshot();
    expect(live.nodes.length).toBeGreaterThan(10);
    await rebuildProjection(t.runtime.db, genealogyProjection);
    expect(await snapshot()).toEqual(live);
  });
});

/** Every statement a read issues, recorded so each can be EXPLAINed afterwards. */
async function statementsOf(read: (db: Db) => Promise<unknown>): Promise<{ sql: string; parameters: readonly unknown[] }[]> {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const recording = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.database.url, max: 1 }) }),
    log: (event) => {
      if (event.level === 'query') statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  try {
    await read(recording);
  } finally {
    await recording.destroy();
  }
  return statements;
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number; 'Rows Removed by Join Filter'?: number; 'Rows Removed by Index Recheck'?: number; Plans?: PlanNode[] };

/** Rows every node of the executed plan produced or threw away: a bound on the work done. */
function rowsTouched(node: PlanNode): number {
  const own = node['Actual Rows'] * node['Actual Loops'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsTouched(child), 0);
}
const seqScans = (node: PlanNode): string[] => [...(node['Node Type'] === 'Seq Scan' ? [node['Relation Name']!] : []), ...(node.Plans ?? []).flatMap(seqScans)];

async function explain(statement: { sql: string; parameters: readonly unknown[] }): Promise<PlanNode> {
  const client = new pg.Client({ connectionString: t.database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]);
    return rows[0]!['QUERY PLAN'][0].Plan;
  } finally {
    await client.end();
  }
}

describe('a member 10,000 levels down', () => {
  const DEPTH = 10_000;
  let top: Member;
  let chain: string[];

  beforeAll(async () => {
    top = await member({}, true);
    // Registrations appended straight to the log (with the inline members table, as the command
    // does) for speed: each member placed on the left of, and sponsored by, the one before.
    chain = [top.id];
    const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'genealogy-test' }, now: t.clock.now.toISOString() });
    const tag = randomUUID().slice(0, 8);
    for (let start = 0; start < DEPTH; start += 1000) {
      await t.runtime.db.transaction().execute(async (trx) => {
        for (let i = start; i < Math.min(DEPTH, start + 1000); i++) {
          const id = randomUUID();
          const parent = chain[chain.length - 1]!;
          const event: MemberRegistered = {
            type: 'MemberRegistered',
            data: { member_id: id, username: `deep${i}_${tag}`, email: `deep${i}_${tag}@example.test`, first_name: 'Deep', last_name: `Level${i + 1}`, phone: '08030000000', package_id: 1, sponsor_id: parent, placement_parent_id: parent, placement_leg: 'left', is_root: false },
          };
          await projectMembers(trx, await appendToStream(trx, `member-${id}`, [event], { expectedVersion: 0, metadata: metadata() }));
          chain.push(id);
        }
      });
    }
    await drain();
    await sql`analyze`.execute(t.runtime.db);
  }, 180_000);

  it('is projected: its depth, every ancestor counts it on the left, and its sponsor chain is the 10 members above it', async () => {
    const deepest = chain[DEPTH]!;
    const topPlace = (await placementOf(t.runtime.db, top.id))!;
    const deepPlace = (await placementOf(t.runtime.db, deepest))!;
    expect(deepPlace.depth - topPlace.depth).toBe(DEPTH);
    expect(topPlace).toMatchObject({ downline_count: DEPTH, left_count: DEPTH, right_count: 0, direct_count: 1 });
    expect(await placementOf(t.runtime.db, chain[DEPTH / 2]!)).toMatchObject({ downline_count: DEPTH / 2, left_count: DEPTH / 2 });
    expect(deepPlace).toMatchObject({ downline_count: 0, left_count: 0, right_count: 0, direct_count: 0 });
    const sponsors = await sponsorChainOf(t.runtime.db, deepest);
    expect(sponsors.map((s) => [s.generation, s.member_id])).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, chain[DEPTH - 1 - i]]));
  });

  it('answers its upline, counts and downlines through the API, and its top pages all 10,000 below', async () => {
    const deepest = chain[DEPTH]!;
    expect((await get(`/api/users/${deepest}/upline-details`, adminToken)).body.data).toMatchObject({ uuid: chain[DEPTH - 1], last_name: `Level${DEPTH - 1}` });
    expect((await get(`/api/users/${deepest}/genealogy`, adminToken)).body.data).toMatchObject({ uuid: deepest, leg: 'left', left_count: 0, right_count: 0, children: [] });
    expect((await get(`/api/users/${deepest}/downlines`, adminToken)).body.data.total).toBe(0);
    expect((await get(`/api/users/${chain[DEPTH - 2]}/downlines`, adminToken)).body.data.data.map((d: any) => [d.uuid, d.level])).toEqual([[chain[DEPTH - 1], 1], [deepest, 2]]);
    const firstPage = await get(`/api/users/${top.id}/downlines?page=1`, top.token);
    expect(firstPage.body.data).toMatchObject({ total: DEPTH, last_page: DEPTH / 5, per_page: 5 });
    expect(firstPage.body.data.data.map((d: any) => d.level)).toEqual([1, 2, 3, 4, 5]);
    const lastPage = await get(`/api/users/${top.id}/downlines?page=${DEPTH / 5}`, top.token);
    expect(lastPage.body.data.data.map((d: any) => d.level)).toEqual([DEPTH - 4, DEPTH - 3, DEPTH - 2, DEPTH - 1, DEPTH]);
    // Asked for more than 6 levels, the chart stops at 6.
    const chart = await get(`/api/users/${top.id}/genealogy?depth=60`, top.token);
    const levels = (n: any): number => Math.max(n.level, ...n.children.map(levels));
    expect(levels(chart.body.data)).toBe(6);
  });

  it('reads its upline, counts, sponsor chain, downlines and chart touching a few dozen rows, never the 10,000 above it', async () => {
    const deepest = chain[DEPTH]!;
    const reads: Record<string, (db: Db) => Promise<unknown>> = {
      'upline details': (db) => uplineDetailsOf(db, deepest),
      'placement and counts': (db) => placementOf(db, deepest),
      'sponsor chain': (db) => sponsorChainOf(db, deepest),
      'downlines page 1': (db) => downlinePage(db, deepest, 1),
      'downlines page 1 of the member 10 levels up': (db) => downlinePage(db, chain[DEPTH - 10]!, 1),
      'downlines page 1 of the top': (db) => downlinePage(db, top.id, 1),
      'org chart': (db) => genealogyTreeOf(db, deepest, 6),
    };
    for (const [name, read] of Object.entries(reads)) {
      const statements = await statementsOf(read);
      expect(statements.length, name).toBeGreaterThan(0);
      for (const statement of statements) {
        const plan = await explain(statement);
        expect(rowsTouched(plan), `${name}: ${statement.sql}`).toBeLessThan(100);
        expect(seqScans(plan).filter((r) => r.startsWith('genealogy') || r === 'members'), `${name}: ${statement.sql}`).toEqual([]);
      }
    }
  });
});
