import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { pngOfSize, tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';
import { ORDER_CODE_ALPHABET } from '../purchases/commands';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['activeMember']>>;
let signee: Member;
let k: Member; // the stockist, sponsored by the signee
let k2: Member; // a second stockist
let m: Member; // a member who orders
const productId = new Map<string, number>();
const MORINGA = 'Moringa Leaf Capsules'; // ₦8,500
const BLACK_SEED = 'Black Seed Oil 100 ml'; // ₦12,000
const SOURSOP = 'Soursop Leaf Tea'; // ₦7,000

const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
const store = (name: string) => ({ store_name: name, store_address: '12 Allen Avenue, Ikeja', store_state: 'Lagos', store_phone: '08031234567' });
const line = (name: string, qty: number) => ({ id: productId.get(name), qty });

async function credited(memberId: string, kind: string): Promise<number> {
  const row = await t.runtime.db.selectFrom('wallet_entries').select(sql<string>`coalesce(sum(amount), 0)`.as('total')).where('member_id', '=', memberId).where('kind', '=', kind).where('entry', '=', 'credited').executeTakeFirstOrThrow();
  return Number(row.total);
}

async function apply(member: Member, fields: Record<string, string | number>, files: Record<string, { bytes: Buffer; filename: string; type?: string }> = receipt) {
  return h.upload('POST', '/api/stockists/create', { token: member.token, fields, files });
}

/** Applies and has an admin approve: returns the stockist's id. */
async function approvedStockist(member: Member, signeeName: string, packageId = 1): Promise<string> {
  const applied = await apply(member, { ...store(`Store of ${member.username}`), package_id: packageId, referrer: signeeName });
  expect(applied.status, applied.body.message).toBe(200);
  const approved = await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: admin });
  expect(approved.status, approved.body.message).toBe(200);
  return applied.body.data.id;
}

async function stockPurchase(member: Member, pickupType: string, lines: Array<{ id: number | undefined; qty: number }>, extra: Record<string, string | number> = {}) {
  return h.upload('POST', `/api/product-purchases/stockist/${member.id}`, { token: member.token, fields: { pickup_type: pickupType, products: JSON.stringify(lines), ...extra }, files: receipt });
}

/** A member's repurchase paid from the wallet: returns the order id. */
async function walletRepurchase(member: Member, lines: Array<[string, number]>, totalNaira: number): Promise<string> {
  await creditWallet(t.runtime.db, member.id, totalNaira * 100);
  await settleConsumers(t.runtime.db);
  const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', {
    token: member.token,
    body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: totalNaira, products: lines.map(([name, qty]) => line(name, qty)) },
  });
  expect(paid.status, paid.body.message).toBe(200);
  return paid.body.data.purchase_id;
}

async function orderCode(member: Member, orderId: string): Promise<string> {
  const revealed = await h.call('POST', '/api/product-purchases/order-code', { token: member.token, body: { password: member.password, order_id: orderId } });
  expect(revealed.status, revealed.body.message).toBe(200);
  return revealed.body.data.order_code;
}

let kStockistId: string;
let k2StockistId: string;
let firstStockPurchase: string;
let raceUnits = 0;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  signee = await h.activeMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  k = await h.activeMember({ referrer: signee.username, package_id: 2 }, { asParent: true });
  k2 = await h.activeMember({ referrer: signee.username, package_id: 2 });
  m = await h.activeMember({ referrer: k.username, package_id: 2 });
  const products = await h.call('GET', '/api/products/active', { token: m.token });
  for (const product of products.body.data as Array<{ id: number; name: string }>) productId.set(product.name, product.id);
  await settleConsumers(t.runtime.db);
});
afterAll(async () => t.close());

