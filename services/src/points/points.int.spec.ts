import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { drainAll } from '../../test/consumers';
import { type EventMetadata, appendToStream, eventHash, readStream, verifyLog } from '../core/event-store';
import type { MemberActivated, MemberRegistered, PlacementLeg } from '../membership/events';
import { projectMembers } from '../membership/projections';
import type { ProductPurchasePaid } from '../purchases/events';
import { RANK_EVENTS_PER_MEMBER_UP_TO, type RankAchieved, type RanksAchieved, type RanksAchievedAsRecordedBefore, type RanksAchievedInColumns, rankCascadeStream, rankColumns, rankCompact, rankEntries } from './events';
import { findReadModel, rebuildReadModel } from '../read-models';
import { pointsPolicy } from './projections';
import { findMember } from '../membership/queries';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
});
afterAll(async () => t.close());

async function settle() {
  expect((await drainAll(t.runtime.db, pointsPolicy)).status).toBe('caught_up');
}

async function totalPv(memberId: string, token = admin) {
  const response = await h.call('GET', `/api/users/${memberId}/total-pv`, { token });
  expect(response.status, response.body.message).toBe(200);
  return response.body.data;
}

async function legOf(memberId: string): Promise<PlacementLeg> {
  const row = await t.runtime.db.selectFrom('members').select('placement_leg').where('id', '=', memberId).executeTakeFirstOrThrow();
  return row.placement_leg!;
}

/** left_pv / right_pv with `pv` on `leg` and the other legs' PV added. */
function legs(...volumes: Array<[PlacementLeg, number]>) {
  const result = { left_pv: 0, right_pv: 0 };
  for (const [leg, pv] of volumes) result[`${leg}_pv`] += pv;
  return result;
}

async function ranksOf(memberId: string): Promise<Array<RankAchieved['data']>> {
  const rows = await t.runtime.db.selectFrom('events').select('data').where('stream_id', '=', `rank-${memberId}`).orderBy('stream_position').execute();
  return rows.map((row) => row.data as RankAchieved['data']);
}

