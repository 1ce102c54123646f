import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';
import { compensationPolicy, walletLedgerProjection } from '../compensation/projections';
import { drainAll } from '../../test/consumers';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['activeMember']>>;
let a: Member;
let b: Member;
let x: Member;
let rootId: string;
const productId = new Map<string, number>();

const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
const MORINGA = 'Moringa Leaf Capsules'; // ₦8,500, 2 PV
const BLACK_SEED = 'Black Seed Oil 100 ml'; // ₦12,000, 3 PV
const PROSTATE = 'Prostate Care Herbal Blend'; // ₦18,000, 4 PV
const SOURSOP = 'Soursop Leaf Tea'; // ₦7,000, 2 PV

/** A repurchase cart as the member app sends it: the lines, and the totals it showed. */
function cart(lines: Array<[string, number]>, totals: { total_price: number; total_points: number; total_quantity: number }) {
  return {
    txn_source: 'member_product_purchase',
    pickup_type: 'repurchase_pickup',
    description: 'Repurchase',
    amount: totals.total_price,
    products: lines.map(([name, qty]) => ({ id: productId.get(name), qty })),
    ...totals,
  };
}

async function settle() {
  expect((await drainAll(t.runtime.db, compensationPolicy)).status).toBe('caught_up');
  expect((await drainAll(t.runtime.db, walletLedgerProjection)).status).toBe('caught_up');
}

/** Σ credited bonuses of one kind, in kobo, from the wallet ledger. */
async function credited(memberId: string, kind: string): Promise<number> {
  const row = await t.runtime.db
    .selectFrom('wallet_entries')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .where('member_id', '=', memberId)
    .where('kind', '=', kind)
    .where('entry', '=', 'credited')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

async function eventsOf(type: string, streamId: string) {
  return t.runtime.db.selectFrom('events').select(['event_id', 'data', 'metadata']).where('type', '=', type).where('stream_id', '=', streamId).orderBy('global_position').execute() as Promise<
    Array<{ event_id: string; data: any; metadata: any }>
  >;
}

async function purchaseCount(memberId: string): Promise<number> {
  const row = await t.runtime.db.selectFrom('product_purchases').select((eb) => eb.fn.countAll<string>().as('n')).where('member_id', '=', memberId).executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  rootId = (await h.rootToken()).id;
  // The network: root ─ A (Bronze) ─ B (Silver) ─ X (Bronze); each sponsor is also the placement parent.
  a = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  b = await h.activeMember({ referrer: a.username, package_id: 3 }, { asParent: true });
  x = await h.activeMember({ referrer: b.username, package_id: 2 }, { asParent: true });
  // Unilevel is priced by the beneficiary's package: Silver pays 7% at generation 1 (Bronze 5%).
  const silver = { generation_1_percentage: 7, generation_2_percentage: 3, generation_3_percentage: 2, generation_4_percentage: 1, generation_5_percentage: 1, generation_6_percentage: 1, generation_7_percentage: 0, generation_8_percentage: 0, generation_9_percentage: 0, generation_10_percentage: 0 };
  expect((await h.call('PUT', '/api/settings/unilevel-bonus/3/update', { token: admin, body: silver })).status).toBe(200);
  const products = await h.call('GET', '/api/products/active', { token: x.token });
  for (const product of products.body.data as Array<{ id: number; name: string }>) productId.set(product.name, product.id);
  await settle();
});
afterAll(async () => t.close());

