import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { creditWallet } from '../../test/wallet';

/**
 * Product Sales History (seed 002 Transactions tab 3): GET /api/product-purchases/monthly-repurchases
 * and /sum-prices (the portal's envelope), and the back office's `product-sales` resource, over
 * repurchases paid from the wallet and by receipt in three Lagos months, beside a declined
 * receipt and a card checkout never completed, which are no sales.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
type Member = Awaited<ReturnType<typeof h.activeMember>>;
let x: Member;
const catalogue = new Map<string, { id: number; worth: number; points: number }>();
const MORINGA = 'Moringa Leaf Capsules'; // ₦8,500
const BLACK_SEED = 'Black Seed Oil 100 ml'; // ₦12,000
const PROSTATE = 'Prostate Care Herbal Blend'; // ₦18,000
const SOURSOP = 'Soursop Leaf Tea'; // ₦7,000
const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };

/** Lines of [product, quantity, the price the test expects]; the price and points are the catalogue's. */
function cart(lines: Array<[string, number, number]>) {
  for (const [name, , price] of lines) expect(catalogue.get(name)?.worth).toBe(price);
  const total_price = lines.reduce((sum, [, qty, price]) => sum + qty * price, 0);
  const total_quantity = lines.reduce((sum, [, qty]) => sum + qty, 0);
  const total_points = lines.reduce((sum, [name, qty]) => sum + qty * catalogue.get(name)!.points, 0);
  return {
    txn_source: 'member_product_purchase',
    pickup_type: 'repurchase_pickup',
    description: 'Repurchase',
    amount: total_price,
    total_price,
    total_quantity,
    total_points,
    products: lines.map(([name, qty]) => ({ id: catalogue.get(name)!.id, qty })),
  };
}

/** Moves the app's clock (a date in UTC) and signs in again there, as a person would after a while. */
async function travelTo(iso: string) {
  t.clock.now = new Date(iso);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  const login = await h.call('POST', '/api/auth/login', { body: { username: x.username, password: x.password } });
  expect(login.status).toBe(200);
  x = { ...x, token: login.body.data.access_token };
}

async function payFromWallet(lines: Array<[string, number, number]>) {
  const paid = await h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: x.token, body: cart(lines) });
  expect(paid.status, paid.body.message).toBe(200);
}

async function uploadReceipt(lines: Array<[string, number, number]>) {
  const body = cart(lines);
  const fields = { ...body, products: JSON.stringify(body.products), payment_type: 'pop' };
  const uploaded = await h.upload('POST', '/api/payments/initiate', { token: x.token, fields, files: receipt });
  expect(uploaded.status, uploaded.body.message).toBe(200);
  return uploaded.body.data.payment_id as string;
}

function list(query: { sort?: unknown; range?: unknown; filter?: unknown }, token = admin) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, JSON.stringify(value));
  return h.call('GET', `/api/admin/product-sales?${params}`, { token });
}
const rows = (answer: { body: unknown }) => answer.body as Array<Record<string, any>>;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  x = await h.activeMember();
  await creditWallet(t.runtime.db, x.id, 100_000_000, t.clock.now);
  const products = await h.call('GET', '/api/products/active', { token: x.token });
  for (const product of products.body.data as Array<{ id: number; name: string; worth: number; points: number }>) catalogue.set(product.name, product);

  // January 2030: two orders from the wallet, 2 × ₦8,500 and 1 × ₦12,000.
  await travelTo('2030-01-10T09:00:00Z');
  await payFromWallet([[MORINGA, 2, 8_500]]);
  await payFromWallet([[BLACK_SEED, 1, 12_000]]);
  // 23:30 UTC on 31 January is 00:30 on 1 February in Lagos: a February sale.
  await travelTo('2030-01-31T23:30:00Z');
  await payFromWallet([[PROSTATE, 1, 18_000]]);
  // A receipt uploaded in February and approved in March is a March sale; a declined one is none.
  await travelTo('2030-02-20T12:00:00Z');
  const approvedLater = await uploadReceipt([[SOURSOP, 3, 7_000]]);
  const declined = await uploadReceipt([[MORINGA, 1, 8_500]]);
  expect((await h.call('PATCH', `/api/payments/package-payments/${declined}/disapprove`, { token: admin, body: { reason: 'Unreadable receipt' } })).status).toBe(200);
  // A card checkout never completed is no sale either.
  const card = await h.call('POST', '/api/payments/initiate', { token: x.token, body: { ...cart([[PROSTATE, 2, 18_000]]), payment_type: 'payment_gateway' } });
  expect(card.status, card.body.message).toBe(200);
  await travelTo('2030-03-05T10:00:00Z');
  expect((await h.call('PATCH', `/api/payments/package-payments/${approvedLater}/approve`, { token: admin })).status).toBe(200);
  await payFromWallet([[BLACK_SEED, 2, 12_000], [MORINGA, 1, 8_500]]);
});
afterAll(async () => t?.close());

