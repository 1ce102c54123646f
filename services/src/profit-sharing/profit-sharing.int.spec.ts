import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { walletLedgerProjection } from '../compensation/projections';
import { drainAll } from '../../test/consumers';
import { type RecordedEvent, readStream } from '../core/event-store';
import { pointsPolicy } from '../points/projections';
import { companyDate } from '../wallet/payout-schedule';
import { scheduledJobs } from '../worker/schedules';
import { globalProfitStream, profitPoolStream } from './events';
import { addDays, addMonths, nextShareMonth } from './policies';
import { payGlobalProfit, profitSharingPolicy } from './projections';
import type { GlobalProfitShared } from './events';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

type Member = Awaited<ReturnType<typeof h.registeredMember>>;

/** Ranks (points), shares, then the ledger: the order the worker reaches the same state in. */
async function settle() {
  for (const consumer of [pointsPolicy, profitSharingPolicy, walletLedgerProjection]) {
    expect((await drainAll(t.runtime.db, consumer)).status).toBe('caught_up');
  }
}

/** The scheduled job itself, as the worker runs it (its clock is the test's). */
async function runJob(name: 'global-profit-share' | 'profit-pool-share') {
  const job = scheduledJobs.find((j) => j.name === name);
  if (!job) throw new Error(`no scheduled job ${name}`);
  return (await job.run(t.runtime)) as { period: string | null; ran: boolean };
}

/**
 * Moves the clock (sessions idle out after 15 minutes) and starts fresh helpers: new sign-ins,
 * the same members kept out of automatic placement.
 */
function moveClockTo(at: Date) {
  t.clock.now = at;
  const reserved = h.reservedParents;
  h = httpHelpers(t);
  for (const name of reserved) h.reservedParents.add(name);
}

async function signIn(member: Member): Promise<Member> {
  const login = await h.call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } });
  expect(login.status, login.body.message).toBe(200);
  return { ...member, token: login.body.data.access_token as string };
}

async function get(url: string, token: string) {
  const response = await h.call('GET', url, { token });
  expect(response.status, `${url}: ${response.body.message}`).toBe(200);
  return response.body.data;
}

