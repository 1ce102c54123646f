import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { companyDate } from '../wallet/payout-schedule';
import { dueCycleEnds } from './policies';
import { nextCycle } from './queries';

/**
 * Issue 14 item 5 and the member's matching explanation (item 3), over HTTP: the back office's
 * matching-cycles and matching-results resources, "Close due cycle" (admins only, recorded with
 * the admin as actor, once per end date), the global profit and profit pool runs with their
 * "Run due", and GET /bonuses/matching-status (the member's own figures only).
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['activeMember']>>;
let A: Member;
let AL: Member;
let AR: Member;
let B: Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
let latest: string;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  // Seeded plan: a pair is 100 PV, 1 PV = ₦1,000, 10%. Bronze 25 PV, Gold 100, Silver 50; Bronze's cap ₦100,000.
  // root ─L─ A (Bronze) ─L─ AL (Gold 100) ─L─ AL2 (Gold 100)
  //                     └R─ AR (Silver 50) ─L─ AR2 (Gold 100)
  A = await h.activeMember({ referrer: 'herbalhq', package_id: 2, first_name: 'Amaka', last_name: 'Obi' }, { asParent: true });
  AL = await h.activeMember({ referrer: A.username, package_id: 4 }, { asParent: true });
  AR = await h.activeMember({ referrer: A.username, package_id: 3 }, { asParent: true });
  await h.activeMember({ referrer: AL.username, package_id: 4 });
  await h.activeMember({ referrer: AR.username, package_id: 4 });
  // root ─R─ B (never paid) ─L─ Gold, ─R─ Gold: B has a pair but is not active; the root's right child is B.
  B = await h.registeredMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  await h.activeMember({ referrer: B.username, package_id: 4 });
  await h.activeMember({ referrer: B.username, package_id: 4 });
  await settleConsumers(t.runtime.db);
  latest = dueCycleEnds({ today: companyDate(t.clock.now), frequencyDays: 7, lastClosed: null })[0]!;
}, 180_000);
afterAll(async () => t.close());

/** A ra-data-simple-rest list call: the body is a bare array. */
const list = async (path: string, token: string | undefined, query: Record<string, unknown> = {}) => {
  const qs = new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)]))).toString();
  const response = await h.call('GET', `${path}${qs ? `?${qs}` : ''}`, { token });
  return { ...response, body: response.body as unknown as any[] };
};

describe('who may see and operate the cycles', () => {
  it('refuses members and visitors, lets finance read but not close or run', async () => {
    for (const path of ['/api/admin/matching-cycles', '/api/admin/matching-results', '/api/admin/global-profit-runs', '/api/admin/profit-pool-runs']) {
      expect((await h.call('GET', path)).status).toBe(401);
      expect((await h.call('GET', path, { token: A.token })).status).toBe(403);
      expect((await h.call('GET', path, { token: finance })).status).toBe(200);
    }
    for (const path of ['/api/admin/matching-cycles/close-due', '/api/admin/global-profit-runs/run-due', '/api/admin/profit-pool-runs/run-due']) {
      expect((await h.call('POST', path)).status).toBe(401);
      expect((await h.call('POST', path, { token: A.token })).status).toBe(403);
      const asFinance = await h.call('POST', path, { token: finance });
      expect(asFinance.status).toBe(403);
      expect(asFinance.body.message).toBe('Finance staff may read but not change this.');
    }
    // Nothing was closed or run by those attempts.
    expect(await t.runtime.db.selectFrom('events').select('type').where('type', 'in', ['MatchingCycleClosed', 'GlobalProfitShared', 'ProfitPoolShared']).execute()).toEqual([]);
  }, 120_000);
});