describe('stockist applications (BUSINESS-RULES.md §5)', () => {
  it('refuses a missing or oversize receipt, an unknown state, an unknown or self signee, an unknown package, an inactive member', async () => {
    const fields = { ...store('Ikeja Herbs'), package_id: 1, referrer: signee.username };
    expect((await apply(k, fields, {})).body).toMatchObject({ message: 'Please choose an image to upload.' });
    const big = await apply(k, fields, { payment_receipt: { bytes: pngOfSize(600_000), filename: 'r.png', type: 'image/png' } });
    expect([big.status, big.body.message]).toEqual([422, 'Image size should not exceed 500kB']);
    expect((await apply(k, { ...fields, store_state: 'Atlantis' })).body.message).toBe('Choose a state from the list (the 36 states or FCT).');
    expect((await apply(k, { ...fields, referrer: 'nobody-here' })).body.message).toBe('No member has this username or e-mail; check the signee.');
    expect((await apply(k, { ...fields, referrer: k.email })).body.message).toBe('You cannot name yourself as your signee.');
    expect((await apply(k, { ...fields, package_id: 99 })).body.message).toBe('The selected stockist package is invalid.');
    expect((await apply(k, { ...fields, store_name: '' })).body.message).toBe('The store name is required.');
    const inactive = await h.registeredMember({ referrer: '' });
    const refused = await apply(inactive as Member, fields);
    expect([refused.status, refused.body.message]).toEqual([422, 'Only an active member can become a stockist; your registration must be paid first.']);
    expect(await t.runtime.db.selectFrom('stockists').select('id').execute()).toHaveLength(0);
  });

  it('answers at most ten applications an hour per member: naming signees by e-mail is no lookup service for addresses', async () => {
    const prober = await h.activeMember();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await apply(prober, { ...store('Probe Store'), package_id: 1, referrer: `probe${i}@example.test` })).status);
    expect(statuses).toEqual([...Array(10).fill(422), 429]);
  }, 120_000);

  it('records an application as pending (state lower-cased, signee by e-mail); a second one is refused; finance cannot approve', async () => {
    const applied = await apply(k, { ...store('Ikeja Herbs'), store_state: 'FCT', package_id: 1, referrer: signee.email.toUpperCase() });
    expect(applied.status, applied.body.message).toBe(200);
    expect(applied.body.data).toMatchObject({ store_name: 'Ikeja Herbs', store_state: 'fct - abuja', status: 'pending', referrer: signee.username, stockist_package: 'Mini Stockist', stockist_package_value: 100_000, payment_receipt: expect.stringMatching(/^storage\/receipts\//) });
    kStockistId = applied.body.data.id;
    expect((await apply(k, { ...store('Again'), package_id: 1, referrer: signee.username })).body.message).toBe('Your stockist application is awaiting approval.');
    expect((await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: finance })).status).toBe(403);
    expect((await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/approve-registration`, { token: k.token })).status).toBe(403);
    const list = await h.call('GET', '/api/stockists/all?type=pending', { token: admin });
    expect(list.body.data.data.map((s: { id: string }) => s.id)).toEqual([kStockistId]);
    const members = await h.call('GET', '/api/stockists/all', { token: m.token });
    expect(members.body.data.total).toBe(0);
    // A member reads only their own stockist account.
    expect((await h.call('GET', `/api/stockists/user/${k.id}/single`, { token: k.token })).body.data.status).toBe('pending');
    expect((await h.call('GET', `/api/stockists/user/${k.id}/single`, { token: m.token })).status).toBe(403);
    expect((await h.call('GET', `/api/stockists/${kStockistId}/single`, { token: m.token })).status).toBe(403);
    expect((await h.call('GET', `/api/stockists/${kStockistId}/single`, { token: finance })).body.data.store_name).toBe('Ikeja Herbs');
  });

  it('approval makes the member a stockist and pays the signee 5% of the ₦100,000 Mini Stockist package = ₦5,000, once, with its explanation', async () => {
    const stockistRow = await t.runtime.db.selectFrom('stockists').select('payment_id').where('id', '=', kStockistId).executeTakeFirstOrThrow();
    const [first, second] = await Promise.all([
      h.call('PATCH', `/api/stockists/${stockistRow.payment_id}/approve-registration`, { token: admin }),
      h.call('PATCH', `/api/stockists/${stockistRow.payment_id}/approve-registration`, { token: admin }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 422]);
    expect([first, second].find((r) => r.status === 422)!.body.message).toBe('This stockist application is no longer pending.');
    expect((await h.call('PATCH', `/api/stockists/${kStockistId}/disapprove-registration`, { token: admin })).body.message).toBe('This stockist application is no longer pending.');
    await settleConsumers(t.runtime.db);
    expect(await credited(signee.id, 'signee')).toBe(500_000);
    const me = await h.call('GET', '/api/auth/user', { token: k.token });
    expect(me.body.data.is_stockist).toBe(true);
    const bonuses = await h.call('GET', `/api/wallet/${signee.id}/bonuses`, { token: signee.token });
    const row = (bonuses.body.data.data as Array<{ kind: string; explanation: string; amount: number }>).find((b) => b.kind === 'signee');
    expect(row).toMatchObject({ amount: 5_000, explanation: `Signee bonus for ${k.username}'s stockist registration (package of ₦100,000): 5% of ₦100,000.` });
    const stats = await h.call('GET', `/api/bonuses/${signee.id}/bonus-stats`, { token: signee.token });
    expect(stats.body.data.stockist_ref_bonus).toBe(5_000);
  });

  it('a disapproved application lets the member apply again; the listing and search serve approved stockists only, paged', async () => {
    const applied = await apply(k2, { ...store('Kano Roots'), store_state: 'kano', package_id: 1, referrer: signee.username });
    const refused = await h.call('PATCH', `/api/stockists/${applied.body.data.payment_id}/disapprove-registration`, { token: admin, body: { reason: 'Receipt unreadable' } });
    expect([refused.status, refused.body.data.status]).toEqual([200, 'disapproved']);
    k2StockistId = await approvedStockist(k2, signee.username);
    expect((await h.call('GET', '/api/stockists/search?search=kano', { token: m.token })).body.data.data).toEqual([]);
    const byState = await h.call('GET', '/api/stockists/search?search=FCT', { token: m.token });
    expect(byState.body.data.data.map((s: { store_name: string }) => s.store_name)).toEqual(['Ikeja Herbs']);
    const all = await h.call('GET', '/api/stockists/all?page=1', { token: m.token });
    expect(all.body.data).toMatchObject({ total: 2, current_page: 1, last_page: 1 });
    expect(all.body.data.data[0]).not.toHaveProperty('payment_receipt');
    const page2 = await h.call('GET', '/api/stockists/search?page=2&search=', { token: m.token });
    expect(page2.body.data).toMatchObject({ data: [], current_page: 2 });
  });

  it("the back office's members list shows each member's stockist package, status and approval date, and its Stockists tab lists them", async () => {
    const pending = await h.activeMember({ referrer: signee.username, package_id: 1 });
    await apply(pending, { ...store('Owerri Leaves'), store_state: 'imo', package_id: 1, referrer: signee.username });
    const read = async (filter: Record<string, unknown>) => {
      const response = await h.call('GET', `/api/admin/members?filter=${encodeURIComponent(JSON.stringify(filter))}&range=[0,24]`, { token: finance });
      expect(response.status).toBe(200);
      return response.body as unknown as Array<{ id: string; is_stockist: boolean; stockist_package_name: string | null; stockist_status: string | null; stockist_created_at: string | null }>;
    };
    const rows = await read({ id: [k.id, k2.id, pending.id, m.id] });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const approvedAt = await t.runtime.db.selectFrom('stockists').select('approved_at').where('id', '=', k2StockistId).executeTakeFirstOrThrow();
    // k2 was disapproved once, then approved: the approved record is the one shown.
    expect(byId.get(k2.id)).toMatchObject({ is_stockist: true, stockist_package_name: 'Mini Stockist', stockist_status: 'approved', stockist_created_at: approvedAt.approved_at!.toISOString() });
    expect(byId.get(pending.id)).toMatchObject({ is_stockist: false, stockist_package_name: 'Mini Stockist', stockist_status: 'pending' });
    expect(byId.get(m.id)).toMatchObject({ is_stockist: false, stockist_package_name: null, stockist_status: null, stockist_created_at: null });
    expect((await read({ is_stockist: true })).map((r) => r.id).sort()).toEqual([k.id, k2.id].sort());
    expect((await read({ stockist_status: 'pending' })).map((r) => r.id)).toEqual([pending.id]);
    // The catalogue's own member reads (GET /users?type=stockist, /users/{id}/user) show the same record.
    const approved = { is_stockist: true, stockist_package_name: 'Mini Stockist', stockist_status: 'approved', stockist_created_at: approvedAt.approved_at!.toISOString() };
    const stockistList = await h.call('GET', '/api/users?type=stockist', { token: finance });
    expect(stockistList.body.data.data.find((r: { uuid: string }) => r.uuid === k2.id)).toMatchObject(approved);
    expect((await h.call('GET', `/api/users/${k2.id}/user`, { token: finance })).body.data).toMatchObject(approved);
    expect((await h.call('GET', `/api/users/${pending.id}/user`, { token: finance })).body.data).toMatchObject({ is_stockist: false, stockist_package_name: 'Mini Stockist', stockist_status: 'pending' });
    expect((await h.call('GET', `/api/users/${m.id}/user`, { token: finance })).body.data).toMatchObject({ is_stockist: false, stockist_package_name: null, stockist_status: null, stockist_created_at: null });
  });

  it('updates its own store profile only, with a state from the list', async () => {
    const updated = await h.call('PUT', `/api/stockists/${kStockistId}/update`, { token: k.token, body: { ...store('Ikeja Herbs & Roots'), store_state: 'LAGOS' } });
    expect([updated.status, updated.body.message, updated.body.data.store_state, updated.body.data.store_name]).toEqual([200, 'data updated successfully', 'lagos', 'Ikeja Herbs & Roots']);
    expect((await h.call('PUT', `/api/stockists/${kStockistId}/update`, { token: k2.token, body: store('Mine now') })).status).toBe(403);
    expect((await h.call('PUT', `/api/stockists/${kStockistId}/update`, { token: k.token, body: { ...store('X'), store_state: 'Narnia' } })).status).toBe(422);
    expect((await h.call('PUT', `/api/stockists/not-a-uuid/update`, { token: k.token, body: store('X') })).body.message).toBe('Stockist not found.');
  });
});

describe('stock purchases', () => {
  it('registration pick-up: within the ₦80,000 pick-up amount, once; ₦66,500 of stock pays the sponsor 3% = ₦1,995 on approval; stock is added', async () => {
    const over = await stockPurchase(k, 'registration_pickup', [line(MORINGA, 10)]);
    expect([over.status, over.body.message]).toEqual([422, 'Total selected product price is higher than pickup amount']);
    expect((await stockPurchase(k, '', [line(MORINGA, 1)])).body.message).toBe('Order type not selected');
    expect((await stockPurchase(k, 'registration_pickup', [])).body.message).toBe('There are no selected products');
    expect((await stockPurchase(k, 'registration_pickup', [line(MORINGA, 0)])).body.message).toBe('One of your selection has quantity less than 1');
    expect((await stockPurchase(m, 'registration_pickup', [line(MORINGA, 1)])).status).toBe(403);
    expect((await h.upload('POST', `/api/product-purchases/stockist/${m.id}`, { token: k.token, fields: { pickup_type: 'registration_pickup', products: '[]' } })).status).toBe(403);
    const status = () => h.call('GET', `/api/product-purchases/stockist/${k.id}/pickup-status`, { token: k.token });
    expect((await status()).body.data).toEqual({ registration_pickup_used: false, upgrade_pickup_used: null });
    const bought = await stockPurchase(k, 'registration_pickup', [line(MORINGA, 5), line(BLACK_SEED, 2)], { total_price: 66_500, total_quantity: 7 });
    expect(bought.status, bought.body.message).toBe(200);
    // What the stock purchase page offers: the server's own word, the same one it refuses by.
    expect((await status()).body.data).toEqual({ registration_pickup_used: true, upgrade_pickup_used: null });
    expect((await h.call('GET', `/api/product-purchases/stockist/${k.id}/pickup-status`, { token: m.token })).status).toBe(403);
    expect((await h.call('GET', `/api/product-purchases/stockist/${kStockistId}/pickup-status`, { token: k2.token })).status).toBe(403);
    expect((await h.call('GET', `/api/product-purchases/stockist/${k.id}/pickup-status`)).status).toBe(401);
    expect((await h.call('GET', `/api/product-purchases/stockist/${m.id}/pickup-status`, { token: m.token })).status).toBe(404);
    expect(bought.body.data).toMatchObject({ status: 'processing', total_price: 66_500, total_quantity: 7, pickup_type: 'registration_pickup' });
    firstStockPurchase = bought.body.data.id;
    expect((await stockPurchase(k, 'registration_pickup', [line(SOURSOP, 1)])).body.message).toBe('You have already made your registration pick-up.');
    expect((await stockPurchase(k, 'upgrade_pickup', [line(SOURSOP, 1)])).body.message).toBe('You have no stockist upgrade pick-up to make.');
    expect((await stockPurchase(k, 're-stock', [line(SOURSOP, 1)])).body.message).toBe('You approved no orders last month: there is nothing to re-stock against.');
    expect((await h.call('PATCH', `/api/product-purchases/${firstStockPurchase}/approve-stock`, { token: finance })).status).toBe(403);
    const [first, second] = await Promise.all([
      h.call('PATCH', `/api/product-purchases/${firstStockPurchase}/approve-stock`, { token: admin }),
      h.call('PATCH', `/api/product-purchases/${firstStockPurchase}/approve-stock`, { token: admin }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 422]);
    expect((await h.call('PATCH', `/api/product-purchases/${firstStockPurchase}/disapprove-stock`, { token: admin })).body.message).toBe('This stock purchase has already been decided.');
    await settleConsumers(t.runtime.db);
    expect(await credited(signee.id, 'stockist_upline')).toBe(199_500);
    const stock = await h.call('GET', `/api/stockists/${k.id}/stock`, { token: k.token });
    expect(stock.body.data.map((s: { name: string; quantity: number; cost_price: number }) => [s.name, s.quantity, s.cost_price])).toEqual([[BLACK_SEED, 2, 12_000], [MORINGA, 5, 8_500]]);
    const events = await t.runtime.db.selectFrom('events').select(sql<number>`count(*)::int`.as('n')).where('type', '=', 'StockAdded').executeTakeFirstOrThrow();
    expect(events.n).toBe(1);
  });

  it('k2 buys stock too; a declined purchase gives its allowance back; admins list purchases and stats', async () => {
    const declined = await stockPurchase(k2, 'registration_pickup', [line(MORINGA, 1)]);
    expect((await h.call('PATCH', `/api/product-purchases/${declined.body.data.id}/disapprove-stock`, { token: admin, body: { reason: 'No payment' } })).body.data.status).toBe('declined');
    expect((await h.call('GET', `/api/product-purchases/stockist/${k2.id}/pickup-status`, { token: k2.token })).body.data.registration_pickup_used).toBe(false);
    const bought = await stockPurchase(k2, 'registration_pickup', [line(BLACK_SEED, 1), line(MORINGA, 1)]);
    expect(bought.status, bought.body.message).toBe(200);
    expect((await h.call('PATCH', `/api/product-purchases/${bought.body.data.id}/approve-stock`, { token: admin })).status).toBe(200);
    await settleConsumers(t.runtime.db);
    const orders = await h.call('GET', '/api/stockists/product-orders?page=1', { token: finance });
    expect(orders.body.data.total).toBe(3);
    expect(orders.body.data.data[0]).toMatchObject({ username: k2.username, store_name: `Store of ${k2.username}`, stockist_package: 'Mini Stockist', status: 'approved' });
    const processing = await h.call('GET', '/api/stockists/product-orders?type=declined', { token: admin });
    expect(processing.body.data.data.map((p: { status_reason: string }) => p.status_reason)).toEqual(['No payment']);
    const stats = await h.call('GET', '/api/stockists/stats', { token: finance });
    expect(stats.body.data).toEqual({ stockist_count: 2, stockist_purchases_sum: 66_500 + 20_500, stockist_sales_sum: 0 });
    expect((await h.call('GET', '/api/stockists/stats', { token: k.token })).status).toBe(403);
    const details = await h.call('GET', `/api/product-purchases/${firstStockPurchase}/order-details`, { token: admin });
    expect(details.body.data.products.map((p: { name: string; product_qty: number }) => [p.name, p.product_qty])).toEqual([[MORINGA, 5], [BLACK_SEED, 2]]);
  });
});

describe('members\' pick-up orders and collection', () => {
  let repurchaseId: string;
  let code: string;

  it('registration pick-up: within the ₦30,000 Bronze pick-up amount, once; upgrade pick-up needs an upgrade; a repurchase is paid for', async () => {
    const call = (body: unknown) => h.call('POST', `/api/product-purchases/user/${m.id}`, { token: m.token, body });
    const status = () => h.call('GET', `/api/product-purchases/user/${m.id}/pickup-status`, { token: m.token });
    expect((await status()).body.data).toEqual({ registration_pickup_used: false, upgrade_pickup_used: null });
    expect((await call({ pickup_type: 'registration_pickup', products: [line(MORINGA, 4)] })).body.message).toBe('Total selected product price is higher than pickup amount');
    expect((await call({ pickup_type: 'upgrade_pickup', products: [line(MORINGA, 1)] })).body.message).toBe('Your first order must be your registration pick-up.');
    expect((await call({ products: [line(MORINGA, 1)] })).body.message).toBe('Order type not selected');
    expect((await call({ pickup_type: 'repurchase_pickup', products: [line(MORINGA, 1)] })).body.message).toBe('A repurchase pick-up is paid for: pay by card, from your wallet or with a payment receipt.');
    expect((await h.call('POST', `/api/product-purchases/user/${m.id}`, { token: k.token, body: { pickup_type: 'registration_pickup', products: [line(MORINGA, 1)] } })).status).toBe(403);
    const [a, b] = await Promise.all([call({ pickup_type: 'registration_pickup', products: [line(MORINGA, 2)] }), call({ pickup_type: 'registration_pickup', products: [line(SOURSOP, 2)] })]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect((await call({ pickup_type: 'registration_pickup', products: [line(MORINGA, 1)] })).body.message).toBe('You have already made your registration pick-up.');
    expect((await call({ pickup_type: 'upgrade_pickup', products: [line(MORINGA, 1)] })).body.message).toBe('You have no upgrade pick-up to make: upgrade your package first.');
    expect((await status()).body.data).toEqual({ registration_pickup_used: true, upgrade_pickup_used: null });
    // A member reads only their own; staff read any member's.
    expect((await h.call('GET', `/api/product-purchases/user/${m.id}/pickup-status`, { token: k.token })).status).toBe(403);
    expect((await h.call('GET', `/api/product-purchases/user/${m.id}/pickup-status`)).status).toBe(401);
    expect((await h.call('GET', `/api/product-purchases/user/${m.id}/pickup-status`, { token: finance })).body.data.registration_pickup_used).toBe(true);
    const claims = await h.call('GET', `/api/product-claims/${m.id}/claims?processing=1`, { token: m.token });
    expect(claims.body.data.data.length).toBe(1);
    expect(claims.body.data.data[0]).toMatchObject({ status: 'processing', pickup_type: 'registration_pickup', product_qty: 2 });
  });

  it('reveals the order code only with the password: 8 characters without look-alikes', async () => {
    repurchaseId = await walletRepurchase(m, [[MORINGA, 1], [BLACK_SEED, 1]], 20_500);
    const wrong = await h.call('POST', '/api/product-purchases/order-code', { token: m.token, body: { password: 'not it', order_id: repurchaseId } });
    expect([wrong.status, wrong.body.message]).toEqual([422, 'The password is incorrect.']);
    expect((await h.call('POST', '/api/product-purchases/order-code', { token: k.token, body: { password: k.password, order_id: repurchaseId } })).status).toBe(404);
    expect((await h.call('POST', '/api/product-purchases/order-code', { token: m.token, body: { password: m.password, order_id: 'nope' } })).status).toBe(422);
    code = await orderCode(m, repurchaseId);
    expect(code).toMatch(new RegExp(`^[${ORDER_CODE_ALPHABET}]{8}$`));
    const history = await h.call('GET', `/api/product-purchases/user/${m.id}/history`, { token: m.token });
    expect(JSON.stringify(history.body)).not.toContain(code);
  });

  it('a stockist looks the order up by code and approves it once; the rebate is 5% of ₦20,500 = ₦1,025; stock comes off', async () => {
    expect((await h.call('GET', `/api/product-purchases/fetch-order/${code}`, { token: m.token })).status).toBe(403);
    expect((await h.call('GET', '/api/product-purchases/fetch-order/ZZZZZZZZ', { token: k.token })).body.message).toBe('Please enter a valid order code to fetch order details');
    const looked = await h.call('GET', `/api/product-purchases/fetch-order/${code.toLowerCase()}`, { token: k.token });
    expect(looked.status, looked.body.message).toBe(200);
    expect(looked.body.data).toMatchObject({ purchase_id: repurchaseId, can_approve: true, user: { username: m.username, email: m.email } });
    expect(looked.body.data.products.map((p: { name: string; stock_qty: number; qualify: number; in_stock: number }) => [p.name, p.stock_qty, p.in_stock, p.qualify])).toEqual([[MORINGA, 5, 1, 1], [BLACK_SEED, 2, 1, 1]]);
    // Two stockists approve the same order at the same moment, and one double-clicks: exactly one approval.
    const results = await Promise.all([
      h.call('PATCH', `/api/product-purchases/${repurchaseId}/vendor-approve`, { token: k.token }),
      h.call('PATCH', `/api/product-purchases/${repurchaseId}/vendor-approve`, { token: k.token }),
      h.call('PATCH', `/api/product-purchases/${repurchaseId}/vendor-approve`, { token: k2.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    expect(results.filter((r) => r.status === 422).map((r) => r.body.message)).toEqual(['This order has already been collected.', 'This order has already been collected.']);
    expect(await t.runtime.db.selectFrom('events').select('event_id').where('type', '=', 'ProductPurchaseCollected').execute()).toHaveLength(1);
    const winner = (await t.runtime.db.selectFrom('product_purchases').select(['stockist_id', 'status']).where('id', '=', repurchaseId).executeTakeFirstOrThrow());
    expect(winner.status).toBe('approved');
    const winnerMember = winner.stockist_id === kStockistId ? k : k2;
    await settleConsumers(t.runtime.db);
    expect(await credited(winnerMember.id, 'stockist_rebate')).toBe(102_500);
    const history = await h.call('GET', `/api/product-purchases/user/${m.id}/history`, { token: m.token });
    expect(history.body.data.data.find((p: { id: string }) => p.id === repurchaseId)).toMatchObject({ status: 'approved', store_name: winnerMember === k ? 'Ikeja Herbs & Roots' : `Store of ${k2.username}` });
    const processed = await h.call('GET', `/api/product-purchases/vendor/${winnerMember.id}/processed-orders`, { token: winnerMember.token });
    expect(processed.body.data.data.map((o: { id: string; username: string }) => [o.id, o.username])).toEqual([[repurchaseId, m.username]]);
    const rebates = await h.call('GET', `/api/stockists/${winnerMember.id}/rebate-earnings`, { token: winnerMember.token });
    expect(rebates.body.data.map((r: { value: number }) => r.value)).toEqual([1_025]);
    const stats = await h.call('GET', `/api/stockists/${winnerMember.id}/stats`, { token: winnerMember.token });
    expect(stats.body.data).toMatchObject({ package: 'Mini Stockist', rebate: 5, rebate_bonus: 1_025 });
    const sales = await h.call('GET', `/api/stockists/${winnerMember.id}/sales-stats`, { token: admin });
    expect(sales.body.data.total_sales).toBe(20_500);
    expect((await h.call('GET', `/api/stockists/${winnerMember.id}/stats`, { token: m.token })).status).toBe(403);
    // The member's claims, filtered by status: the collected repurchase's two lines, the registration pick-up still to collect.
    const claimsOf = async (status: string) => (await h.call('GET', `/api/product-claims/${m.id}/claims?status=${status}`, { token: m.token })).body.data.data.map((c: { name: string; product_qty: number }) => [c.name, c.product_qty]);
    expect(await claimsOf('approved')).toEqual([[MORINGA, 1], [BLACK_SEED, 1]]);
    expect((await claimsOf('processing')).map(([, qty]: [string, number]) => qty)).toEqual([2]);
    expect(await claimsOf('declined')).toEqual([]);
    const badStatus = await h.call('GET', `/api/product-claims/${m.id}/claims?status=unclaimed`, { token: m.token });
    expect([badStatus.status, badStatus.body.message]).toEqual([422, 'status must be processing, approved or declined.']);
    expect((await h.call('GET', `/api/product-claims/${m.id}/claims`, { token: k.token })).status).toBe(403);
  });

  it('stock never goes below zero: two orders racing for the last 2 Black Seed Oil of one stockist, one approval', async () => {
    const held = Number((await t.runtime.db.selectFrom('stockist_stock').select('quantity').where('stockist_id', '=', kStockistId).where('product_id', '=', productId.get(BLACK_SEED)!).executeTakeFirstOrThrow()).quantity);
    raceUnits = held;
    const first = await walletRepurchase(m, [[BLACK_SEED, held]], 12_000 * held);
    const second = await walletRepurchase(m, [[BLACK_SEED, held]], 12_000 * held);
    const results = await Promise.all([first, second].map((id) => h.call('PATCH', `/api/product-purchases/${id}/vendor-approve`, { token: k.token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.status === 422)!.body.message).toBe("You don't have enough stock to process this order");
    await settleConsumers(t.runtime.db);
    const stock = await h.call('GET', `/api/stockists/${k.id}/stock`, { token: k.token });
    expect(stock.body.data.find((s: { name: string }) => s.name === BLACK_SEED)).toMatchObject({ quantity: 0, in_stock: false });
    const loser = results[0]!.status === 422 ? first : second;
    const looked = await h.call('GET', `/api/product-purchases/fetch-order/${await orderCode(m, loser)}`, { token: k.token });
    expect(looked.body.data).toMatchObject({ can_approve: false });
    expect(looked.body.data.products[0]).toMatchObject({ in_stock: 0, stock_qty: 0, qualify: 0 });
  });

  it('product claims: admins list, approve and decline them; totals count the collected ones', async () => {
    const all = await h.call('GET', '/api/product-claims/all?status=processing', { token: finance });
    const registration = (all.body.data.data as Array<{ id: string; pickup_type: string }>).find((c) => c.pickup_type === 'registration_pickup')!;
    expect((await h.call('PUT', `/api/product-claims/${registration.id}/decline`, { token: finance })).status).toBe(403);
    const declined = await h.call('PUT', `/api/product-claims/${registration.id}/decline`, { token: admin, body: { reason: 'Out of stock at head office' } });
    expect([declined.status, declined.body.message, declined.body.data.status]).toEqual([200, 'Product declined successfully', 'declined']);
    // The allowance is given back: the member claims again.
    const again = await h.call('POST', `/api/product-claims/${m.id}/create`, { token: m.token, body: { products: [line(SOURSOP, 1)] } });
    expect([again.status, again.body.message]).toEqual([200, 'Product claimed successfully']);
    const approved = await h.call('PUT', `/api/product-claims/${again.body.data.purchase_id}/approve`, { token: admin });
    expect([approved.status, approved.body.data.status]).toEqual([200, 'approved']);
    expect((await h.call('PUT', `/api/product-claims/${again.body.data.purchase_id}/approve`, { token: admin })).body.message).toBe('This order has already been collected.');
    const paidOrder = (await t.runtime.db.selectFrom('product_purchases').select('id').where('status', '=', 'processing').where('pickup_type', '=', 'repurchase_pickup').executeTakeFirstOrThrow()).id;
    expect((await h.call('PUT', `/api/product-claims/${paidOrder}/decline`, { token: admin })).body.message).toBe('A paid repurchase cannot be declined here; it waits to be collected at a stockist.');
    const sold = await h.call('GET', '/api/product-claims/total-product-sold', { token: finance });
    const sum = await h.call('GET', '/api/product-claims/sum-claimed-products', { token: finance });
    // Collected: the wallet repurchase (1 Moringa + 1 Black Seed), the race winner's last Black Seed Oil, and 1 Soursop at the head office.
    expect(sold.body.data.total_product_sold).toBe(2 + raceUnits + 1);
    expect(sum.body.data.sum_claimed_products).toBe(20_500 + 12_000 * raceUnits + 7_000);
    const details = await h.call('GET', `/api/product-purchases/${again.body.data.purchase_id}/order-details`, { token: m.token });
    expect(details.body.data.products).toEqual([expect.objectContaining({ name: SOURSOP, product_qty: 1 })]);
    expect((await h.call('GET', `/api/product-purchases/${again.body.data.purchase_id}/order-details`, { token: k2.token })).status).toBe(403);
  });
});

describe('stockist upgrades and the stockist record', () => {
  it('an upgrade by receipt costs the difference (₦250,000 − ₦100,000 = ₦150,000), waits for an admin, then allows an upgrade pick-up of ₦130,000', async () => {
    const difference = await h.call('GET', '/api/stockists/package/2/difference', { token: k.token });
    expect(difference.body.data).toMatchObject({ package_name: 'Standard Stockist', package_difference: 150_000, rebate: 7, current_package: { name: 'Mini Stockist' } });
    expect((await h.call('GET', '/api/stockists/package/1/difference', { token: k.token })).body.message).toBe('You can only upgrade to a stockist package higher than your current one.');
    expect((await h.call('GET', '/api/stockists/package/2/difference', { token: m.token })).status).toBe(403);
    const noReceipt = await h.upload('POST', `/api/stockists/${kStockistId}/upgrade`, { token: k.token, fields: { stockist_package_id: 2 } });
    expect(noReceipt.body.message).toBe('Please choose an image to upload.');
    expect((await h.upload('POST', `/api/stockists/${kStockistId}/upgrade`, { token: k2.token, fields: { stockist_package_id: 2 }, files: receipt })).status).toBe(403);
    const requested = await h.upload('POST', `/api/stockists/${kStockistId}/upgrade`, { token: k.token, fields: { stockist_package_id: 2 }, files: receipt });
    expect([requested.status, requested.body.message]).toEqual([200, 'Payment reciept uploaded successfuly']);
    expect((await h.upload('POST', `/api/stockists/${k.id}/upgrade`, { token: k.token, fields: { stockist_package_id: 3 }, files: receipt })).body.message).toBe('You already have a stockist upgrade awaiting approval.');
    const pending = await h.call('GET', '/api/stockists/upgrades', { token: finance });
    expect(pending.body.data.data).toEqual([expect.objectContaining({ id: kStockistId, stockist_package: 'Standard Stockist', from_package: 'Mini Stockist', stockist_package_value: 150_000, payment_status: 'processing' })]);
    const paymentId = pending.body.data.data[0].payment_id;
    expect((await h.call('PATCH', `/api/stockists/${paymentId}/approve-upgrade`, { token: finance })).status).toBe(403);
    const approved = await h.call('PATCH', `/api/stockists/${paymentId}/approve-upgrade`, { token: admin });
    expect([approved.status, approved.body.data.stockist_package]).toEqual([200, 'Standard Stockist']);
    expect((await h.call('PATCH', `/api/stockists/${paymentId}/disapprove-upgrade`, { token: admin })).body.message).toBe('This stockist upgrade is no longer awaiting a decision.');
    const history = await h.call('GET', `/api/payments/${k.id}/stockist-upgrade-history`, { token: k.token });
    expect(history.body.data.map((r: { package_name: string; status: string; registration_value: number }) => [r.package_name, r.status, r.registration_value])).toEqual([['Standard Stockist', 'approved', 150_000], ['Mini Stockist', 'approved', 100_000]]);
    expect((await h.call('GET', `/api/payments/${k.id}/stockist-upgrade-history`, { token: m.token })).status).toBe(403);
    const pickup = await h.call('GET', '/api/stockists/package/0/difference?is_upgrade_pickup=1', { token: k.token });
    expect(pickup.body.data).toMatchObject({ pickup_allowance: 130_000, pickup_used: false, new_package: { name: 'Standard Stockist' } });
    const status = () => h.call('GET', `/api/product-purchases/stockist/${k.id}/pickup-status`, { token: k.token });
    expect((await status()).body.data).toEqual({ registration_pickup_used: true, upgrade_pickup_used: false });
    expect((await stockPurchase(k, 'upgrade_pickup', [line(BLACK_SEED, 11)])).body.message).toBe('There selected Items total price is greater than the pickup amount');
    const bought = await stockPurchase(k, 'upgrade_pickup', [line(BLACK_SEED, 10)]);
    expect(bought.status, bought.body.message).toBe(200);
    expect((await stockPurchase(k, 'upgrade_pickup', [line(BLACK_SEED, 1)])).body.message).toBe('You have already made the pick-up of your latest upgrade.');
    expect((await status()).body.data).toEqual({ registration_pickup_used: true, upgrade_pickup_used: true });
    // The company wallet counts the stockist packages (₦100,000 × 2 + ₦150,000) besides registrations.
    const packages = await t.runtime.db.selectFrom('package_payments').select(sql<string>`coalesce(sum(coalesce(amount_paid, amount_due)), 0)`.as('kobo')).where('status', '=', 'approved').executeTakeFirstOrThrow();
    const wallet = await h.call('GET', '/api/bonuses/total-company-wallet', { token: finance });
    expect(wallet.body.data.total_company_wallet).toBe(Number(packages.kobo) / 100 + 100_000 * 2 + 150_000);
  });

  it('serves the stockist record: purchases, stock details, previous month\'s sales; members see only their own', async () => {
    const purchases = await h.call('GET', `/api/product-purchases/stockist/${k.id}/history`, { token: k.token });
    expect(purchases.body.data.data.map((p: { pickup_type: string; status: string; total_price: number }) => [p.pickup_type, p.status, p.total_price])).toEqual([['upgrade_pickup', 'processing', 120_000], ['registration_pickup', 'approved', 66_500]]);
    const details = await h.call('GET', `/api/product-purchases/${k.id}/stock-details`, { token: k.token });
    expect(details.body.data[0]).toMatchObject({ name: BLACK_SEED, product_qty: 10, price: 120_000, status: 'processing' });
    const prev = await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token: k.token });
    expect(prev.body.data).toMatchObject({ total_sales: 0, available: 0 });
    for (const url of [`/api/product-purchases/stockist/${k.id}/history`, `/api/product-purchases/${k.id}/stock-details`, `/api/product-purchases/stockist-prev-month-sales/${k.id}`, `/api/stockists/${k.id}/rebate-earnings`, `/api/product-purchases/vendor/${k.id}/processed-orders`]) {
      expect((await h.call('GET', url, { token: m.token })).status, url).toBe(403);
      expect((await h.call('GET', url, { token: finance })).status, url).toBe(200);
    }
    expect((await h.call('GET', `/api/product-purchases/${m.id}/stock-details`, { token: m.token })).status).toBe(404);
  });

  it('re-stock: against the value of the orders approved last month, less what was re-stocked this month', async () => {
    // Move the clock into next month: last month's sales are what k handed over so far.
    const before = await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token: k.token });
    const now = t.clock.now;
    t.clock.now = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2, 12));
    try {
      admin = await h.adminToken();
      const sales = (await h.call('GET', `/api/stockists/${k.id}/sales-stats`, { token: admin })).body.data.total_sales as number;
      const k3 = await h.call('POST', '/api/auth/login', { body: { username: k.username, password: k.password } });
      const token = k3.body.data.access_token as string;
      const prev = await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token });
      expect(prev.body.data).toMatchObject({ total_sales: sales, available: sales });
      expect(sales).toBeGreaterThan(before.body.data.total_sales);
      const over = await h.upload('POST', `/api/product-purchases/stockist/${k.id}`, { token, fields: { pickup_type: 're-stock', products: JSON.stringify([line(BLACK_SEED, Math.floor(sales / 12_000) + 1)]) } });
      expect(over.body.message).toBe('There selected Items total price is greater than the pickup amount');
      const ok = await h.upload('POST', `/api/product-purchases/stockist/${k.id}`, { token, fields: { pickup_type: 're-stock', products: JSON.stringify([line(BLACK_SEED, 1)]) } });
      expect(ok.status, ok.body.message).toBe(200);
      const after = await h.call('GET', `/api/product-purchases/stockist-prev-month-sales/${k.id}`, { token });
      expect(after.body.data.available).toBe(sales - 12_000);
    } finally {
      t.clock.now = now;
      admin = await h.adminToken();
    }
  });
});

describe('a beneficiary whose own registration payment awaits a decision (BUSINESS-RULES.md §3)', () => {
  it('has the signee and stockist upline bonuses held, not withheld, and credited with the cause\'s figures when the payment is approved', async () => {
    // p registered on Bronze and uploaded a receipt an admin has not decided; p's recruit s paid and became a stockist naming p as signee.
    const p = await h.registeredMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
    const pPayment = await h.uploadReceipt(p);
    const s = await h.activeMember({ referrer: p.username, package_id: 2 });
    await approvedStockist(s, p.username);
    const bought = await stockPurchase(s, 'registration_pickup', [line(MORINGA, 2)]);
    expect(bought.status, bought.body.message).toBe(200);
    const approved = await h.call('PATCH', `/api/product-purchases/${bought.body.data.id}/approve-stock`, { token: admin });
    expect(approved.status, approved.body.message).toBe(200);
    await settleConsumers(t.runtime.db);

    const heldKinds = async () => (await t.runtime.db.selectFrom('held_bonuses').select('decision').where('payment_id', '=', pPayment).where('resolution', 'is', null).execute())
      .map((row) => (row.decision as { kind: string; amount_kobo: number }))
      .map((d) => [d.kind, d.amount_kobo])
      .sort();
    // s's activation (referral 10% of ₦35,000), the signee 5% of the ₦100,000 Mini Stockist package, and the
    // stockist upline 3% (Bronze, generation 1) of ₦17,000 of stock: all three held by p's pending receipt.
    expect(await heldKinds()).toEqual([['referral', 350_000], ['signee', 500_000], ['stockist_upline', 51_000]]);
    expect(await credited(p.id, 'signee')).toBe(0);
    const withheld = await t.runtime.db.selectFrom('wallet_entries').select('kind').where('member_id', '=', p.id).where('entry', '=', 'withheld').execute();
    expect(withheld).toEqual([]);

    await h.decideReceipt(pPayment, 'approve');
    await settleConsumers(t.runtime.db);
    expect(await heldKinds()).toEqual([]);
    expect(await credited(p.id, 'signee')).toBe(500_000);
    expect(await credited(p.id, 'stockist_upline')).toBe(51_000);
  });
});

describe("a member's pick-up status (GET /product-purchases/user/{id}/pickup-status)", () => {
  it('says the upgrade pick-up is to take after an approved upgrade, and taken once placed; a declined one gives it back', async () => {
    const member = await h.activeMember({ package_id: 2 });
    const status = async () => (await h.call('GET', `/api/product-purchases/user/${member.id}/pickup-status`, { token: member.token })).body.data;
    const place = (pickupType: string) => h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: pickupType, products: [line(SOURSOP, 1)] } });
    const upgrade = await h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { amount: 105_000, is_upgrade: 1, meta_data: 4, txn_source: 'package_payment', payment_type: 'pop', description: 'Upgrade to Gold' }, files: receipt });
    expect(upgrade.status, upgrade.body.message).toBe(200);
    expect((await h.call('PATCH', `/api/payments/package-payments/${upgrade.body.data.payment_id}/approve`, { token: admin })).status).toBe(200);
    // The registration pick-up comes first: until then the upgrade's is not one to make.
    expect(await status()).toEqual({ registration_pickup_used: false, upgrade_pickup_used: null });
    const registration = await place('registration_pickup');
    expect(registration.status, registration.body.message).toBe(200);
    expect(await status()).toEqual({ registration_pickup_used: true, upgrade_pickup_used: false });
    const upgradePickup = await place('upgrade_pickup');
    expect(upgradePickup.status, upgradePickup.body.message).toBe(200);
    expect(await status()).toEqual({ registration_pickup_used: true, upgrade_pickup_used: true });
    expect((await place('upgrade_pickup')).body.message).toBe('You have already made the pick-up of your latest upgrade.');
    // An admin declines the registration claim: its allowance is given back, and the status says so.
    expect((await h.call('PUT', `/api/product-claims/${registration.body.data.purchase_id}/decline`, { token: admin, body: { reason: 'Not collected' } })).status).toBe(200);
    expect(await status()).toEqual({ registration_pickup_used: false, upgrade_pickup_used: null });
    expect((await h.call('GET', `/api/product-purchases/user/${m.id}/pickup-status`, { token: member.token })).status).toBe(403);
  });
});

describe('the OpenAPI description', () => {
  it('lists every path of catalogue.tsv, each with its method', async () => {
    const paths = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths as Record<string, Record<string, unknown>>;
    const catalogue = (await readFile(new URL('../../../../shared/spec/catalogue.tsv', import.meta.url), 'utf8').catch(() => readFile('/work/shared/spec/catalogue.tsv', 'utf8')))
      .split('\n')
      .filter((l) => /^(GET|POST|PUT|PATCH|DELETE)\t/.test(l))
      .map((l) => { const [method, path] = l.split('\t'); return `${method} ${path!.replace(/\{[a-z_]+\}/g, '{id}')}`; });
    const served = new Set(Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{[a-zA-Z_]+\}/g, '{id}')}`)));
    // 187 calls (one path, /api/payments/package-payments/{id}, is read and written).
    expect(new Set(catalogue).size).toBe(187);
    expect(catalogue.filter((c) => !served.has(c))).toEqual([]);
  });
});