describe('a repurchase paid by card, by receipt and from the wallet pays repurchase, unilevel and loyalty bonuses once (BUSINESS-RULES.md §3, §5)', () => {
  it('by card: 2 × Moringa ₦8,500 + Black Seed Oil ₦12,000 = ₦29,000 (7 PV), applied once when webhooks and verifications race', async () => {
    const started = await h.call('POST', '/api/payments/initiate', { token: x.token, body: { ...cart([[MORINGA, 2], [BLACK_SEED, 1]], { total_price: 29_000, total_points: 7, total_quantity: 3 }), payment_type: 'payment_gateway' } });
    expect(started.status, started.body.message).toBe(200);
    expect(started.body.data).toMatchObject({ amount: 29_000, authorization_url: expect.stringContaining('/checkout/'), purchase_id: expect.any(String) });
    const { purchase_id: purchaseId, reference, access_code: accessCode } = started.body.data;
    expect(t.paystack.transactions().find((tx) => tx.reference === reference)?.amountKobo).toBe(2_900_000);
    // The payment's row names the purchase it pays for.
    const paymentRow = await t.runtime.db.selectFrom('package_payments').select(['purpose', 'purchase_id']).where('id', '=', started.body.data.payment_id).executeTakeFirstOrThrow();
    expect(paymentRow).toEqual({ purpose: 'product_purchase', purchase_id: purchaseId });

    // The provider's webhook is held, then delivered five times while the member verifies five times.
    const held: Array<{ rawBody: string; signature: string }> = [];
    t.paystack.setWebhookTarget(async (rawBody, signature) => void held.push({ rawBody, signature }));
    await t.paystack.completeCheckout(accessCode, 'success');
    expect(held).toHaveLength(1);
    const deliver = () => t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload: held[0]!.rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': held[0]!.signature } });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, async () => (await deliver()).statusCode),
      ...Array.from({ length: 5 }, async () => (await h.call('POST', '/api/payments/verify', { token: x.token, body: { reference } })).status),
    ]);
    expect(results).toEqual(Array(10).fill(200));
    t.paystack.setWebhookTarget(async (rawBody, signature) => {
      await t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload: rawBody, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature } });
    });
    const verified = await h.call('POST', '/api/payments/verify', { token: x.token, body: { reference } });
    expect(verified.body).toMatchObject({ success: true, message: 'Payment Verified successfully', data: { status: 'approved' } });

    // The PV event, once, caused by the payment's success.
    const [succeeded, ...moreSucceeded] = await eventsOf('PackagePaymentSucceeded', `package-payment-${started.body.data.payment_id}`);
    const [paid, ...morePaid] = await eventsOf('ProductPurchasePaid', `purchase-${purchaseId}`);
    expect(moreSucceeded).toHaveLength(0);
    expect(morePaid).toHaveLength(0);
    expect(paid?.data).toEqual({
      purchase_id: purchaseId,
      member_id: x.id,
      pickup_type: 'repurchase_pickup',
      total_price_kobo: 2_900_000,
      total_points: 7,
      lines: [
        { product_id: productId.get(MORINGA), name: MORINGA, qty: 2, price_kobo: 850_000, points: 2 },
        { product_id: productId.get(BLACK_SEED), name: BLACK_SEED, qty: 1, price_kobo: 1_200_000, points: 3 },
      ],
      payment_method: 'payment_gateway',
    });
    expect(paid?.metadata.causation_id).toBe(succeeded?.event_id);

    await settle();
    await settle();
    // V = ₦29,000. Repurchase: B (X's sponsor) 10% = ₦2,900.
    expect(await credited(b.id, 'repurchase')).toBe(290_000);
    expect(await credited(a.id, 'repurchase')).toBe(0);
    // Unilevel by each beneficiary's package: B Silver gen 1 7% = ₦2,030; A Bronze gen 2 3% = ₦870; root gen 3 2% = ₦580.
    expect(await credited(b.id, 'unilevel')).toBe(203_000);
    expect(await credited(a.id, 'unilevel')).toBe(87_000);
    expect(await credited(rootId, 'unilevel')).toBe(58_000);
    // X's placement parent B has one placement child (X): no loyalty.
    expect(await credited(x.id, 'loyalty')).toBe(0);

    // The wallet says why.
    const aWallet = await h.call('GET', `/api/wallet/${a.id}/bonuses`, { token: a.token });
    expect(aWallet.body.data.data.find((row: { kind: string }) => row.kind === 'unilevel')).toMatchObject({
      amount: 870,
      generation: 2,
      cause_username: x.username,
      explanation: `Unilevel bonus for ${x.username}'s repurchase of ₦29,000, generation 2: 3% of ₦29,000.`,
    });
    const bWallet = await h.call('GET', `/api/wallet/${b.id}/bonuses`, { token: b.token });
    expect(bWallet.body.data.data.find((row: { kind: string }) => row.kind === 'repurchase')?.explanation).toBe(`Repurchase bonus for ${x.username}'s repurchase of ₦29,000: 10% of ₦29,000.`);
  });

  it('by receipt: pending until an admin approves; ₦12,000 pays B ₦1,200 + ₦840, A ₦360, root ₦240, and X loyalty 5% = ₦600 now that B has two placement children', async () => {
    // Y registers under B (not even paid): B now has two placement children.
    await h.registeredMember({ referrer: b.username });
    const fields = { ...cart([[BLACK_SEED, 1]], { total_price: 12_000, total_points: 3, total_quantity: 1 }), products: JSON.stringify([{ id: productId.get(BLACK_SEED), qty: 1 }]), payment_type: 'pop' };
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: x.token, fields, files: receipt });
    expect(uploaded).toMatchObject({ status: 200, body: { message: 'Payment reciept uploaded successfuly', data: { amount: 12_000, purchase_id: expect.any(String) } } });
    const { payment_id: paymentId, purchase_id: purchaseId } = uploaded.body.data;

    const pendingHistory = await h.call('GET', `/api/product-purchases/user/${x.id}/history`, { token: x.token });
    expect(pendingHistory.body.data.data.find((p: { id: string }) => p.id === purchaseId)).toMatchObject({ status: 'pending', payment_type: 'pop', total_price: 12_000, total_quantity: 1, total_points: 3, pickup_type: 'repurchase_pickup' });
    const approvals = await h.call('GET', '/api/payments/pending-package-payment-approvals', { token: admin });
    expect(approvals.body.data.data.find((p: { id: string }) => p.id === paymentId)).toMatchObject({ purpose: 'product_purchase', name: 'Product repurchase', amount: 12_000, status: 'pending', username: x.username });
    expect(await eventsOf('ProductPurchasePaid', `purchase-${purchaseId}`)).toHaveLength(0);

    expect((await h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: admin })).status).toBe(200);
    expect((await h.call('PATCH', `/api/payments/package-payments/${paymentId}/approve`, { token: admin })).status).toBe(200);
    expect(await eventsOf('ProductPurchasePaid', `purchase-${purchaseId}`)).toHaveLength(1);
    await settle();

    expect(await credited(b.id, 'repurchase')).toBe(290_000 + 120_000);
    expect(await credited(b.id, 'unilevel')).toBe(203_000 + 84_000);
    expect(await credited(a.id, 'unilevel')).toBe(87_000 + 36_000);
    expect(await credited(rootId, 'unilevel')).toBe(58_000 + 24_000);
    expect(await credited(x.id, 'loyalty')).toBe(60_000);
    const loyalty = await h.call('GET', `/api/bonuses/${x.id}/loyalty-bonus`, { token: x.token });
    expect(loyalty.body.data).toEqual({ bonus: 600 });

    const history = await h.call('GET', `/api/product-purchases/user/${x.id}/history`, { token: x.token });
    expect(history.body.data.data.find((p: { id: string }) => p.id === purchaseId)).toMatchObject({ status: 'processing', products: [{ name: BLACK_SEED, product_qty: 1, price: 12_000, points: 3 }] });
  });

  it('from the wallet: Moringa ₦8,500 is debited with the purchase paid in one transaction; an overdraft changes nothing', async () => {
    await creditWallet(t.runtime.db, x.id, 2_000_000, t.clock.now);
    const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: x.token, body: cart([[MORINGA, 1]], { total_price: 8_500, total_points: 2, total_quantity: 1 }) });
    expect(paid).toMatchObject({ status: 200, body: { message: 'Payment successful', data: { amount: 8_500, purchase_id: expect.any(String) } } });
    const purchaseId = paid.body.data.purchase_id as string;
    const [debit] = await eventsOf('WalletPaymentMade', `wallet-${x.id}`);
    expect(debit?.data).toMatchObject({ payment_id: paid.body.data.payment_id, amount_kobo: 850_000, purpose: 'product_purchase' });
    const [purchasePaid] = await eventsOf('ProductPurchasePaid', `purchase-${purchaseId}`);
    expect(purchasePaid?.data).toMatchObject({ payment_method: 'wallet', total_price_kobo: 850_000, total_points: 2 });
    await settle();
    // V = ₦8,500: B 10% = ₦850 and 7% = ₦595; A 3% = ₦255; root 2% = ₦170; X loyalty 5% = ₦425.
    expect(await credited(b.id, 'repurchase')).toBe(290_000 + 120_000 + 85_000);
    expect(await credited(b.id, 'unilevel')).toBe(203_000 + 84_000 + 59_500);
    expect(await credited(a.id, 'unilevel')).toBe(87_000 + 36_000 + 25_500);
    expect(await credited(rootId, 'unilevel')).toBe(58_000 + 24_000 + 17_000);
    expect(await credited(x.id, 'loyalty')).toBe(60_000 + 42_500);
    const balance = await h.call('GET', `/api/bonuses/${x.id}/wallet-balance`, { token: x.token });
    // Welcome ₦700 + loyalty ₦1,025 + ₦20,000 credited − ₦8,500 spent = ₦13,225.
    expect(balance.body.data).toMatchObject({ balance: 13_225, total_spent: 8_500 });

    // 2 × Prostate Care = ₦36,000 > ₦13,225: refused, nothing recorded.
    const before = await purchaseCount(x.id);
    const short = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: x.token, body: cart([[PROSTATE, 2]], { total_price: 36_000, total_points: 8, total_quantity: 2 }) });
    expect(short).toMatchObject({ status: 422, body: { message: 'Insufficient wallet balance.' } });
    expect(await purchaseCount(x.id)).toBe(before);
    expect(await eventsOf('WalletPaymentMade', `wallet-${x.id}`)).toHaveLength(1);
  });

  it('keeps a declined receipt\'s purchase unpaid, and lists the member\'s purchases newest first to them and admins only', async () => {
    const fields = { ...cart([[MORINGA, 1]], { total_price: 8_500, total_points: 2, total_quantity: 1 }), products: JSON.stringify([{ id: productId.get(MORINGA), qty: 1 }]), payment_type: 'pop' };
    const uploaded = await h.upload('POST', '/api/payments/initiate', { token: x.token, fields, files: receipt });
    expect(uploaded.status).toBe(200);
    const declined = await h.call('PATCH', `/api/payments/package-payments/${uploaded.body.data.payment_id}/disapprove`, { token: admin, body: { reason: 'The receipt is for another order' } });
    expect(declined.status).toBe(200);
    expect(await eventsOf('ProductPurchasePaid', `purchase-${uploaded.body.data.purchase_id}`)).toHaveLength(0);

    const history = await h.call('GET', `/api/product-purchases/user/${x.id}/history?page=1`, { token: x.token });
    expect(history.body.data).toMatchObject({ current_page: 1, last_page: 1, per_page: 10, total: 4 });
    expect(history.body.data.data[0]).toMatchObject({ id: uploaded.body.data.purchase_id, status: 'declined', status_reason: 'The receipt is for another order', store_name: null });
    expect(history.body.data.data.map((p: { status: string }) => p.status)).toEqual(['declined', 'processing', 'processing', 'processing']);
    expect((await h.call('GET', `/api/product-purchases/user/${x.id}/history`, { token: admin })).status).toBe(200);
    expect((await h.call('GET', `/api/product-purchases/user/${x.id}/history`, { token: a.token })).status).toBe(403);
    // A member's package payments stay package payments.
    const packages = await h.call('GET', `/api/users/${x.id}/package-payments`, { token: x.token });
    expect(packages.body.data.data.map((p: { purpose: string }) => p.purpose)).toEqual(['registration']);
  });
});