async function eventCount(type: string) {
  const row = await t.runtime.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('type', '=', type).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The first instant of the Lagos month `ahead` months after the one `from` falls in. */
function lagosMonthStart(from: Date, ahead: number): Date {
  const first = addMonths(`${companyDate(from).slice(0, 7)}-01`, ahead);
  return new Date(`${first}T00:00:00+01:00`);
}
const hours = (n: number) => n * 60 * 60_000;

describe('global profit share', () => {
  it('shares on its date among members holding an eligible rank to the kobo, once, and moves the next share date a month on', async () => {
    let admin = await h.adminToken();
    // Director (rank 5, global-profit eligible, Gold and above) at 150 CPV instead of 50,000.
    expect((await h.call('PUT', '/api/ranks/5/update', { token: admin, body: { points: 150, package_id: 4 } })).status).toBe(200);
    const shareDate = addDays(companyDate(t.clock.now), 2);
    const month = Number(shareDate.slice(5, 7));
    const day = Number(shareDate.slice(8, 10));
    const set = await h.call('PUT', '/api/settings/update', {
      token: admin,
      body: { global_profit_value: 1_000, global_profit_first_percentage: 33, global_profit_second_percentage: 67, next_global_profit_share_month: month, next_global_profit_share_day: day },
    });
    expect(set.status, set.body.message).toBe(200);

    // Gold (100 PV) members: A under the root; B and C under A; D under B. CPV: A 400, B 200, C 100, D 100.
    let a = await h.activeMember({ referrer: 'herbalhq', package_id: 4 }, { asParent: true });
    let b = await h.activeMember({ referrer: a.username, package_id: 4 }, { asParent: true });
    let c = await h.activeMember({ referrer: a.username, package_id: 4 });
    let d = await h.activeMember({ referrer: b.username, package_id: 4 });
    await settle();
    expect(await get(`/api/users/${a.id}/total-pv`, a.token)).toMatchObject({ cpv: 400, rank_id: 5 });
    expect(await get(`/api/users/${b.id}/total-pv`, b.token)).toMatchObject({ cpv: 200, rank_id: 5 });

    // The dashboard flags: A holds Director and has two active placement children; C's placement parent (A) has two children, D's (B) one.
    expect(await get(`/api/bonuses/${a.id}/bonus-stats`, a.token)).toMatchObject({ global_profit_qualified: true, profit_pool_qualified: false, equilibrium_qualified: true });
    expect(await get(`/api/bonuses/${c.id}/bonus-stats`, c.token)).toMatchObject({ global_profit_qualified: false, equilibrium_qualified: false, loyalty_qualified: true });
    expect(await get(`/api/bonuses/${d.id}/bonus-stats`, d.token)).toMatchObject({ global_profit_qualified: false, loyalty_qualified: false });

    // Two days early: nothing is due.
    expect(await runJob('global-profit-share')).toEqual({ period: null, ran: false });
    expect(await eventCount('GlobalProfitShared')).toBe(0);

    // A day after the share date (the worker was down on the day): the share of that date runs.
    moveClockTo(new Date(t.clock.now.getTime() + hours(72)));
    expect(await runJob('global-profit-share')).toEqual({ period: shareDate, ran: true });
    await settle();
    a = await signIn(a);
    b = await signIn(b);
    c = await signIn(c);
    d = await signIn(d);
    admin = await h.adminToken();

    // Pool ₦1,000 = 100,000 kobo. Equal part 33% = 33,000 / 2 eligible (A, B) = 16,500 each.
    // CPV part 67% = 67,000: A floor(67,000 × 400/600) = 44,666, B floor(67,000 × 200/600) = 22,333; 1 kobo stays with the company.
    // A 61,166 kobo = ₦611.66; B 38,833 kobo = ₦388.33; C and D (CPV 100, Manager at most) nothing.
    const aShares = await get(`/api/bonuses/${a.id}/global-profits`, a.token);
    expect(aShares).toMatchObject({ current_page: 1, last_page: 1, per_page: 10, total: 1 });
    expect(aShares.data).toEqual([{ id: expect.any(Number), profit: 611.66, share_date: shareDate, created_at: t.clock.now.toISOString() }]);
    expect((await get(`/api/bonuses/${b.id}/global-profits`, b.token)).data.map((r: { profit: number }) => r.profit)).toEqual([388.33]);
    expect(await get(`/api/bonuses/${c.id}/global-profits`, c.token)).toMatchObject({ data: [], total: 0 });
    expect(await get(`/api/bonuses/${a.id}/global-profit`, a.token)).toEqual({ bonus: 611.66 });
    expect((await get(`/api/bonuses/${b.id}/bonus-stats`, b.token)).global_profit).toBe(388.33);
    const credit = await t.runtime.db.selectFrom('wallet_entries').select('inputs').where('member_id', '=', a.id).where('kind', '=', 'global_profit').executeTakeFirstOrThrow();
    expect(credit.inputs).toMatchObject({ share_date: shareDate, eligible_count: 2, equal_share_kobo: 16_500, cpv: 400, total_cpv: 600, cpv_share_kobo: 44_666, company_remainder_kobo: 1 });
    const row = (await get(`/api/wallet/${a.id}/bonuses`, a.token)).data[0];
    expect(row).toMatchObject({ kind: 'global_profit', amount: 611.66 });
    expect(row.explanation).toBe(`Global profit shared on ${shareDate}: ₦165, an equal part of 33% of the ₦1,000 pool among 2 eligible members, plus ₦446.66 for your CPV of 400 out of 600.`);

    // The next share date moved one month on, recorded as a settings change by the system, caused by the share.
    const settings = await get('/api/settings/all', admin);
    expect(settings).toMatchObject({ next_global_profit_share_month: nextShareMonth(month), next_global_profit_share_day: day });
    const [shared] = await readStream(t.runtime.db, globalProfitStream(shareDate));
    expect(shared).toMatchObject({ type: 'GlobalProfitShared', data: { share_date: shareDate, pool_kobo: 100_000, first_percentage: 33, second_percentage: 67 } });
    const change = await t.runtime.db.selectFrom('events').select(['data', 'metadata']).where('type', '=', 'SettingsChanged').orderBy('global_position', 'desc').executeTakeFirstOrThrow();
    expect(change).toMatchObject({ data: { changes: { next_global_profit_share_month: nextShareMonth(month) } }, metadata: { actor: { type: 'system', id: 'global-profit' }, causation_id: shared!.eventId } });

    // A second run pays nothing: the next date is a month away, and the share's bonuses are keyed by (share, member).
    expect(await runJob('global-profit-share')).toEqual({ period: null, ran: false });
    const credits = await eventCount('BonusCredited');
    await t.runtime.db.transaction().execute((trx) => payGlobalProfit(trx, shared as RecordedEvent<GlobalProfitShared>));
    await settle();
    expect(await eventCount('BonusCredited')).toBe(credits);
    expect(await eventCount('GlobalProfitShared')).toBe(1);
    expect((await get(`/api/bonuses/${a.id}/global-profits`, a.token)).total).toBe(1);

    // Admin totals: ₦611.66 + ₦388.33 = ₦999.99 to 2 members; 2 members eligible now.
    expect(await get('/api/bonuses/total-global-profit-bonus?type=all', admin)).toEqual({ bonus: 999.99, count: 2, members: 2, type: 'all', eligible_count: 2 });
    expect(await get('/api/bonuses/total-global-profit-bonus', admin)).toMatchObject({ bonus: 999.99, type: 'all' });
    expect(await get('/api/bonuses/total-global-profit-bonus?type=today', admin)).toMatchObject({ bonus: 999.99 });
  }, 120_000);
});

describe('profit pool', () => {
  it('shares last month’s registration and upgrade payments among the qualifying top-package members, once per month', async () => {
    const start = t.clock.now;
    const month1 = lagosMonthStart(start, 1);
    const month2 = lagosMonthStart(start, 2);
    const month3 = lagosMonthStart(start, 3);
    moveClockTo(new Date(month1.getTime() + hours(1)));
    let admin = await h.adminToken();
    const set = await h.call('PUT', '/api/settings/update', { token: admin, body: { profit_pool_percentage: 2, profit_pool_num_of_downlines: 2, profit_pool_days_offset: 10, profit_pool_duration: 1 } });
    expect(set.status, set.body.message).toBe(200);

    /** A member on `packageId` with `active` paid sponsored members (Starter, ₦15,000) and `unpaid` unpaid ones. */
    async function leader(packageId: number, active: number, unpaid = 0) {
      const member = await h.activeMember({ package_id: packageId }, { asParent: true });
      const downlines: Member[] = [];
      for (let i = 0; i < active; i++) downlines.push(await h.activeMember({ referrer: member.username, package_id: 1 }));
      for (let i = 0; i < unpaid; i++) await h.registeredMember({ referrer: member.username, package_id: 1 });
      return { ...member, downlines };
    }

    // Month 1: Old (Crown) with 2 sponsored members. ₦560,000 + 2 × ₦15,000 = ₦590,000 of payments.
    const old = await leader(6, 2);
    const month1Name = companyDate(t.clock.now).slice(0, 7);

    // On the 1st of month 2 the job shares month 1: 2% of ₦590,000 = ₦11,800, all to Old
    // (activated on month 1's 1st: ≥ 10 days and ≤ 1 month before the run's date).
    moveClockTo(new Date(month2.getTime() + hours(1)));
    expect(await runJob('profit-pool-share')).toEqual({ period: month1Name, ran: true });
    await settle();
    expect((await get(`/api/bonuses/${old.id}/profit-pools`, (await signIn(old)).token)).data).toEqual([
      { id: expect.any(Number), profit: 11_800, amount: 11_800, month: month1Name, created_at: t.clock.now.toISOString() },
    ]);

    // Month 2 payments: P and P2 (Crown, 2 active sponsored each), Few (Crown, 1 active + 1 unpaid), Gold (Gold, 2 active),
    // and an upgrade of one of P's members Starter → Bronze (₦20,000).
    const p = await leader(6, 2);
    const p2 = await leader(6, 2);
    const few = await leader(6, 1, 1);
    const gold = await leader(4, 2);
    await h.payByReceipt(p.downlines[0]!, { upgradeTo: 2 });
    // 5 days before month 3: Late (Crown, 2 active) — activated too recently for the 10-day offset.
    moveClockTo(new Date(month3.getTime() - hours(5 * 24) + hours(1)));
    const late = await leader(6, 2);
    const month2Name = companyDate(t.clock.now).slice(0, 7);

    // The 1st of month 3: month 2's basis = 4 Crown × ₦560,000 + Gold ₦140,000 + 9 Starter × ₦15,000 + upgrade ₦20,000 = ₦2,535,000.
    // Pool 2% = ₦50,700, shared by P and P2 = ₦25,350 each. Old is out (activated more than 1 month before), Few has 1 active
    // sponsored member, Gold is not on the top package, Late was activated 5 days before.
    moveClockTo(new Date(month3.getTime() + hours(2)));
    expect(await runJob('profit-pool-share')).toEqual({ period: month2Name, ran: true });
    const [pool] = await readStream(t.runtime.db, profitPoolStream(month2Name));
    expect(pool).toMatchObject({
      type: 'ProfitPoolShared',
      data: { month: month2Name, basis_kobo: 253_500_000, percentage: 2, pool_kobo: 5_070_000, criteria: { package_id: 6, min_downlines: 2, days_offset: 10, duration_months: 1 } },
    });
    await settle();
    admin = await h.adminToken();
    const profitPools = async (member: Member) => (await get(`/api/bonuses/${member.id}/profit-pools`, admin)).data.map((r: { profit: number; month: string }) => [r.month, r.profit]);
    expect(await profitPools(p)).toEqual([[month2Name, 25_350]]);
    expect(await profitPools(p2)).toEqual([[month2Name, 25_350]]);
    expect(await profitPools(old)).toEqual([[month1Name, 11_800]]);
    for (const out of [few, gold, late]) expect(await profitPools(out)).toEqual([]);
    expect(await get(`/api/bonuses/${p.id}/profit-pool`, admin)).toEqual({ profit_pool: 25_350 });
    const signedP = await signIn(p);
    expect((await get(`/api/bonuses/${p.id}/bonus-stats`, signedP.token)).profit_pool_qualified).toBe(true);
    expect((await get(`/api/bonuses/${few.id}/bonus-stats`, admin)).profit_pool_qualified).toBe(false);
    expect((await get(`/api/bonuses/${late.id}/bonus-stats`, admin)).profit_pool_qualified).toBe(false);
    expect((await get(`/api/wallet/${p.id}/bonuses`, signedP.token)).data[0].explanation).toBe(
      `Profit pool for ${month2Name}: 2% of ₦2,535,000 registration and upgrade payments = ₦50,700, shared equally among 2 qualifying members.`,
    );

    // Run again on the same day: month 2 was shared; nothing more is paid.
    const credits = await eventCount('BonusCredited');
    expect(await runJob('profit-pool-share')).toEqual({ period: month2Name, ran: false });
    await settle();
    expect(await eventCount('BonusCredited')).toBe(credits);
    expect(await eventCount('ProfitPoolShared')).toBe(2);

    // Admin totals: all time ₦11,800 + 2 × ₦25,350 = ₦62,500 in 3 credits; this month only month 2's ₦50,700.
    expect(await get('/api/bonuses/total-profit-pool-bonus?type=all', admin)).toEqual({ bonus: 62_500, profit_pool: 62_500, count: 3, members: 3, type: 'all' });
    expect(await get('/api/bonuses/total-profit-pool-bonus?type=month', admin)).toMatchObject({ bonus: 50_700, count: 2 });
    expect(await get('/api/bonuses/total-profit-pool-bonus?type=year', admin)).toMatchObject({ type: 'year' });
    expect(await get('/api/bonuses/total-equilibrum-bonus', admin)).toMatchObject({ bonus: 0, type: 'all' });
    expect(await get('/api/bonuses/total-loyalty-bonus?type=month', admin)).toMatchObject({ bonus: 0, type: 'month' });
    const bogus = await h.call('GET', '/api/bonuses/total-loyalty-bonus?type=week', { token: admin });
    expect(bogus).toMatchObject({ status: 422, body: { message: 'The type must be one of all, today, month or year.' } });
    expect(await get('/api/bonuses/bonus-stats', admin)).toMatchObject({ global_profit_sum: 999.99, global_profit_count: 2, profit_pool_sum: 62_500, profit_pool_count: 3 });
    const finance = await h.adminToken('finance');
    expect((await get('/api/bonuses/bonus-stats', finance)).profit_pool_sum).toBe(62_500);

    // bonus-stats by period (when credited, Lagos calendar): this month and today hold month 2's ₦50,700 in 2 credits,
    // not month 1's ₦11,800 nor the global profit shared months ago; the eligible count is as of now.
    const allStats = await get('/api/bonuses/bonus-stats?type=all', admin);
    expect(allStats).toMatchObject({ profit_pool_sum: 62_500, global_profit_sum: 999.99, type: 'all' });
    for (const type of ['month', 'today'] as const) {
      expect(await get(`/api/bonuses/bonus-stats?type=${type}`, admin)).toMatchObject({
        profit_pool_sum: 50_700,
        profit_pool_count: 2,
        global_profit_sum: 0,
        global_profit_count: 0,
        global_profit_eligible_count: allStats.global_profit_eligible_count,
        type,
      });
    }
    expect((await get('/api/bonuses/bonus-stats?type=year', admin)).profit_pool_sum).toBeGreaterThanOrEqual(50_700);
    expect(await h.call('GET', '/api/bonuses/bonus-stats?type=week', { token: admin })).toMatchObject({ status: 422, body: { message: 'The type must be one of all, today, month or year.' } });
    // Two days later today holds nothing; all time is unchanged.
    moveClockTo(new Date(t.clock.now.getTime() + hours(48)));
    const later = await h.adminToken();
    const today = await get('/api/bonuses/bonus-stats?type=today', later);
    const sums = Object.entries(today).filter(([key]) => key.endsWith('_sum') || key.endsWith('_count'));
    expect(Object.fromEntries(sums)).toEqual({ ...Object.fromEntries(sums.map(([key]) => [key, 0])), global_profit_eligible_count: allStats.global_profit_eligible_count });
    expect(await get('/api/bonuses/bonus-stats', later)).toEqual(allStats);
  }, 300_000);

  it('keeps the company totals from members, and one member’s shares from another', async () => {
    const one = await h.registeredMember();
    const other = await h.registeredMember();
    for (const url of ['/api/bonuses/bonus-stats', '/api/bonuses/total-global-profit-bonus?type=all', '/api/bonuses/total-profit-pool-bonus', '/api/bonuses/total-equilibrum-bonus', '/api/bonuses/total-loyalty-bonus']) {
      expect((await h.call('GET', url, { token: one.token })).status, url).toBe(403);
      expect((await h.call('GET', url)).status, url).toBe(401);
    }
    expect((await h.call('GET', `/api/bonuses/${other.id}/global-profits`, { token: one.token })).status).toBe(403);
    expect((await h.call('GET', `/api/bonuses/${other.id}/profit-pools`, { token: one.token })).status).toBe(403);
    expect((await h.call('GET', `/api/bonuses/${one.id}/global-profits?page=2`, { token: one.token })).body.data).toMatchObject({ data: [], current_page: 2, total: 0 });
  });
});
