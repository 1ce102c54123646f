import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;

type Month = { month: string; registration_count: number; upgrade_count: number; repurchase_count: number; registration_amount: number; upgrade_amount: number; repurchase_amount: number };
type Stats = {
  registration_count: number; upgrade_count: number; repurchase_count: number;
  registration_amount: number; upgrade_amount: number; repurchase_amount: number;
  type: string; monthly: Month[];
};

async function stats(token: string, type?: string): Promise<Stats> {
  const res = await h.call('GET', `/api/product-purchases/pickup-stats${type ? `?type=${type}` : ''}`, { token });
  expect(res.status, res.body.message).toBe(200);
  expect(res.body).toMatchObject({ success: true, message: 'Pickup stats' });
  return res.body.data as Stats;
}

const figures = (s: Stats) => ({
  registration_count: s.registration_count, upgrade_count: s.upgrade_count, repurchase_count: s.repurchase_count,
  registration_amount: s.registration_amount, upgrade_amount: s.upgrade_amount, repurchase_amount: s.repurchase_amount,
});

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
});
afterAll(async () => t.close());

describe('GET /product-purchases/pickup-stats (seed 001 §2.7, §3.8)', () => {
  it('counts approved registrations, approved upgrades and paid repurchases at what was paid; pending and declined ones do not count', async () => {
    const before = await stats(admin);
    const packages = (await h.call('GET', '/api/packages/all', { token: admin })).body.data as Array<{ id: number; registration_value: number }>;
    const price = (id: number) => packages.find((p) => p.id === id)!.registration_value;

    // Two registrations approved (Bronze, Silver), one upgrade Bronze → Gold approved.
    const a = await h.activeMember({ package_id: 2 });
    await h.activeMember({ package_id: 3 });
    await h.payByReceipt(a, { upgradeTo: 4 });
    // A registration receipt still pending, and one declined: neither counts.
    const pending = await h.registeredMember({ package_id: 2 });
    const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
    expect((await h.upload('POST', '/api/payments/initiate', { token: pending.token, fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop' }, files: receipt })).status).toBe(200);
    const declined = await h.registeredMember({ package_id: 5 });
    const upload = await h.upload('POST', '/api/payments/initiate', { token: declined.token, fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 5, payment_type: 'pop' }, files: receipt });
    expect((await h.call('PATCH', `/api/payments/package-payments/${upload.body.data.payment_id}/disapprove`, { token: admin, body: { reason: 'Receipt unreadable' } })).status).toBe(200);

    // A repurchase paid from the wallet: 2 × the first active product.
    const [product] = (await h.call('GET', '/api/products/active', { token: a.token })).body.data as Array<{ id: number; worth: number; points: number }>;
    await creditWallet(t.runtime.db, a.id, 100_000_000, t.clock.now);
    const price2 = 2 * product!.worth;
    const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', {
      token: a.token,
      body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: price2, products: [{ id: product!.id, qty: 2 }], total_price: price2, total_points: 2 * product!.points, total_quantity: 2 },
    });
    expect(paid.status, paid.body.message).toBe(200);

    const after = await stats(admin);
    expect(figures(after)).toEqual({
      registration_count: before.registration_count + 2,
      upgrade_count: before.upgrade_count + 1,
      repurchase_count: before.repurchase_count + 1,
      registration_amount: before.registration_amount + price(2) + price(3),
      upgrade_amount: before.upgrade_amount + price(4) - price(2),
      repurchase_amount: before.repurchase_amount + price2,
    });
    expect(after.type).toBe('all');

    // The chart's months: twelve, oldest first, the current month holding this test's sales.
    expect(after.monthly).toHaveLength(12);
    const thisMonth = after.monthly.at(-1)!;
    const thisMonthBefore = before.monthly.at(-1)!;
    expect(thisMonth.month).toBe(new Date(t.clock.now.getTime() + 3_600_000).toISOString().slice(0, 7));
    expect(thisMonth.registration_count - thisMonthBefore.registration_count).toBe(2);
    expect(thisMonth.upgrade_amount - thisMonthBefore.upgrade_amount).toBe(price(4) - price(2));
    expect(thisMonth.repurchase_amount - thisMonthBefore.repurchase_amount).toBe(price2);

    // Today holds everything this test paid; two days later today holds nothing, all time is unchanged.
    const today = await stats(admin, 'today');
    expect(today.registration_count).toBeGreaterThanOrEqual(2);
    expect(today.repurchase_amount).toBeGreaterThanOrEqual(price2);
    t.clock.advanceMinutes(2 * 24 * 60);
    const later = await h.adminToken();
    expect(figures(await stats(later, 'today'))).toEqual({ registration_count: 0, upgrade_count: 0, repurchase_count: 0, registration_amount: 0, upgrade_amount: 0, repurchase_amount: 0 });
    expect(figures(await stats(later, 'all'))).toEqual(figures(after));
    admin = later;
  });

  it('is for staff: finance reads it, a member gets 403, no session 401, an unknown period 422', async () => {
    const finance = await h.adminToken('finance');
    expect((await h.call('GET', '/api/product-purchases/pickup-stats?type=year', { token: finance })).status).toBe(200);
    const member = await h.registeredMember();
    expect((await h.call('GET', '/api/product-purchases/pickup-stats', { token: member.token })).status).toBe(403);
    expect((await h.call('GET', '/api/product-purchases/pickup-stats')).status).toBe(401);
    const bad = await h.call('GET', '/api/product-purchases/pickup-stats?type=week', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('The type must be one of all, today, month or year.');
  });
});