async function rankAchievedCount(): Promise<number> {
  const row = await t.runtime.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('type', '=', 'RankAchieved').executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('PV, CPV, leg volumes and ranks, through payments and the points policy', () => {
  it('adds each activation’s and upgrade’s PV to the member and up the placement tree by leg, and records each rank reached once', async () => {
    const root = await h.rootToken();
    // A (Bronze, 25 PV) under the root; B (Silver, 50) and C (Bronze, 25) under A; D (Gold, 100) under B.
    const a = await h.registeredMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    await h.payByReceipt(a);
    const b = await h.registeredMember({ referrer: a.username, package_id: 3 }, { asParent: true });
    await h.payByReceipt(b);
    const c = await h.registeredMember({ referrer: a.username, package_id: 2 }, { asParent: true });
    await h.payByReceipt(c);
    const d = await h.registeredMember({ referrer: b.username, package_id: 4 }, { asParent: true });
    await h.payByReceipt(d);
    await settle();
    const [legA, legB, legC, legD] = [await legOf(a.id), await legOf(b.id), await legOf(c.id), await legOf(d.id)];
    expect(legB).not.toBe(legC);

    const associate = { rank_id: 1, rank_name: 'Associate' };
    expect(await totalPv(d.id, d.token)).toEqual({ total_pv: 100, personal_pv: 100, cpv: 100, left_pv: 0, right_pv: 0, ...associate });
    // B: 50 + D 100 = 150, D's 100 on D's leg.
    expect(await totalPv(b.id, b.token)).toEqual({ total_pv: 150, personal_pv: 50, cpv: 150, ...legs([legD, 100]), ...associate });
    expect(await totalPv(c.id, c.token)).toEqual({ total_pv: 25, personal_pv: 25, cpv: 25, left_pv: 0, right_pv: 0, ...associate });
    // A: 25 + B's leg (50 + 100 = 150) + C's leg 25 = 200.
    expect(await totalPv(a.id, a.token)).toEqual({ total_pv: 200, personal_pv: 25, cpv: 200, ...legs([legB, 150], [legC, 25]), ...associate });
    // The root: activated without a payment, 0 personal PV; everything below it on A's leg: 200.
    expect(await totalPv(root.id, root.token)).toEqual({ total_pv: 200, personal_pv: 0, cpv: 200, ...legs([legA, 200]), ...associate });

    // C upgrades Bronze → Gold: 100 − 25 = 75 PV more, for C and up the tree on C's leg.
    await h.payByReceipt(c, { upgradeTo: 4 });
    await settle();
    expect(await totalPv(c.id)).toMatchObject({ personal_pv: 100, cpv: 100 });
    expect(await totalPv(b.id)).toMatchObject({ cpv: 150 });
    expect(await totalPv(a.id)).toMatchObject({ cpv: 275, ...legs([legB, 150], [legC, 100]), ...associate });
    expect(await totalPv(root.id)).toMatchObject({ cpv: 275, ...legs([legA, 275]) });

    // D upgrades Gold → Crown: 400 − 100 = 300 more. B 450 (still below Supervisor's 500); A 575 and the root 575 reach Supervisor.
    const dUpgrade = await h.payByReceipt(d, { upgradeTo: 6 });
    await settle();
    expect(await totalPv(b.id)).toMatchObject({ cpv: 450, ...associate });
    expect(await totalPv(a.id)).toMatchObject({ cpv: 575, ...legs([legB, 450], [legC, 100]), rank_id: 2, rank_name: 'Supervisor' });
    expect(await totalPv(root.id)).toMatchObject({ cpv: 575, rank_id: 2 });
    // The signed-in member's own record (GET /auth/user) carries the rank reached.
    expect((await h.call('GET', '/api/auth/user', { token: a.token })).body.data).toMatchObject({ rank_id: 2 });
    const aRanks = await ranksOf(a.id);
    expect(aRanks).toMatchObject([
      { member_id: a.id, rank_id: 1, rank_name: 'Associate', previous_rank_id: null, cpv: 25, package_id: 2, cause: { event_type: 'MemberActivated', member_id: a.id } },
      { member_id: a.id, rank_id: 2, rank_name: 'Supervisor', previous_rank_id: 1, cpv: 575, package_id: 2, cause: { event_type: 'MemberPackageUpgraded', member_id: d.id, stream_id: `member-${d.id}` } },
    ]);
    // The cause is D's upgrade of that payment.
    const cause = await t.runtime.db.selectFrom('events').select(['type', 'data']).where('event_id', '=', aRanks[1]!.cause.event_id).executeTakeFirstOrThrow();
    expect(cause).toMatchObject({ type: 'MemberPackageUpgraded', data: { member_id: d.id, payment_id: dUpgrade, point_value_added: 300 } });

    // S (Starter, 10 PV: package 1) under D, with five Crown members (400 each) below it: E1, E2 under S; E3, E4 under E1; E5 under E2.
    const s = await h.registeredMember({ referrer: d.username, package_id: 1 }, { asParent: true });
    await h.payByReceipt(s);
    const e1 = await h.activeMember({ referrer: s.username, package_id: 6 }, { asParent: true });
    const e2 = await h.activeMember({ referrer: s.username, package_id: 6 }, { asParent: true });
    await settle();
    // S: 10 + 400 + 400 = 810 ≥ 500: Supervisor, reached at E2's activation.
    expect(await totalPv(s.id, s.token)).toMatchObject({ personal_pv: 10, cpv: 810, left_pv: 400, right_pv: 400, rank_id: 2 });
    for (const below of [e1, e2, e1]) await h.activeMember({ referrer: below.username, package_id: 6 });
    await settle();
    // S: 10 + 5 × 400 = 2,010 ≥ Manager's 2,000, but Manager needs package 2 and S is on Starter (1): still Supervisor.
    expect(await totalPv(s.id, s.token)).toMatchObject({ personal_pv: 10, cpv: 2_010, ...legs([await legOf(e1.id), 1_200], [await legOf(e2.id), 800]), rank_id: 2, rank_name: 'Supervisor' });
    // E1: 400 + 400 + 400 = 1,200: Supervisor on its own.
    expect(await totalPv(e1.id, e1.token)).toMatchObject({ personal_pv: 400, cpv: 1_200, left_pv: 400, right_pv: 400, rank_id: 2 });

    // S upgrades Starter → Bronze: 25 − 10 = 15 more (2,025) and package 2 unlocks Manager.
    await h.payByReceipt(s, { upgradeTo: 2 });
    await settle();
    expect(await totalPv(s.id, s.token)).toMatchObject({ personal_pv: 25, cpv: 2_025, rank_id: 3, rank_name: 'Manager' });
    expect(await ranksOf(s.id)).toMatchObject([
      { rank_id: 1, previous_rank_id: null, cpv: 10, package_id: 1, cause: { event_type: 'MemberActivated', member_id: s.id } },
      { rank_id: 2, previous_rank_id: 1, cpv: 810, package_id: 1, cause: { event_type: 'MemberActivated', member_id: e2.id } },
      { rank_id: 3, rank_name: 'Manager', previous_rank_id: 2, cpv: 2_025, package_id: 2, cause: { event_type: 'MemberPackageUpgraded', member_id: s.id } },
    ]);
    // Up the tree: D 400 + 2,025 = 2,425; B 50 + 2,425 = 2,475; A 25 + 2,475 + 100 = 2,600; the root 2,600: all Managers (packages 6, 3, 2, 6).
    expect(await totalPv(d.id)).toMatchObject({ personal_pv: 400, cpv: 2_425, ...legs([await legOf(s.id), 2_025]), rank_id: 3 });
    expect(await totalPv(b.id)).toMatchObject({ cpv: 2_475, ...legs([legD, 2_425]), rank_id: 3 });
    expect(await totalPv(a.id)).toMatchObject({ cpv: 2_600, ...legs([legB, 2_475], [legC, 100]), rank_id: 3 });
    expect(await totalPv(root.id)).toMatchObject({ cpv: 2_600, ...legs([legA, 2_600]), rank_id: 3 });
    // D reached Supervisor at E1 (400 + 10 + 400 = 810) and Manager at E4 (810 + 3 × 400 = 2,010), before S did.
    expect((await ranksOf(d.id)).map((r) => [r.rank_id, r.cpv, r.cause.member_id])).toEqual([[1, 100, d.id], [2, 810, e1.id], [3, 2_010, expect.any(String)]]);

    // Every (member, rank) is recorded once.
    const duplicates = await sql<{ n: number }>`
      select count(*)::int as n from (select stream_id, data->>'rank_id' from events where type = 'RankAchieved' group by 1, 2 having count(*) > 1) d`.execute(t.runtime.db);
    expect(duplicates.rows[0]!.n).toBe(0);

    // Registration PV (admin dashboard): 25 + 50 + 100 + 400 (D) + 25 (S) + 5 × 400 = 2,600.
    const registrationPv = await h.call('GET', '/api/users/total-registration-pv', { token: await h.adminToken('finance') });
    expect(registrationPv.body).toMatchObject({ success: true, data: 2_600 });
    expect((await h.call('GET', '/api/users/total-registration-pv', { token: a.token })).status).toBe(403);
  });

  it('replays the whole log into the same points and ranks without recording any rank twice', async () => {
    const before = await t.runtime.db.selectFrom('member_points').selectAll().orderBy('member_id').execute();
    const ranksBefore = await rankAchievedCount();
    expect(before.length).toBeGreaterThan(5);
    expect(ranksBefore).toBeGreaterThan(5);

    await sql`delete from member_points`.execute(t.runtime.db);
    await sql`update consumer_checkpoints set last_transaction_id = '0'::xid8, last_global_position = 0 where name = 'points'`.execute(t.runtime.db);
    await settle();

    expect(await t.runtime.db.selectFrom('member_points').selectAll().orderBy('member_id').execute()).toEqual(before);
    expect(await rankAchievedCount()).toBe(ranksBefore);
  });

  it('answers zeros and no rank for a member without PV, and lets a member read only their own', async () => {
    const one = await h.registeredMember();
    const other = await h.registeredMember();
    expect(await totalPv(one.id, one.token)).toEqual({ total_pv: 0, personal_pv: 0, cpv: 0, left_pv: 0, right_pv: 0, rank_id: null, rank_name: null });
    expect((await h.call('GET', `/api/users/${other.id}/total-pv`, { token: one.token })).status).toBe(403);
    expect((await h.call('GET', `/api/users/${randomUUID()}/total-pv`, { token: admin })).status).toBe(404);
  });
});

describe('a member 1,000 levels down', () => {
  const DEPTH = 1_000;
  /** c[i] sits under c[i − 1] on the left for odd i, on the right for even i: every ancestor receives on its child’s leg. */
  const legAt = (i: number): PlacementLeg => (i % 2 === 1 ? 'left' : 'right');

  it('adds activation and repurchase PV to every ancestor, each on the leg its path arrives by, and ranks the paid ones on their own packages', async () => {
    const top = await h.activeMember({ package_id: 1 }, { asParent: true });
    const chain = [top.id];
    const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'points-test' }, now: t.clock.now.toISOString() });
    const tag = randomUUID().slice(0, 8);
    // Registrations appended straight to the log (with the inline members table, as the command does), for speed.
    await t.runtime.db.transaction().execute(async (trx) => {
      for (let i = 1; i <= DEPTH; i++) {
        const id = randomUUID();
        const parent = chain[i - 1]!;
        const event: MemberRegistered = {
          type: 'MemberRegistered',
          data: { member_id: id, username: `deep${i}_${tag}`, email: `deep${i}_${tag}@example.test`, first_name: 'Deep', last_name: `Level${i}`, phone: '08030000000', package_id: 4, sponsor_id: parent, placement_parent_id: parent, placement_leg: legAt(i), is_root: false },
        };
        await projectMembers(trx, await appendToStream(trx, `member-${id}`, [event], { expectedVersion: 0, metadata: metadata() }));
        chain.push(id);
      }
    });
    // Every 100th member pays Gold (100 PV), deepest last; then the deepest repurchases 8 points (and picks up 5 points of its registration allowance, which add nothing).
    const activated = new Map<number, number>();
    await t.runtime.db.transaction().execute(async (trx) => {
      for (let i = 100; i <= DEPTH; i += 100) {
        const event: MemberActivated = { type: 'MemberActivated', data: { member_id: chain[i]!, package_id: 4, payment_id: randomUUID(), registration_value_kobo: 14_000_000, point_value: 100, pickup_allowance_kobo: 0 } };
        await projectMembers(trx, await appendToStream(trx, `member-${chain[i]}`, [event], { expectedVersion: 1, metadata: metadata() }));
        activated.set(i, 100);
      }
      const purchase = (pickupType: ProductPurchasePaid['data']['pickup_type'], points: number): ProductPurchasePaid => ({
        type: 'ProductPurchasePaid',
        data: { purchase_id: randomUUID(), member_id: chain[DEPTH]!, pickup_type: pickupType, total_price_kobo: 3_400_000, total_points: points, lines: [], payment_method: 'wallet' },
      });
      for (const event of [purchase('repurchase_pickup', 8), purchase('registration_pickup', 5)]) {
        await appendToStream(trx, `purchase-${event.data.purchase_id}`, [event], { expectedVersion: 0, metadata: metadata() });
      }
    });
    await settle();

    // Expected: c[j] holds its own PV, and everything below it (Σ over k > j) on the leg of c[j + 1].
    const personal = (i: number) => (i === 0 ? 10 : (activated.get(i) ?? 0) + (i === DEPTH ? 8 : 0));
    const below = new Array<number>(DEPTH + 1).fill(0);
    for (let i = DEPTH - 1; i >= 0; i--) below[i] = below[i + 1]! + personal(i + 1);
    const rows = await t.runtime.db.selectFrom('member_points').select(['member_id', 'personal_pv', 'cpv', 'left_pv', 'right_pv', 'rank_id']).where('member_id', 'in', chain).execute();
    const byId = new Map(rows.map((row) => [row.member_id, row]));
    const mismatches: string[] = [];
    for (let i = 0; i <= DEPTH; i++) {
      const downline = below[i]!;
      const expected = { personal_pv: personal(i), cpv: personal(i) + downline, ...legs([legAt(i + 1), downline]) };
      const row = byId.get(chain[i]!);
      const actual = row && { personal_pv: row.personal_pv, cpv: row.cpv, left_pv: row.left_pv, right_pv: row.right_pv };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(`c[${i}]: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The top: 10 + 10 × 100 + 8 = 1,018, all of it on c[1]'s leg (left): Supervisor (Starter allows it).
    expect(await totalPv(top.id, top.token)).toEqual({ total_pv: 1_018, personal_pv: 10, cpv: 1_018, left_pv: 1_008, right_pv: 0, rank_id: 2, rank_name: 'Supervisor' });
    // c[100] (Gold): 10 × 100 + 8 = 1,008: Supervisor, reached 400 levels down at c[500]'s activation (5 × 100 = 500).
    expect(await totalPv(chain[100]!)).toMatchObject({ personal_pv: 100, cpv: 1_008, rank_id: 2 });
    expect((await ranksOf(chain[100]!)).map((r) => [r.rank_id, r.cpv, r.cause.member_id])).toEqual([[1, 100, chain[100]], [2, 500, chain[500]]]);
    // c[50] has not paid: it carries the volumes (1,008 on its left leg, the leg of c[51]) but holds no rank.
    expect(await totalPv(chain[50]!)).toEqual({ total_pv: 1_008, personal_pv: 0, cpv: 1_008, left_pv: 1_008, right_pv: 0, rank_id: null, rank_name: null });
    // The deepest: 100 + 8 = 108, its repurchase counted, its registration pick-up not.
    expect(await totalPv(chain[DEPTH]!)).toMatchObject({ personal_pv: 108, cpv: 108, left_pv: 0, right_pv: 0, rank_id: 1 });
  }, 120_000);
});

describe('a rank cascade: one activation lifting more than RANK_EVENTS_PER_MEMBER_UP_TO ancestors', () => {
  it('records every rank reached as one RanksAchieved naming the members, sets them in member_points, and the member-points rebuild replays it', async () => {
    const N = RANK_EVENTS_PER_MEMBER_UP_TO + 20;
    const top = await h.activeMember({ package_id: 4 }, { asParent: true });
    const chain = [top.id];
    const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'points-test' }, now: t.clock.now.toISOString() });
    const tag = randomUUID().slice(0, 8);
    const register = async (trx: Parameters<typeof projectMembers>[0], id: string, parent: string, i: number) => {
      const event: MemberRegistered = {
        type: 'MemberRegistered',
        data: { member_id: id, username: `casc${i}_${tag}`, email: `casc${i}_${tag}@example.test`, first_name: 'Cascade', last_name: `Level${i}`, phone: '08030000000', package_id: 4, sponsor_id: parent, placement_parent_id: parent, placement_leg: 'left', is_root: false },
      };
      await projectMembers(trx, await appendToStream(trx, `member-${id}`, [event], { expectedVersion: 0, metadata: metadata() }));
    };
    const activate = async (trx: Parameters<typeof projectMembers>[0], id: string, pv: number) => {
      const event: MemberActivated = { type: 'MemberActivated', data: { member_id: id, package_id: 4, payment_id: randomUUID(), registration_value_kobo: 14_000_000, point_value: pv, pickup_allowance_kobo: 0 } };
      return projectMembers(trx, await appendToStream(trx, `member-${id}`, [event], { expectedVersion: 1, metadata: metadata() }));
    };
    // A chain of N Gold members under the top, each activated without PV: each reaches Associate (0 points) at its own activation.
    await t.runtime.db.transaction().execute(async (trx) => {
      for (let i = 1; i <= N; i++) {
        const id = randomUUID();
        await register(trx, id, chain[i - 1]!, i);
        await activate(trx, id, 0);
        chain.push(id);
      }
    });
    await settle();
    expect(await ranksOf(chain[N]!)).toMatchObject([{ rank_id: 1, previous_rank_id: null }]);

    // X at the bottom pays 500 PV: X, the N above it and the top reach Supervisor (500) by one cause.
    const x = randomUUID();
    await t.runtime.db.transaction().execute(async (trx) => {
      await register(trx, x, chain[N]!, N + 1);
      await activate(trx, x, 500);
    });
    await settle();
    const activation = await t.runtime.db.selectFrom('events').select('event_id').where('stream_id', '=', `member-${x}`).where('type', '=', 'MemberActivated').executeTakeFirstOrThrow();
    const cascades = await t.runtime.db.selectFrom('events').select(['stream_id', 'type', 'data', 'event_id', 'transaction_id', 'global_position']).where('type', '=', 'RanksAchieved').where('stream_id', '=', rankCascadeStream(activation.event_id)).execute();
    expect(cascades).toHaveLength(1);
    const cascade = cascades[0]!.data as RanksAchieved['data'];
    expect(cascade.cause).toMatchObject({ event_id: activation.event_id, event_type: 'MemberActivated', member_id: x });
    // Recorded compact, by the crediting statement itself (docs/decisions.md 80): per member its id, CPV and kind,
    // the distinct (rank, previous rank, package) in `kinds`.
    expect(Object.keys(cascade).sort()).toEqual(['cause', 'kinds', 'members']);
    // The chain, X, and the ancestors above the top whom the same 500 PV lifts.
    expect(cascade.members.member_id.length).toBeGreaterThanOrEqual(N + 2);
    for (const column of Object.values(cascade.members)) expect(column).toHaveLength(cascade.members.member_id.length);
    for (const column of Object.values(cascade.kinds)) expect(column).toHaveLength(cascade.kinds.rank_id.length);
    expect(cascade.kinds.rank_id.length).toBeLessThan(5);
    const entries = rankEntries({ type: 'RanksAchieved', data: cascade });
    // The same data JavaScript would have built (rankCompact), and a hash that verifies (the same text appendToStream hashes).
    expect(rankCompact(entries.map(({ cause: _, ...rank }) => rank))).toEqual({ members: cascade.members, kinds: cascade.kinds });
    const [appended] = await readStream(t.runtime.db, rankCascadeStream(activation.event_id));
    expect(appended!.hash).toBe(eventHash(appended!));
    expect((await verifyLog(t.runtime.db)).problems).toEqual([]);
    // The shape of decisions 67–79 (columns) reads the same.
    const inColumns: RanksAchievedInColumns['data'] = { cause: cascade.cause, columns: rankColumns(entries.map(({ cause: _, ...rank }) => rank)) };
    expect(rankEntries({ type: 'RanksAchieved', data: inColumns })).toEqual(entries);
    const lifted = new Map(entries.map((r) => [r.member_id, r]));
    for (const id of [...chain, x]) expect(lifted.get(id), id).toMatchObject({ rank_id: 2, rank_name: 'Supervisor', package_id: 4 });
    expect(lifted.get(chain[N]!)).toMatchObject({ previous_rank_id: 1, cpv: 500 });
    expect(lifted.get(x)).toMatchObject({ previous_rank_id: null, cpv: 500 });
    // No per-member RankAchieved for this cause: the cascade is the record.
    const perMember = await sql<{ n: number }>`select count(*)::int as n from events where type = 'RankAchieved' and data->'cause'->>'event_id' = ${activation.event_id}`.execute(t.runtime.db);
    expect(perMember.rows[0]!.n).toBe(0);
    // One key for the cause, none per (member, rank) (docs/decisions.md 72): each rank was judged above the
    // rank recorded, under the policy's lock; the cause's key keeps a replay from recording it again (below).
    const keys = async () =>
      (await sql<{ scope: string; key: string }>`select scope, key from unique_keys where owner = ${activation.event_id} order by scope, key`.execute(t.runtime.db)).rows;
    expect(await keys()).toEqual([{ scope: 'rank-cascade', key: activation.event_id }]);

    expect((await t.runtime.db.selectFrom('member_points').select('rank_id').where('member_id', 'in', [...chain, x]).execute()).map((r) => r.rank_id)).toEqual(new Array(N + 2).fill(2));
    // A cascade recorded in the first shape (an array of objects, before decision 67) reads the same.
    const asRecordedBefore: RanksAchievedAsRecordedBefore['data'] = { cause: cascade.cause, ranks: entries.map(({ cause: _, ...rank }) => rank) };
    expect(rankEntries({ type: 'RanksAchieved', data: asRecordedBefore })).toEqual(entries);
    // The profile, sign-in and lists read the rank from member_points (its only home, decision 86).
    expect(await findMember(t.runtime.db, x)).toMatchObject({ id: x, rank_id: 2 });
    expect(await findMember(t.runtime.db, chain[0]!)).toMatchObject({ rank_id: 2 });
    // So does member_points' (the points policy's working state): the rebuild at the policy's
    // checkpoint finds exactly the live rows, the cascade's ranks and times included.
    const rankedPoints = async () =>
      (await sql<{ rank_id: number | null; at: string | null }>`select rank_id, rank_achieved_at::text as at from member_points where member_id = any(${sql.val([...chain, x])}::uuid[]) order by member_id`.execute(t.runtime.db)).rows;
    const live = await rankedPoints();
    expect((await rebuildReadModel(t.runtime.db, findReadModel('member-points')!)).swapped).toEqual([{ table: 'member_points', removed: 0, added: 0 }]);
    expect(await rankedPoints()).toEqual(live);

    // A replay of the whole log (member_points emptied, the policy's checkpoint reset) records no rank again,
    // and rebuilds the same rows.
    const rankEvents = async () => (await sql<{ n: number }>`select count(*)::int as n from events where type in ('RankAchieved', 'RanksAchieved')`.execute(t.runtime.db)).rows[0]!.n;
    const recordedBeforeReplay = await rankEvents();
    const pointsRows = () => t.runtime.db.selectFrom('member_points').selectAll().orderBy('member_id').execute();
    const pointsBeforeReplay = await pointsRows();
    const replay = async () => {
      await sql`delete from member_points`.execute(t.runtime.db);
      await sql`update consumer_checkpoints set last_transaction_id = '0'::xid8, last_global_position = 0 where name = 'points'`.execute(t.runtime.db);
      await settle();
    };
    await replay();
    expect(await rankEvents()).toBe(recordedBeforeReplay);
    expect(await pointsRows()).toEqual(pointsBeforeReplay);
    // A cascade recorded before decision 72 holds a key per (member, rank) and none for its cause: replayed, it records nothing again either.
    await sql`delete from unique_keys where scope = 'rank-cascade' and key = ${activation.event_id}`.execute(t.runtime.db);
    await sql`
      insert into unique_keys (scope, key, owner)
      select 'rank', k, ${activation.event_id} from unnest(${sql.val(entries.map((e) => `${e.member_id}:${e.rank_id}`))}::text[]) k`.execute(t.runtime.db);
    await replay();
    expect(await rankEvents()).toBe(recordedBeforeReplay);
    expect(await pointsRows()).toEqual(pointsBeforeReplay);
  }, 120_000);
});
