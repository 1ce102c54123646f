import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';

/**
 * A stockist's re-stock paid by card (BUSINESS-RULES.md §5, seed 001 §7.1 txn_source
 * stockist_product_purchase) through the real app and the Paystack stand-in: the purchase waits for
 * its payment, goes to the admins once the provider confirms it (verify and webhook racing, replayed),
 * and an admin still approves it before the stock is added. The allowance is checked again when the
 * money arrives; company finance counts the money once.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['activeMember']>>;
let k: Member; // the stockist
let stranger: Member; // an active member who is no stockist
let token: string; // k's session in the next month
let second: { purchase_id: string; payment_id: string; access_code: string; reference: string };
const productId = new Map<string, number>();
const BLACK_SEED = 'Black Seed Oil 100 ml'; // ₦12,000
const MORINGA = 'Moringa Leaf Capsules'; // ₦8,500
const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
const line = (name: string, qty: number) => ({ id: productId.get(name), qty });

const restockByCard = (lines: Array<{ id: number | undefined; qty: number }>, extra: Record<string, unknown> = {}, as = token) =>
  h.call('POST', '/api/payments/initiate', { token: as, body: { txn_source: 'stockist_product_purchase', payment_type: 'payment_gateway', description: 'Re-stock', products: lines, ...extra } });

const companyWallet = async () => (await h.call('GET', '/api/bonuses/total-company-wallet', { token: admin })).body.data.total_company_wallet as number;
const eventsOf = (type: string, stream: string) =>
  t.runtime.db.selectFrom('events').select(['event_id', 'data', 'metadata']).where('type', '=', type).where('stream_id', '=', stream).execute();
const webhook = (held: { rawBody: string; signature: string }) =>
  t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload: held.rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': held.signature } });

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  const signee = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  k = await h.activeMember({ referrer: signee.username, package_id: 2 }, { asParent: true });
  const m = await h.activeMember({ referrer: k.username, package_id: 2 });
  stranger = await h.activeMember({ referrer: 'herbalhq', package_id: 1 });
  for (const p of (await h.call('GET', '/api/products/active', { token: m.token })).body.data as Array<{ id: number; name: string }>) productId.set(p.name, p.id);
  // k becomes a stockist with 3 Black Seed Oil, and hands over m's ₦29,000 order this month.
  const applied = await h.upload('POST', '/api/stockists/create', { token: k.token, fields: { store_name: 'Ikeja Herbs', store_address: '12 Allen Avenue', store_state: 'Lagos', store_phone: '08031234567', package_id: 1, referrer: signee.username }, files: receipt });
  expect((await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: admin })).status).toBe(200);
  const stock = await h.upload('POST', `/api/product-purchases/stockist/${k.id}`, { token: k.token, fields: { pickup_type: 'registration_pickup', products: JSON.stringify([line(BLACK_SEED, 1), line(MORINGA, 2)]) } });
  expect((await h.call('PATCH', `/api/product-purchases/${stock.body.data.id}/approve-stock`, { token: admin })).status).toBe(200);
  await creditWallet(t.runtime.db, m.id, 5_000_000);
  await settleConsumers(t.runtime.db);
  await h.call('POST', `/api/product-purchases/user/${m.id}`, { token: m.token, body: { pickup_type: 'registration_pickup', products: [line('Soursop Leaf Tea', 1)] } });
  const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: m.token, body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: 29_000, products: [line(MORINGA, 2), line(BLACK_SEED, 1)] } });
  expect(paid.status, paid.body.message).toBe(200);
  const code = (await h.call('POST', '/api/product-purchases/order-code', { token: m.token, body: { password: m.password, order_id: paid.body.data.purchase_id } })).body.data.order_code;
  const looked = await h.call('GET', `/api/product-purchases/fetch-order/${code}`, { token: k.token });
  expect((await h.call('PATCH', `/api/product-purchases/${looked.body.data.purchase_id}/vendor-approve`, { token: k.token })).status).toBe(200);
  await settleConsumers(t.runtime.db);
  // Next month: last month's sales (₦29,000) are what k may re-stock.
  const now = t.clock.now;
  t.clock.now = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2, 12));
  admin = await h.adminToken();
  token = (await h.call('POST', '/api/auth/login', { body: { username: k.username, password: k.password } })).body.data.access_token;
  t.paystack.setWebhookTarget(async (rawBody, signature) => void (await webhook({ rawBody, signature })));
}, 120_000);
afterAll(async () => t.close());

describe('re-stock by card', () => {
  it('refuses a receipt or the wallet on this path, a member who is no stockist, an amount that is not the total, a cart above last month\'s sales', async () => {
    const pop = await restockByCard([line(BLACK_SEED, 1)], { payment_type: 'pop' });
    expect([pop.status, pop.body.message]).toEqual([422, 'A stock purchase is paid here by card only; upload a receipt with the stock purchase form instead.']);
    const wallet = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token, body: { txn_source: 'stockist_product_purchase', products: [line(BLACK_SEED, 1)] } });
    expect(wallet.status).toBe(422);
    const strangerToken = (await h.call('POST', '/api/auth/login', { body: { username: stranger.username, password: stranger.password } })).body.data.access_token;
    expect((await restockByCard([line(BLACK_SEED, 1)], {}, strangerToken)).status).toBe(403);
    const wrong = await restockByCard([line(BLACK_SEED, 1)], { amount: 11_000 });
    expect([wrong.status, wrong.body.message]).toEqual([422, 'The amount does not match the amount due (₦12,000).']);
    const over = await restockByCard([line(BLACK_SEED, 3)]);
    expect([over.status, over.body.message]).toEqual([422, 'There selected Items total price is greater than the pickup amount']);
    expect(await t.runtime.db.selectFrom('stock_purchases').select('id').where('pickup_type', '=', 're-stock').execute()).toEqual([]);
    expect(t.paystack.transactions()).toHaveLength(0);
  });

  it('2 × Black Seed Oil = ₦24,000: waits for its payment, goes to the admins once when webhooks and verifications race, and an admin approves it', async () => {
    const walletBefore = await companyWallet();
    const started = await restockByCard([line(BLACK_SEED, 2)], { amount: 24_000, total_price: 24_000, total_quantity: 2 });
    expect(started.status, started.body.message).toBe(200);
    expect(started.body.data).toMatchObject({ amount: 24_000, authorization_url: expect.stringContaining('/checkout/'), purchase_id: expect.any(String) });
    const { purchase_id: purchaseId, reference, access_code: accessCode, payment_id: paymentId } = started.body.data;
    // A second one, 1 × Black Seed Oil = ₦12,000, fits too while the first is unpaid (paid in the next test).
    const other = await restockByCard([line(BLACK_SEED, 1)]);
    expect(other.status, other.body.message).toBe(200);
    second = other.body.data;
    expect(t.paystack.transactions().find((tx) => tx.reference === reference)?.amountKobo).toBe(2_400_000);

    // Unpaid: not for the admins yet, and it holds none of the allowance.
    const mine = await h.call('GET', `/api/product-purchases/stockist/${k.id}/history`, { token });
    expect(mine.body.data.data.find((p: { id: string }) => p.id === purchaseId)).toMatchObject({ id: purchaseId, status: 'awaiting_payment', payment_method: 'payment_gateway', payment_receipt: null, pickup_type: 're-stock', total_price: 24_000 });
    expect((await h.call('GET', '/api/stockists/product-orders?status=processing', { token: admin })).body.data.data).toEqual([]);
    expect((await h.call('GET', '/api/stockists/product-orders?status=awaiting_payment', { token: admin })).body.data.total).toBe(2);
    const early = await h.call('PATCH', `/api/product-purchases/${purchaseId}/approve-stock`, { token: admin });
    expect([early.status, early.body.message]).toEqual([422, 'This stock purchase is not paid yet: its card payment has not been confirmed.']);
    expect((await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token })).body.data.available).toBe(29_000);

    // The provider's webhook is held, then delivered three times while the stockist verifies three times.
    const held: Array<{ rawBody: string; signature: string }> = [];
    t.paystack.setWebhookTarget(async (rawBody, signature) => void held.push({ rawBody, signature }));
    await t.paystack.completeCheckout(accessCode, 'success');
    const results = await Promise.all([
      ...Array.from({ length: 3 }, async () => (await webhook(held[0]!)).statusCode),
      ...Array.from({ length: 3 }, async () => (await h.call('POST', '/api/payments/verify', { token, body: { reference } })).status),
    ]);
    expect(results).toEqual(Array(6).fill(200));
    t.paystack.setWebhookTarget(async (rawBody, signature) => void (await webhook({ rawBody, signature })));
    expect((await h.call('POST', '/api/payments/verify', { token, body: { reference } })).body).toMatchObject({ success: true, message: 'Payment Verified successfully', data: { status: 'approved' } });
    const [succeeded, ...moreSucceeded] = await eventsOf('PackagePaymentSucceeded', `package-payment-${paymentId}`);
    const [paid, ...morePaid] = await eventsOf('StockPurchasePaid', `stock-purchase-${purchaseId}`);
    expect([moreSucceeded, morePaid]).toEqual([[], []]);
    expect(paid?.data).toMatchObject({ purchase_id: purchaseId, payment_id: paymentId });
    expect((paid?.metadata as { causation_id: string }).causation_id).toBe(succeeded?.event_id);

    // Paid: the admins see it, the allowance counts it, company finance counts the ₦24,000 once.
    const listed = await h.call('GET', '/api/stockists/product-orders?status=processing', { token: admin });
    expect(listed.body.data.data.map((p: { id: string; payment_method: string }) => [p.id, p.payment_method])).toEqual([[purchaseId, 'payment_gateway']]);
    expect((await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token })).body.data.available).toBe(5_000);
    expect(await companyWallet()).toBe(walletBefore + 24_000);
    expect(await t.runtime.db.selectFrom('stockist_stock').select('quantity').where('product_id', '=', productId.get(BLACK_SEED)!).executeTakeFirstOrThrow()).toEqual({ quantity: 0 });

    // The admin approves: 2 Black Seed Oil are added; the money is not counted again.
    expect((await h.call('PATCH', `/api/product-purchases/${purchaseId}/approve-stock`, { token: admin })).status).toBe(200);
    await settleConsumers(t.runtime.db);
    expect(await t.runtime.db.selectFrom('stockist_stock').select('quantity').where('product_id', '=', productId.get(BLACK_SEED)!).executeTakeFirstOrThrow()).toEqual({ quantity: 2 });
    expect(await companyWallet()).toBe(walletBefore + 24_000);
    const stockEvents = await t.runtime.db.selectFrom('events').select(sql<number>`count(*)::int`.as('n')).where('type', '=', 'StockAdded').where(sql`data->>'stock_purchase_id'`, '=', purchaseId).executeTakeFirstOrThrow();
    expect(stockEvents.n).toBe(1);
  });

  it('a second card re-stock opened before the first was paid, ₦12,000 > the ₦5,000 left when its money arrives, is not applied and flagged; declining the payment declines it', async () => {
    const { purchase_id: purchaseId, payment_id: paymentId, access_code: accessCode, reference } = second;
    await t.paystack.completeCheckout(accessCode, 'success');
    const verified = await h.call('POST', '/api/payments/verify', { token, body: { reference } });
    expect(verified.body).toMatchObject({ success: false, data: { status: 'not_applied' } });
    const payment = await t.runtime.db.selectFrom('package_payments').select(['status', 'status_reason']).where('id', '=', paymentId).executeTakeFirstOrThrow();
    expect(payment).toEqual({ status: 'not_applied', status_reason: "This re-stock is now above what last month's sales allow: it was not applied." });
    expect(await eventsOf('StockPurchasePaid', `stock-purchase-${purchaseId}`)).toEqual([]);
    expect((await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token })).body.data.available).toBe(5_000);
    // An admin declines the flagged payment (the money goes back outside the portal): the purchase is declined with it.
    const declined = await h.call('PATCH', `/api/payments/package-payments/${paymentId}/disapprove`, { token: admin, body: { reason: 'Refunded: over the re-stock allowance' } });
    expect(declined.status, declined.body.message).toBe(200);
    const row = await t.runtime.db.selectFrom('stock_purchases').select(['status', 'status_reason']).where('id', '=', purchaseId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'declined', status_reason: 'Refunded: over the re-stock allowance' });
  });
});