describe('matching cycles', () => {
  it('closes the due cycle by hand with the admin as actor, once; lists it with totals and who closed it', async () => {
    const closed = await h.call('POST', '/api/admin/matching-cycles/close-due', { token: admin });
    expect(closed.status, closed.body.message).toBe(200);
    expect(closed.body).toEqual({ success: true, message: `Closed the matching cycle ending ${latest}. Its bonuses are being paid.`, data: { closed: [latest] } });
    const adminRow = await t.runtime.db.selectFrom('admins').select(['id', 'name', 'email']).where('role', '=', 'admin').executeTakeFirstOrThrow();
    const event = await t.runtime.db.selectFrom('events').select(['metadata', 'data']).where('stream_id', '=', `matching-cycle-${latest}`).executeTakeFirstOrThrow();
    expect(event.metadata).toMatchObject({ actor: { type: 'admin', id: adminRow.id } });

    // A second click: already closed, nothing recorded.
    const again = await h.call('POST', '/api/admin/matching-cycles/close-due', { token: admin });
    expect(again.status).toBe(409);
    const next = nextCycle({ today: companyDate(t.clock.now), frequencyDays: 7, lastClosed: latest });
    expect(again.body.message).toBe(`The matching cycle ending ${latest} is already closed. The next one ends ${next.cycleEnd} and can be closed from the day after.`);
    expect(await t.runtime.db.selectFrom('events').select('event_id').where('type', '=', 'MatchingCycleClosed').execute()).toHaveLength(1);

    await settleConsumers(t.runtime.db);
    // A: L = AL 100 + AL2 100 = 200, R = AR 50 + AR2 100 = 150 → 1 pair = ₦10,000. AL, AR: one leg only.
    // root: L = 25 + 200 + 150 = 375, R = 0 → none.
    const page = await list('/api/admin/matching-cycles', finance, { sort: ['cycle_end', 'DESC'], range: [0, 24] });
    expect(page.status).toBe(200);
    expect(page.headers['content-range']).toBe('matching-cycles 0-0/1');
    expect(page.body).toEqual([
      {
        id: latest,
        cycle_end: latest,
        frequency_days: 7,
        total_pv: 100,
        percent: 10,
        unit_point_value: 1_000,
        closed_at: t.clock.now.toISOString(),
        closed_by: { type: 'admin', id: adminRow.id, name: adminRow.name, email: adminRow.email },
        paid_at: t.clock.now.toISOString(),
        members_paid: 1,
        members_capped: expect.any(Number),
        members_not_qualified: expect.any(Number),
        pairs: 1,
        credited: 10_000,
        withheld: 0,
      },
    ]);
    const one = await h.call('GET', `/api/admin/matching-cycles/${latest}`, { token: admin });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: latest, credited: 10_000, closed_by: { name: adminRow.name } });
  }, 120_000);

  it('shows a cycle closed by the schedule as such, sorts and pages', async () => {
    // An older cycle, closed by the schedule's actor (the command's default).
    const { closeMatchingCycle } = await import('./commands');
    const older = new Date(Date.parse(`${latest}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
    expect(await closeMatchingCycle(t.runtime.commands, older, t.clock.now)).toEqual({ cycleEnd: older, closed: true });
    await settleConsumers(t.runtime.db);
    const asc = await list('/api/admin/matching-cycles', admin, { sort: ['cycle_end', 'ASC'], range: [0, 0] });
    expect(asc.headers['content-range']).toBe('matching-cycles 0-0/2');
    expect(asc.body.map((c: { id: string }) => c.id)).toEqual([older]);
    expect(asc.body[0].closed_by).toEqual({ type: 'system', id: 'matching-schedule', name: 'Schedule', email: null });
    const byCredit = await list('/api/admin/matching-cycles', admin, { sort: ['credited', 'DESC'], range: [0, 24], filter: { closed_by_type: 'admin' } });
    expect(byCredit.body.map((c: { id: string }) => c.id)).toEqual([latest]);
    // Bad input: a clear 4xx.
    expect((await list('/api/admin/matching-cycles', admin, { sort: ['nope', 'ASC'] })).status).toBe(422);
    expect((await h.call('GET', '/api/admin/matching-cycles/not-a-date', { token: admin })).status).toBe(422);
    const missing = await h.call('GET', '/api/admin/matching-cycles/2020-01-07', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Matching cycle not found.');
  }, 120_000);

  it("lists a cycle's per-member results with usernames and the reason in words", async () => {
    // The rows the paying policy wrote at the close.
    const rows = await list('/api/admin/matching-results', finance, { filter: { cycle_end: latest }, sort: ['credited', 'DESC'], range: [0, 9] });
    expect(rows.status).toBe(200);
    const a = rows.body.find((r: { member_id: string }) => r.member_id === A.id);
    expect(a).toMatchObject({ id: `${latest}:${A.id}`, username: A.username, full_name: 'Amaka Obi', outcome: 'paid', reason_text: null, left_pv: 200, right_pv: 150, pairs: 1, credited: 10_000, withheld: 0, carried_left: 100, carried_right: 50 });
    // B and the root had pairs but did not qualify: noted, nothing consumed (root: L 25 + 200 + 150 = 375, R 200).
    expect(rows.headers['content-range']).toBe('matching-results 0-2/3');
    expect(rows.body.find((r: { member_id: string }) => r.member_id === B.id)).toMatchObject({ outcome: 'not_qualified', reason: 'inactive', reason_text: 'Not active when the cycle closed: nothing was paid and the legs carry to the next cycle.', left_pv: 100, right_pv: 100, carried_left: 100, carried_right: 100 });
    expect(rows.body.find((r: { username: string }) => r.username === 'herbalhq')).toMatchObject({ outcome: 'not_qualified', reason: 'no_second_leg', reason_text: 'Needs an active placement child on each leg: nothing was paid and the legs carry to the next cycle.', left_pv: 375, right_pv: 200, pairs: 2 });
    const search = await list('/api/admin/matching-results', admin, { filter: { cycle_end: latest, q: A.username } });
    expect(search.body.map((r: { member_id: string }) => r.member_id)).toEqual([A.id]);
    expect((await list('/api/admin/matching-results', admin, { filter: { pairs: 'many' } })).status).toBe(422);
  }, 120_000);
});

describe("the member's matching explanation", () => {
  it('explains the standing legs, the pairs they make, the last result and the next close: own figures only', async () => {
    expect((await h.call('GET', '/api/bonuses/matching-status')).status).toBe(401);
    expect((await h.call('GET', '/api/bonuses/matching-status', { token: admin })).status).toBe(403);

    // New volume on A's right leg: a Gold (100) under AR2's parent AR.
    await h.activeMember({ referrer: AR.username, package_id: 4 });
    await settleConsumers(t.runtime.db);
    const status = await h.call('GET', '/api/bonuses/matching-status', { token: A.token });
    expect(status.status).toBe(200);
    const next = nextCycle({ today: companyDate(t.clock.now), frequencyDays: 7, lastClosed: latest });
    // A: consumed 100 each side by the paid pair. Standing L = 200 − 100 = 100, R = 250 − 100 = 150 → 1 pair now.
    expect(status.body.data).toMatchObject({
      left_pv: 100,
      right_pv: 150,
      pair_pv: 100,
      pairs_now: 1,
      percent: 10,
      unit_point_value: 1_000,
      bonus_now: 10_000,
      cap: 100_000,
      payable_now: 10_000,
      qualified: true,
      not_qualified_reason: null,
      next_cycle_end: next.cycleEnd,
      next_close_at: next.closesAt,
      frequency_days: 7,
      summary: `Your legs make 1 pair now: ₦10,000 at the close of the cycle ending ${next.cycleEnd}.`,
    });
    expect(status.body.data.last_cycle).toMatchObject({ cycle_end: latest, outcome: 'paid', pairs: 1, credited: 10_000, carried_left: 100, carried_right: 50 });
    expect(status.body.data.last_cycle.text).toBe(`Cycle ending ${latest}: 1 pair, ₦10,000 paid. 100 PV left and 50 PV right carried forward.`);

    // AL sees AL's own figures: one placement child only, so not qualified; no pair yet (L 100, R 0).
    const al = (await h.call('GET', '/api/bonuses/matching-status', { token: AL.token })).body.data;
    expect(al).toMatchObject({ left_pv: 100, right_pv: 0, pairs_now: 0, qualified: false, not_qualified_reason: 'no_second_leg', payable_now: 0 });
    expect(al.summary).toBe('A pair needs 100 PV on each leg: 100 PV more on your right leg will make one. To be paid you need an active member placed directly on each of your legs; your volume keeps until then.');
    if (al.last_cycle.outcome === 'not_qualified') {
      expect(al.last_cycle.text).toBe(`Cycle ending ${latest}: 1 pair, nothing paid: you needed an active member placed directly on each of your legs. 100 PV left and 100 PV right carried forward.`);
    }
  }, 120_000);

  it('places the next close on the cycle grid', () => {
    expect(nextCycle({ today: '2026-11-25', frequencyDays: 7, lastClosed: '2026-11-18' })).toEqual({ cycleEnd: '2026-11-25', closesAt: '2026-11-25T23:00:00.000Z' });
    expect(nextCycle({ today: '2026-11-26', frequencyDays: 7, lastClosed: '2026-11-18' })).toEqual({ cycleEnd: '2026-11-25', closesAt: '2026-11-25T23:00:00.000Z' });
    expect(nextCycle({ today: '2026-11-26', frequencyDays: 7, lastClosed: '2026-11-25' })).toEqual({ cycleEnd: '2026-12-02', closesAt: '2026-12-02T23:00:00.000Z' });
    expect(nextCycle({ today: '2025-12-20', frequencyDays: 7, lastClosed: null })).toEqual({ cycleEnd: '2026-01-07', closesAt: '2026-01-07T23:00:00.000Z' });
  }, 120_000);
});

describe('global profit and profit pool runs', () => {
  it('runs a due global profit share and profit pool by hand with the admin as actor, once each, and lists them with totals', async () => {
    const adminRow = await t.runtime.db.selectFrom('admins').select(['id', 'name', 'email']).where('role', '=', 'admin').executeTakeFirstOrThrow();
    const today = companyDate(t.clock.now);
    const [month, day] = [Number(today.slice(5, 7)), Number(today.slice(8, 10))];
    const set = await h.call('PUT', '/api/settings/update', { token: admin, body: { global_profit_value: 1_000, next_global_profit_share_month: month, next_global_profit_share_day: day } });
    expect(set.status, set.body.message).toBe(200);

    const shared = await h.call('POST', '/api/admin/global-profit-runs/run-due', { token: admin });
    expect(shared.status, shared.body.message).toBe(200);
    expect(shared.body).toEqual({ success: true, message: `Shared the global profit of ${today}. The members' shares are being paid.`, data: { period: today, ran: true } });
    const notDue = await h.call('POST', '/api/admin/global-profit-runs/run-due', { token: admin });
    expect(notDue.status).toBe(409);
    expect(notDue.body.message).toMatch(/^No global profit share is due yet: the next share date is \d{4}-\d{2}-\d{2}\.$/);

    const pool = await h.call('POST', '/api/admin/profit-pool-runs/run-due', { token: admin });
    expect(pool.status, pool.body.message).toBe(200);
    const poolMonth = pool.body.data.period as string;
    expect(pool.body.message).toBe(`Shared the profit pool of ${poolMonth}. The members' shares are being paid.`);
    const poolAgain = await h.call('POST', '/api/admin/profit-pool-runs/run-due', { token: admin });
    expect(poolAgain.status).toBe(409);
    expect(poolAgain.body.message).toBe(`The profit pool of ${poolMonth} has already been shared. The next one, for this month, is due on the 1st of next month.`);
    await settleConsumers(t.runtime.db);

    const globals = await list('/api/admin/global-profit-runs', finance, { sort: ['share_date', 'DESC'], range: [0, 24] });
    expect(globals.headers['content-range']).toBe('global-profit-runs 0-0/1');
    // No member holds a global-profit rank here: nobody is paid and the company keeps the pool.
    expect(globals.body).toEqual([
      {
        id: today,
        share_date: today,
        pool: 1_000,
        first_percentage: expect.any(Number),
        second_percentage: expect.any(Number),
        run_at: t.clock.now.toISOString(),
        run_by: { type: 'admin', id: adminRow.id, name: adminRow.name, email: adminRow.email },
        members_paid: 0,
        credited: 0,
        kept: 1_000,
      },
    ]);
    const change = await t.runtime.db.selectFrom('events').select('metadata').where('type', '=', 'SettingsChanged').orderBy('global_position', 'desc').executeTakeFirstOrThrow();
    expect(change.metadata).toMatchObject({ actor: { type: 'admin', id: adminRow.id } });

    const pools = await list('/api/admin/profit-pool-runs', finance, {});
    expect(pools.body).toEqual([
      expect.objectContaining({ id: poolMonth, month: poolMonth, run_by: { type: 'admin', id: adminRow.id, name: adminRow.name, email: adminRow.email }, members_paid: 0, credited: 0 }),
    ]);
    expect(pools.body[0].kept).toBe(pools.body[0].pool);
    expect((await h.call('GET', `/api/admin/profit-pool-runs/${poolMonth}`, { token: admin })).body).toMatchObject({ id: poolMonth });
    expect((await h.call('GET', `/api/admin/global-profit-runs/${today}`, { token: admin })).body).toMatchObject({ id: today, pool: 1_000 });
    expect((await h.call('GET', '/api/admin/global-profit-runs/2020-01-01', { token: admin })).status).toBe(404);
    expect((await h.call('GET', '/api/admin/profit-pool-runs/junk', { token: admin })).status).toBe(422);
  }, 120_000);
});
