import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { MAX_LINE_QUANTITY, quantityMessages } from '../contracts/purchases';

/**
 * Quantities on the server, whatever the client checked (seed 000 §5 'One of your selection has
 * quantity less than 1'): below 1, fractions and more than MAX_LINE_QUANTITY of a product are
 * refused with a readable 422 on every order route, and nothing is recorded.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let member: Awaited<ReturnType<ReturnType<typeof httpHelpers>['activeMember']>>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  member = await h.activeMember();
});
afterAll(async () => t?.close());

const cases: Array<[unknown, string]> = [
  [999_999_999, quantityMessages.aboveMax],
  [MAX_LINE_QUANTITY + 1, quantityMessages.aboveMax],
  ['999999999', quantityMessages.aboveMax],
  [0, quantityMessages.belowOne],
  [-3, quantityMessages.belowOne],
  [1.5, quantityMessages.notWhole],
  ['2.5', quantityMessages.notWhole],
  ['lots', quantityMessages.notWhole],
];

describe('every order route refuses a bad quantity', () => {
  it('names the maximum in its message', () => {
    expect(MAX_LINE_QUANTITY).toBe(1_000);
    expect(quantityMessages.aboveMax).toBe('One of your selection has quantity more than 1,000 (at most 1,000 of each product per order).');
  });

  const routes: Array<[string, (qty: unknown) => Promise<{ status: number; body: { message: string } }>]> = [
    ['registration pick-up (POST /product-purchases/user/{id})', (qty) => h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: 1, qty }] } })],
    ['product claim (POST /product-claims/{id}/create)', (qty) => h.call('POST', `/api/product-claims/${member.id}/create`, { token: member.token, body: { products: [{ id: 1, qty }] } })],
    ['repurchase by card (POST /payments/initiate)', (qty) => h.call('POST', '/api/payments/initiate', { token: member.token, body: { txn_source: 'member_product_purchase', payment_type: 'payment_gateway', pickup_type: 'repurchase_pickup', products: [{ id: 1, qty }] } })],
    ['repurchase from the wallet (PATCH /withdrawals/pay-with-wallet)', (qty) => h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: member.token, body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', products: [{ id: 1, qty }] } })],
    ['repurchase by receipt (multipart)', (qty) => h.upload('POST', '/api/payments/initiate', { token: member.token, fields: { txn_source: 'member_product_purchase', payment_type: 'pop', pickup_type: 'repurchase_pickup', products: JSON.stringify([{ id: 1, qty }]) } })],
    ['stock purchase (POST /product-purchases/stockist/{id})', (qty) => h.call('POST', `/api/product-purchases/stockist/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: 1, qty }] } })],
  ];
  for (const [route, send] of routes) {
    it(route, async () => {
      for (const [qty, message] of cases) {
        const answer = await send(qty);
        expect(answer.status, `${route} qty ${qty}`).toBe(422);
        expect(answer.body.message, `${route} qty ${qty}`).toBe(message);
      }
    });
  }

  it('counts the same product on several lines together', async () => {
    const answer = await h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: 1, qty: 600 }, { id: 1, qty: 600 }] } });
    expect(answer).toMatchObject({ status: 422, body: { message: quantityMessages.aboveMax } });
  });

  it('recorded nothing, and the one-time registration pick-up is still there', async () => {
    expect(await t.runtime.db.selectFrom('product_purchases').select('id').where('member_id', '=', member.id).execute()).toEqual([]);
    const placed = await h.call('POST', `/api/product-purchases/user/${member.id}`, { token: member.token, body: { pickup_type: 'registration_pickup', products: [{ id: 2, qty: 2 }] } });
    expect(placed.status, placed.body.message).toBe(200);
  });
});
