import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earningKinds } from '../contracts/earnings';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { creditWallet } from '../../test/wallet';

/**
 * One set of figures (issue 11): the dashboard's "Total Wallet Earned", the wallet's "Total bonus"
 * and the back office's per-member and company totals agree, whatever kinds a member earned
 * (contracts/earnings.ts). The walk that found it: ₦33,350 on the dashboard against ₦34,750 in
 * the wallet, the dashboard leaving out welcome, equilibrium, loyalty and profit-pool bonuses.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

describe('total earned', () => {
  it('is the same number on the dashboard, the wallet and the back office, counting every kind', async () => {
    const member = await h.activeMember();
    const admin = await h.adminToken();
    await settleConsumers(t.runtime.db);
    const before = (await h.call('GET', `/api/bonuses/${member.id}/bonus-stats`, { token: member.token })).body.data.total_wallet_earned as number;
    const companyBefore = (await h.call('GET', '/api/bonuses/bonus-stats?type=all', { token: admin })).body.data.total_bonus_sum as number;

    // One credit of each kind: ₦100, ₦101, ... so a kind left out changes the sum.
    let expected = 0;
    for (const [index, kind] of earningKinds.entries()) {
      const naira = 100 + index;
      expected += naira;
      await creditWallet(t.runtime.db, member.id, naira * 100, new Date(), kind);
    }
    await settleConsumers(t.runtime.db);

    const dashboard = await h.call('GET', `/api/bonuses/${member.id}/bonus-stats`, { token: member.token });
    const wallet = await h.call('GET', `/api/bonuses/${member.id}/wallet-balance`, { token: member.token });
    const backOffice = await h.call('GET', `/api/bonuses/${member.id}/bonus-stats`, { token: admin });
    const company = await h.call('GET', '/api/bonuses/bonus-stats?type=all', { token: admin });

    expect(dashboard.body.data.total_wallet_earned).toBe(before + expected);
    expect(wallet.body.data.total_bonus).toBe(dashboard.body.data.total_wallet_earned);
    expect(backOffice.body.data.total_wallet_earned).toBe(dashboard.body.data.total_wallet_earned);
    expect(company.body.data.total_bonus_sum - companyBefore).toBe(expected);
    // The per-kind cards add up to the total.
    const d = dashboard.body.data;
    const cards = d.referral_bonus + d.placement_bonus + d.welcome_bonus + d.equilibrium_bonus + d.upgrade_bonus + d.repurchase_bonus + d.unilevel_bonus + d.loyalty_bonus + d.matching_bonus + d.stockist_ref_bonus + d.stockist_upline_bonus + d.stockist_rebate + d.award_bonus + d.global_profit + d.profit_pool;
    expect(Math.round(cards * 100)).toBe(Math.round(d.total_wallet_earned * 100));
  });
});