describe('GET /api/product-purchases/monthly-repurchases and /sum-prices', () => {
  it('groups the paid repurchases by the Lagos month they were paid in, newest first, in naira', async () => {
    const monthly = await h.call('GET', '/api/product-purchases/monthly-repurchases', { token: admin });
    expect(monthly.status).toBe(200);
    expect(monthly.body).toEqual({
      success: true,
      message: 'Monthly repurchases',
      data: [
        // ₦21,000 (3 × Soursop) + ₦32,500 (2 × Black Seed + 1 × Moringa).
        { year: 2030, month: 3, total_qty: 6, total: 53_500 },
        { year: 2030, month: 2, total_qty: 1, total: 18_000 },
        { year: 2030, month: 1, total_qty: 3, total: 29_000 },
      ],
    });
  });

  it('sums every paid product sale; it equals the monthly totals and what was paid, to the kobo', async () => {
    const sum = await h.call('GET', '/api/product-purchases/sum-prices', { token: finance });
    expect(sum.body).toEqual({ success: true, message: 'Total product sales', data: { total: 100_500, total_qty: 10, count: 5 } });
    // What the payments recorded: the wallet debits and the approved receipt.
    const { rows: approvedReceipts } = await sql<{ kobo: string }>`
      select coalesce(sum((data->>'total_price_kobo')::bigint), 0) as kobo from events where type = 'ProductPurchasePaid' and data->>'payment_method' = 'pop'`.execute(t.runtime.db);
    const { rows: wallet } = await sql<{ kobo: string }>`
      select coalesce(sum((data->>'amount_kobo')::bigint), 0) as kobo from events where type = 'WalletPaymentMade' and data->>'purpose' = 'product_purchase'`.execute(t.runtime.db);
    expect(Number(wallet[0]!.kobo) + Number(approvedReceipts[0]!.kobo)).toBe(10_050_000);
    const monthly = (await h.call('GET', '/api/product-purchases/monthly-repurchases', { token: admin })).body.data as Array<{ total: number }>;
    expect(Math.round(monthly.reduce((s, m) => s + m.total * 100, 0))).toBe(10_050_000);
  });

  it('are admin reads: finance reads, a member gets 403, no session 401', async () => {
    for (const path of ['/api/product-purchases/monthly-repurchases', '/api/product-purchases/sum-prices']) {
      expect((await h.call('GET', path, { token: finance })).status).toBe(200);
      expect((await h.call('GET', path, { token: x.token })).status).toBe(403);
      expect((await h.call('GET', path)).status).toBe(401);
    }
  });
});

describe('GET /api/admin/product-sales (ra-data-simple-rest)', () => {
  it('lists one record per month, id "YYYY-MM", newest first by default, with Content-Range', async () => {
    const answer = await list({ range: [0, 9] });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-range']).toBe('product-sales 0-2/3');
    expect(rows(answer)).toEqual([
      { id: '2030-03', period: '2030-03', year: 2030, month: 3, total_qty: 6, total: 53_500, orders: 2 },
      { id: '2030-02', period: '2030-02', year: 2030, month: 2, total_qty: 1, total: 18_000, orders: 1 },
      { id: '2030-01', period: '2030-01', year: 2030, month: 1, total_qty: 3, total: 29_000, orders: 2 },
    ]);
  });

  it('sorts, pages and filters', async () => {
    expect(rows(await list({ sort: ['period', 'ASC'] })).map((r) => r.id)).toEqual(['2030-01', '2030-02', '2030-03']);
    expect(rows(await list({ sort: ['total', 'DESC'] })).map((r) => r.total)).toEqual([53_500, 29_000, 18_000]);
    expect(rows(await list({ sort: ['total_qty', 'ASC'] })).map((r) => r.total_qty)).toEqual([1, 3, 6]);
    const page = await list({ sort: ['period', 'DESC'], range: [1, 1] });
    expect(page.headers['content-range']).toBe('product-sales 1-1/3');
    expect(rows(page).map((r) => r.id)).toEqual(['2030-02']);
    expect(rows(await list({ filter: { year: 2030, month_gte: 2 } })).map((r) => r.id)).toEqual(['2030-03', '2030-02']);
    expect(rows(await list({ filter: { total_gte: 20_000, total_lte: 30_000 } })).map((r) => r.id)).toEqual(['2030-01']);
    const none = await list({ filter: { year: 2029 } });
    expect(rows(none)).toEqual([]);
    expect(none.headers['content-range']).toBe('product-sales */0');
  });

  it('getMany by ids and getOne by month', async () => {
    const many = await h.call('GET', `/api/admin/product-sales?filter=${encodeURIComponent(JSON.stringify({ id: ['2030-01', '2030-03', '1999-01'] }))}`, { token: admin });
    expect(rows(many).map((r) => r.id)).toEqual(['2030-03', '2030-01']);
    expect((await h.call('GET', '/api/admin/product-sales/2030-02', { token: finance })).body).toMatchObject({ id: '2030-02', total: 18_000, total_qty: 1 });
    expect(await h.call('GET', '/api/admin/product-sales/2031-01', { token: admin })).toMatchObject({ status: 404, body: { message: 'Month not found.' } });
    expect((await h.call('GET', '/api/admin/product-sales/January', { token: admin })).status).toBe(422);
  });

  it('refuses bad input with a readable 422, and members with 403', async () => {
    expect(await list({ sort: ['price', 'ASC'] })).toMatchObject({ status: 422, body: { message: 'Cannot sort by price.' } });
    expect(await list({ filter: { year: 'last' } })).toMatchObject({ status: 422, body: { message: 'The filter year must be a number.' } });
    expect((await list({}, x.token)).status).toBe(403);
    expect((await h.call('GET', '/api/admin/product-sales/2030-01', { token: x.token })).status).toBe(403);
  });
});
