import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers, untilLogVisible } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { rebuildProjection } from '../core/rebuild';
import { closeMatchingCycle } from '../matching/commands';
import { dueCycleEnds } from '../matching/policies';
import { companyDate } from '../wallet/payout-schedule';
import { drainConsumer } from '../core/consumers';
import { awardBonusesPolicy } from '../incentives/projections';
import { pointsPolicy } from '../points/projections';
import { compensationPolicy, walletLedgerProjection } from './projections';

/**
 * Money as it stood at the cause (BUSINESS-RULES.md §3 "Trees", docs/money-as-of-cause.md). One
 * scenario runs twice on two databases: once with the worker keeping up (every consumer drained
 * after every step), once with the worker down until the end (nothing drained until the last
 * step). Between the causes an admin changes the referral percentages, a package's value and
 * the welcome percentage, and a matching cycle closes before more volume arrives. Both runs must
 * record the same money, and that money must be the one the plan gives at each cause.
 */

type Run = { t: TestApp; h: ReturnType<typeof httpHelpers>; labels: Map<string, string> };
let live: Run;
let lagged: Run;

async function startRun(): Promise<Run> {
  const t = await createTestApp();
  return { t, h: httpHelpers(t), labels: new Map() };
}

beforeAll(async () => {
  live = await startRun();
  lagged = await startRun();
}, 60_000);
afterAll(async () => {
  await live?.t.close();
  await lagged?.t.close();
});

/**
 * The scenario. `step` is called after every command: the live run drains the consumers there,
 * the lagged run does nothing (its worker is down).
 */
async function scenario(run: Run, step: () => Promise<void>, catchUp: () => Promise<void> = async () => {}) {
  const { h, t, labels } = run;
  const admin = await h.adminToken();
  const member = async (label: string, overrides: Record<string, unknown>, asParent = true) => {
    const m = await h.registeredMember({ package_id: 2, ...overrides }, { asParent });
    labels.set(m.id, label);
    return m;
  };
  const root = await h.rootToken();
  labels.set(root.id, 'root');

  // P (Bronze, ₦35,000) registers under the root and uploads a receipt: it awaits an admin.
  const p = await member('P', { referrer: 'herbalhq' });
  const pPayment = await h.uploadReceipt(p);
  await step();
  // Q and R, sponsored and placed under P, pay and are approved while P's payment waits.
  const q = await member('Q', { referrer: p.username });
  await h.payByReceipt(q);
  await step();
  const r = await member('R', { referrer: p.username });
  await h.payByReceipt(r);
  await step();

  // The admin changes the plan after those causes: referral generation 1 of Bronze 10% → 20%,
  // Bronze's registration value ₦35,000 → ₦50,000, the welcome bonus 2% → 4%.
  expect((await h.call('PUT', '/api/settings/update-referral-bonus/2', { token: admin, body: { generation_1_percentage: 20 } })).status).toBe(200);
  expect((await h.call('PUT', '/api/packages/2/update', { token: admin, body: { registration_value: 50_000 } })).status).toBe(200);
  expect((await h.call('PUT', '/api/settings/update', { token: admin, body: { welcome_bonus_percentage: 4 } })).status).toBe(200);
  await step();

  // Only now is P's receipt approved: what was held for P is credited with the causes' figures.
  await h.decideReceipt(pPayment, 'approve');
  await step();

  // P2 registers under the root, uploads a receipt; S pays under P2; the admin declines P2's receipt.
  const p2 = await member('P2', { referrer: 'herbalhq' });
  const p2Payment = await h.uploadReceipt(p2);
  await step();
  const s = await member('S', { referrer: p2.username }, false);
  await h.payByReceipt(s);
  await step();
  await h.decideReceipt(p2Payment, 'disapprove');
  await step();

  // A pair becomes 25 PV, and a matching cycle closes: P's legs are Q 25 and R 25, one pair. Then T
  // and U, Silvers (50 PV each) under Q and R, pay: PV recorded after the close belongs to the next
  // cycle (counted now, it would make three pairs).
  expect((await h.call('PUT', '/api/settings/update', { token: admin, body: { matching_bonus_total_pv: 25 } })).status).toBe(200);
  const latest = dueCycleEnds({ today: companyDate(t.clock.now), frequencyDays: 7, lastClosed: null })[0]!;
  expect((await closeMatchingCycle(t.runtime.commands, latest, t.clock.now)).closed).toBe(true);
  await step();
  await member('T', { referrer: q.username, package_id: 3 }, false).then((m) => h.payByReceipt(m));
  await step();
  await member('U', { referrer: r.username, package_id: 3 }, false).then((m) => h.payByReceipt(m));
  await step();

  await catchUp();
  await settleConsumers(t.runtime.db);
  const rows = await t.runtime.db
    .selectFrom('wallet_entries')
    .select(['member_id', 'kind', 'entry', 'amount', 'reason', 'generation', 'resolution', 'settles_hold', 'cause_member_id'])
    .execute();
  return rows
    .map((row) => [labels.get(row.member_id) ?? row.member_id, row.kind, row.entry, row.amount, row.reason, row.generation, row.resolution, row.settles_hold, labels.get(row.cause_member_id ?? '') ?? null].join(' '))
    .sort();
}