describe('bad repurchase input answers 422 with a readable message and records nothing', () => {
  it('refuses empty carts, quantities below 1, a missing or unpaid order type, wrong totals, disabled products, unknown sources and inactive members', async () => {
    const before = await purchaseCount(x.id);
    const good = cart([[MORINGA, 2], [BLACK_SEED, 1]], { total_price: 29_000, total_points: 7, total_quantity: 3 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, products: [] }, 'There are no selected products'],
      [{ ...good, products: undefined }, 'There are no selected products'],
      [{ ...good, products: [{ id: productId.get(MORINGA), qty: 0 }] }, 'One of your selection has quantity less than 1'],
      [{ ...good, pickup_type: undefined }, 'Order type not selected'],
      [{ ...good, pickup_type: 'registration_pickup' }, 'Only a repurchase pick-up is paid for: registration and upgrade pick-ups come out of your package\'s pick-up allowance.'],
      [{ ...good, pickup_type: 'free_lunch' }, 'The order type must be registration_pickup, upgrade_pickup or repurchase_pickup.'],
      [{ ...good, total_price: 20_000, amount: 20_000 }, 'The total price does not match the prices of the selected products (₦29,000). Reload the products and try again.'],
      [{ ...good, total_points: 5 }, 'The total points do not match the selected products (7 PV). Reload the products and try again.'],
      [{ ...good, amount: 30_000 }, 'The amount does not match the amount due (₦29,000).'],
      [{ ...good, products: [{ id: 99_999, qty: 1 }] }, 'One of the selected products does not exist.'],
      [{ ...good, products: 'not json' }, 'The selected products could not be read.'],
      [{ ...good, txn_source: 'stock_market' }, 'txn_source must be package_payment, member_product_purchase or stockist_product_purchase.'],
    ];
    for (const [body, message] of cases) {
      const answer = await h.call('POST', '/api/payments/initiate', { token: x.token, body: { ...body, payment_type: 'payment_gateway' } });
      expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 422, message });
    }

    const toggled = await h.call('PUT', `/api/products/${productId.get(SOURSOP)}/toggle-status`, { token: admin, body: { is_active: false } });
    expect(toggled.status).toBe(200);
    const disabled = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: x.token, body: cart([[SOURSOP, 1]], { total_price: 7_000, total_points: 2, total_quantity: 1 }) });
    expect(disabled).toMatchObject({ status: 422, body: { message: 'Soursop Leaf Tea is not available at the moment; remove it from your cart.' } });

    const unpaid = await h.registeredMember();
    const inactive = await h.call('POST', '/api/payments/initiate', { token: unpaid.token, body: { ...good, payment_type: 'payment_gateway' } });
    expect(inactive).toMatchObject({ status: 422, body: { message: 'Only an active member can buy products; your registration must be paid first.' } });
    const noReceipt = await h.upload('POST', '/api/payments/initiate', { token: x.token, fields: { ...good, products: JSON.stringify(good.products), payment_type: 'pop' } });
    expect(noReceipt.status).toBe(422);

    expect(await purchaseCount(x.id)).toBe(before);
    expect(await purchaseCount(unpaid.id)).toBe(0);
  });
});
