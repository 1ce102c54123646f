import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { drainAll } from '../../test/consumers';
import { rebuildProjection } from '../core/rebuild';
import { compensationPolicy, walletLedgerProjection } from './projections';

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
  expect((await drainAll(t.runtime.db, compensationPolicy)).status).toBe('caught_up');
  expect((await drainAll(t.runtime.db, walletLedgerProjection)).status).toBe('caught_up');
}

async function bonus(memberId: string, path: string) {
  const response = await h.call('GET', `/api/bonuses/${memberId}/${path}`, { token: admin });
  expect(response.status).toBe(200);
  return response.body.data;
}

describe('bonuses of activations and upgrades, through payments, the policy and the ledger', () => {
  it('pays referral, placement, welcome, equilibrium and upgrade bonuses to the kobo, withholds an inactive upline’s share, and pays nothing twice', async () => {
    const root = await h.rootToken();
    // A under the company root (sponsor = placement = root), Bronze ₦35,000.
    const a = await h.registeredMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    await h.payByReceipt(a);
    // B under A; C sponsored by A but placed under B (Silver ₦70,000); D under B.
    const b = await h.registeredMember({ referrer: a.username, package_id: 2 }, { asParent: true });
    await h.payByReceipt(b);
    const c = await h.registeredMember({ referrer: b.username, placer: a.username, package_id: 3 });
    await h.payByReceipt(c);
    const d = await h.registeredMember({ referrer: b.username, package_id: 2 });
    await h.payByReceipt(d);
    await settle();

    // A: B's activation 10% of ₦35,000 = ₦3,500 (gen 1) + C's activation 10% of ₦70,000 = ₦7,000 (gen 1, Silver table)
    //    + D's activation 5% of ₦35,000 = ₦1,750 (gen 2).
    expect(await bonus(a.id, 'referral-bonus')).toEqual({ bonus: 3_500 + 7_000 + 1_750 });
    // B: D's activation gen 1 = ₦3,500; C's placement (B is C's placement parent, A its sponsor) 3% of ₦70,000 = ₦2,100.
    expect(await bonus(b.id, 'referral-bonus')).toEqual({ bonus: 3_500 });
    expect(await bonus(b.id, 'placement-bonus')).toEqual({ bonus: 2_100 });
    // B's two placement children C and D are both active: equilibrium 2% of B's ₦35,000 = ₦700, once.
    expect(await bonus(b.id, 'equilibrum-bonus')).toEqual({ bonus: 700 });
    // Welcome 2% of own package: C ₦1,400.
    expect(await bonus(c.id, 'welcome-bonus')).toEqual({ bonus: 1_400 });
    // The root is credited like any member: A gen 1 ₦3,500, B gen 2 ₦1,750, C gen 2 5% of ₦70,000 = ₦3,500, D gen 3 3% = ₦1,050.
    expect(await bonus(root.id, 'referral-bonus')).toEqual({ bonus: 3_500 + 1_750 + 3_500 + 1_050 });
    // A has a welcome bonus too: total = 12,250 referral + 700 welcome.
    expect(await bonus(a.id, 'total-bonus')).toEqual({ bonus: 12_950 });
    expect((await bonus(a.id, 'wallet-balance')).balance).toBe(12_950);

    // An inactive sponsor's share is withheld, not passed up: G never pays, H (sponsored by G) activates.
    const g = await h.registeredMember({ referrer: d.username, package_id: 2 }, { asParent: true });
    const hMember = await h.registeredMember({ referrer: g.username, package_id: 2 });
    await h.payByReceipt(hMember);
    await settle();
    expect(await bonus(g.id, 'referral-bonus')).toEqual({ bonus: 0 });
    const gWallet = await h.call('GET', `/api/wallet/${g.id}/bonuses`, { token: g.token });
    expect(gWallet.body.data.data[0]).toMatchObject({ entry: 'withheld', kind: 'referral', amount: 3_500, generation: 1, cause_username: hMember.username });
    expect(gWallet.body.data.data[0].explanation).toMatch(/Not paid: you were not active/);
    // Generation 2 (D) still gets its 5%: no compression.
    expect(await bonus(d.id, 'referral-bonus')).toEqual({ bonus: 1_750 });

    // Upgrade B Bronze → Gold: difference ₦105,000; A gets 8% (gen 1 of the Gold upgrade table) = ₦8,400.
    await h.payByReceipt(b, { upgradeTo: 4 });
    await settle();
    expect((await bonus(a.id, 'bonus-stats')).upgrade_bonus).toBe(8_400);

    // Why: the wallet row names the cause, the generation and the formula.
    const aWallet = await h.call('GET', `/api/wallet/${a.id}/bonuses`, { token: a.token });
    expect(aWallet.body.data).toMatchObject({ current_page: 1, per_page: 10 });
    expect(aWallet.body.data.data[0]).toMatchObject({ kind: 'upgrade', amount: 8_400, generation: 1, cause_username: b.username, explanation: expect.stringContaining('8% of ₦105,000') });

    // Nothing twice: applying the same causes again records no new bonus.
    const before = await t.runtime.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('type', '=', 'BonusCredited').executeTakeFirstOrThrow();
    const causes = await t.runtime.db.selectFrom('events').select(['global_position']).where('type', 'in', ['MemberActivated', 'MemberPackageUpgraded']).execute();
    const { readLogBatch, LOG_START } = await import('../core/event-store');
    const all = await readLogBatch(t.runtime.db, LOG_START, { limit: 100_000 });
    const causeEvents = all.filter((e) => causes.some((c) => c.global_position === e.globalPosition));
    await t.runtime.db.transaction().execute((trx) => compensationPolicy.apply(trx, causeEvents));
    const after = await t.runtime.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('type', '=', 'BonusCredited').executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);

    // The ledger rebuilt from the log equals the live one.
    const live = await t.runtime.db.selectFrom('wallets').selectAll().orderBy('member_id').execute();
    await rebuildProjection(t.runtime.db, walletLedgerProjection);
    const rebuilt = await t.runtime.db.selectFrom('wallets').selectAll().orderBy('member_id').execute();
    expect(rebuilt.map(({ updated_at: _u, ...rest }) => rest)).toEqual(live.map(({ updated_at: _u, ...rest }) => rest));
  });

  it('judges uplines and placement children as they were at the cause, however far behind the policy runs', async () => {
    // P (unpaid) under the root; Q and R sponsored and placed under P. Q and R pay first; P pays a minute later.
    // Only then does the policy run: it must see P as it was when Q and R activated (inactive).
    const p = await h.registeredMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const q = await h.registeredMember({ referrer: p.username, package_id: 2 });
    const r = await h.registeredMember({ referrer: p.username, package_id: 2 });
    await h.payByReceipt(q);
    await h.payByReceipt(r);
    t.clock.advanceMinutes(1);
    await h.payByReceipt(p);
    await settle();
    // Q's and R's gen-1 referral (10% of ₦35,000 = ₦3,500 each) were earned while P was inactive: withheld, not credited.
    expect(await bonus(p.id, 'referral-bonus')).toEqual({ bonus: 0 });
    const withheld = await t.runtime.db.selectFrom('wallet_entries').select(['kind', 'amount', 'reason']).where('member_id', '=', p.id).where('entry', '=', 'withheld').orderBy('kind').execute();
    // R's activation gave P two active children while P was inactive: the equilibrium (2% of ₦35,000 = ₦700)
    // was due then and withheld; P's later activation does not bring it back (it is decided once).
    expect(withheld).toEqual([
      { kind: 'equilibrium', amount: 70_000, reason: 'inactive_beneficiary' },
      { kind: 'referral', amount: 350_000, reason: 'inactive_upline' },
      { kind: 'referral', amount: 350_000, reason: 'inactive_upline' },
    ]);
    expect(await bonus(p.id, 'equilibrum-bonus')).toEqual({ bonus: 0 });
  });

  it('lets a member read only their own bonuses', async () => {
    const one = await h.registeredMember();
    const other = await h.registeredMember();
    expect((await h.call('GET', `/api/bonuses/${other.id}/total-bonus`, { token: one.token })).status).toBe(403);
    expect((await h.call('GET', `/api/wallet/${other.id}/bonuses`, { token: one.token })).status).toBe(403);
  });
});