describe('money decided as it stood at the cause', () => {
  it('gives the same money whether the worker keeps up or catches up later, with held bonuses settled by the payment decision', async () => {
    const liveRows = await scenario(live, () => settleConsumers(live.t.runtime.db));
    // The worker comes back: the bonus policies catch up at the same time over the same wallets
    // (compensation, points paying the cycle, awards), as several worker processes would.
    const catchUp = async () => {
      await untilLogVisible(lagged.t.runtime.db);
      const results = await Promise.all([compensationPolicy, pointsPolicy, awardBonusesPolicy].map((consumer) => drainConsumer(lagged.t.runtime.db, consumer)));
      for (const result of results) expect(result.status, result.error).toBe('caught_up');
    };
    const laggedRows = await scenario(lagged, async () => {}, catchUp);
    expect(laggedRows).toEqual(liveRows);

    // The plan at each cause, to the kobo (referral 10/5/3...% of the package bought, welcome 2%, equilibrium 2%):
    // - Q's and R's activation (Bronze ₦35,000): P's generation-1 referral 10% × ₦35,000 = ₦3,500 each, held
    //   while P's receipt waited and credited at its approval (not 20%: that change came after the causes);
    //   the root's generation 2, 5% × ₦35,000 = ₦1,750 each; their welcome 2% × ₦35,000 = ₦700 each.
    // - R's activation gave P two active children while P's payment waited: P's equilibrium 2% × ₦35,000 = ₦700
    //   held, then credited (not 2% × ₦50,000, Bronze's value after the change).
    // - P's activation, after the changes (referral 20%, welcome 4%): P's payment was priced at ₦35,000 when P
    //   started it; root generation 1, 20% = ₦7,000; P's welcome 4% = ₦1,400.
    // - S's activation under P2 (Bronze now ₦50,000): P2's 20% = ₦10,000 held, then withheld when P2's receipt
    //   was declined; root generation 2, 5% = ₦2,500; S's welcome 4% = ₦2,000.
    // - The cycle closed with P's legs Q 25 / R 25: 1 pair of 25 PV × ₦1,000 × 10% = ₦2,500. T's and U's
    //   50 PV each came after the close (3 pairs had they counted). The root: legs 75 / 25, but P2 was not
    //   active: not qualified, nothing withheld (the cycle notes it; its volume carries).
    // - T and U (Silver ₦70,000, Silver's table 10/5/3%) under Q and R: Q and R ₦7,000 each, P generation 2
    //   ₦3,500 each, the root generation 3 ₦2,100 each; welcome 4% × ₦70,000 = ₦2,800 each.
    const expected = [
      'P referral held 350000  1 credited false Q',
      'P referral held 350000  1 credited false R',
      'P referral credited 350000  1  true Q',
      'P referral credited 350000  1  true R',
      'P equilibrium held 70000   credited false R',
      'P equilibrium credited 70000    true R',
      'root referral credited 175000  2  false Q',
      'root referral credited 175000  2  false R',
      'Q welcome credited 70000    false Q',
      'R welcome credited 70000    false R',
      'root referral credited 700000  1  false P',
      'P welcome credited 140000    false P',
      'P2 referral held 1000000  1 withheld false S',
      'P2 referral withheld 1000000 payment_declined 1  true S',
      'root referral credited 250000  2  false S',
      'S welcome credited 200000    false S',
      'P matching credited 250000    false ',
      'Q referral credited 700000  1  false T',
      'R referral credited 700000  1  false U',
      'P referral credited 350000  2  false T',
      'P referral credited 350000  2  false U',
      'root referral credited 210000  3  false T',
      'root referral credited 210000  3  false U',
      'T welcome credited 280000    false T',
      'U welcome credited 280000    false U',
    ].sort();
    expect(liveRows).toEqual(expected);

    // The cycle's note for the root, in both runs.
    for (const run of [live, lagged]) {
      const rootId = [...run.labels].find(([, label]) => label === 'root')![0];
      expect(await run.t.runtime.db.selectFrom('matching_results').select(['outcome', 'reason', 'left_pv', 'right_pv', 'carried_left', 'carried_right']).where('member_id', '=', rootId).executeTakeFirstOrThrow()).toEqual({
        outcome: 'not_qualified',
        reason: 'no_second_leg',
        left_pv: 75,
        right_pv: 25,
        carried_left: 75,
        carried_right: 25,
      });
    }

    // Nothing is left held, and the wallets agree with the lines.
    for (const run of [live, lagged]) {
      const held = await run.t.runtime.db.selectFrom('wallets').select((eb) => eb.fn.sum<string>('total_held').as('held')).executeTakeFirstOrThrow();
      expect(Number(held.held)).toBe(0);
      const before = await run.t.runtime.db.selectFrom('wallets').selectAll().orderBy('member_id').execute();
      await rebuildProjection(run.t.runtime.db, walletLedgerProjection);
      const after = await run.t.runtime.db.selectFrom('wallets').selectAll().orderBy('member_id').execute();
      expect(after.map(({ updated_at: _u, ...rest }) => rest)).toEqual(before.map(({ updated_at: _u, ...rest }) => rest));
    }
  }, 240_000);
});
