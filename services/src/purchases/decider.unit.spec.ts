import { describe, expect, it } from 'vitest';
import { type CatalogueProduct, type PurchaseCommand, checkClientTotals, decidePurchase, evolvePurchase, priceOrder } from './decider';
import type { ProductPurchaseEvent, ProductPurchaseInitiated } from './events';

const given = (past: ProductPurchaseEvent[]) => ({
  when: (command: PurchaseCommand) => {
    const state = past.reduce(evolvePurchase, { status: 'none' } as ReturnType<typeof evolvePurchase>);
    return {
      then: (expected: ProductPurchaseEvent[]) => expect(decidePurchase(command, state)).toEqual(expected),
      thenThrows: (message: RegExp | string) => expect(() => decidePurchase(command, state)).toThrow(message),
    };
  },
});

// Moringa ₦8,500 (2 PV), Black Seed Oil ₦12,000 (3 PV), a disabled Soursop Tea.
const catalogue: CatalogueProduct[] = [
  { id: 1, name: 'Moringa Leaf Capsules', worth: 850_000, points: 2, is_active: true },
  { id: 3, name: 'Black Seed Oil 100 ml', worth: 1_200_000, points: 3, is_active: true },
  { id: 5, name: 'Soursop Leaf Tea', worth: 700_000, points: 2, is_active: false },
];

describe('pricing a cart from the catalogue (BUSINESS-RULES.md §5)', () => {
  it('prices 2 × Moringa ₦8,500 + 1 × Black Seed Oil ₦12,000 = ₦29,000 (2,900,000 kobo), 2×2 + 3 = 7 PV, 3 items', () => {
    const order = priceOrder([{ productId: 1, qty: 2 }, { productId: 3, qty: 1 }], catalogue);
    expect(order).toEqual({
      lines: [
        { product_id: 1, name: 'Moringa Leaf Capsules', qty: 2, price_kobo: 850_000, points: 2 },
        { product_id: 3, name: 'Black Seed Oil 100 ml', qty: 1, price_kobo: 1_200_000, points: 3 },
      ],
      totalPriceKobo: 2_900_000,
      totalPoints: 7,
      totalQuantity: 3,
    });
  });
  it('merges the same product sent twice: 1 + 2 Moringa = one line of 3 = ₦25,500', () => {
    const order = priceOrder([{ productId: 1, qty: 1 }, { productId: 1, qty: 2 }], catalogue);
    expect(order.lines).toEqual([{ product_id: 1, name: 'Moringa Leaf Capsules', qty: 3, price_kobo: 850_000, points: 2 }]);
    expect(order.totalPriceKobo).toBe(2_550_000);
  });
  it('refuses an empty cart with the seeds\' message', () => {
    expect(() => priceOrder([], catalogue)).toThrow('There are no selected products');
  });
  it('refuses a quantity of 0 or a negative one with the seeds\' message, a fraction as not whole, and more than 1,000 of a product', () => {
    for (const qty of [0, -1, 0.5]) expect(() => priceOrder([{ productId: 1, qty }], catalogue)).toThrow('One of your selection has quantity less than 1');
    for (const qty of [1.5, Number.NaN]) expect(() => priceOrder([{ productId: 1, qty }], catalogue)).toThrow('One of your selection has a quantity that is not a whole number.');
    const aboveMax = 'One of your selection has quantity more than 1,000 (at most 1,000 of each product per order).';
    expect(() => priceOrder([{ productId: 1, qty: 1_001 }], catalogue)).toThrow(aboveMax);
    // The same product on two lines is one line: the maximum holds for the sum.
    expect(() => priceOrder([{ productId: 1, qty: 600 }, { productId: 1, qty: 401 }], catalogue)).toThrow(aboveMax);
    expect(priceOrder([{ productId: 1, qty: 600 }, { productId: 1, qty: 400 }], catalogue).totalQuantity).toBe(1_000);
  });
  it('refuses a product left at ₦0, naming it', () => {
    expect(() => priceOrder([{ productId: 1, qty: 1 }], catalogue.map((p) => (p.id === 1 ? { ...p, worth: 0 } : p)))).toThrow(`${catalogue[0]!.name} has no price yet, so it cannot be ordered; remove it from your cart.`);
  });
  it('refuses a product that does not exist or is disabled, naming the disabled one', () => {
    expect(() => priceOrder([{ productId: 99, qty: 1 }], catalogue)).toThrow('One of the selected products does not exist.');
    expect(() => priceOrder([{ productId: 5, qty: 1 }], catalogue)).toThrow('Soursop Leaf Tea is not available at the moment; remove it from your cart.');
  });
  it('accepts the client\'s totals when they are the server\'s, or absent, and refuses others naming the server\'s', () => {
    const order = priceOrder([{ productId: 1, qty: 2 }, { productId: 3, qty: 1 }], catalogue);
    expect(() => checkClientTotals(order, { totalPriceKobo: 2_900_000, totalPoints: 7, totalQuantity: 3 })).not.toThrow();
    expect(() => checkClientTotals(order, { totalPriceKobo: null, totalPoints: null, totalQuantity: null })).not.toThrow();
    expect(() => checkClientTotals(order, { totalPriceKobo: 2_000_000, totalPoints: 7, totalQuantity: 3 })).toThrow('The total price does not match the prices of the selected products (₦29,000). Reload the products and try again.');
    expect(() => checkClientTotals(order, { totalPriceKobo: 2_900_000, totalPoints: 8, totalQuantity: 3 })).toThrow('The total points do not match the selected products (7 PV). Reload the products and try again.');
    expect(() => checkClientTotals(order, { totalPriceKobo: 2_900_000, totalPoints: 7, totalQuantity: 4 })).toThrow('The total quantity does not match the selected products (3).');
  });
});

const placed: ProductPurchaseInitiated['data'] = {
  purchase_id: 'u1', member_id: 'm1', pickup_type: 'repurchase_pickup', payment_method: 'payment_gateway', payment_id: 'p1',
  total_price_kobo: 2_900_000, total_points: 7, total_quantity: 3,
  lines: [
    { product_id: 1, name: 'Moringa Leaf Capsules', qty: 2, price_kobo: 850_000, points: 2 },
    { product_id: 3, name: 'Black Seed Oil 100 ml', qty: 1, price_kobo: 1_200_000, points: 3 },
  ],
};
const initiated: ProductPurchaseEvent = { type: 'ProductPurchaseInitiated', data: placed };
const paid: ProductPurchaseEvent = {
  type: 'ProductPurchasePaid',
  data: { purchase_id: 'u1', member_id: 'm1', pickup_type: 'repurchase_pickup', total_price_kobo: 2_900_000, total_points: 7, lines: placed.lines, payment_method: 'payment_gateway' },
};
const pay: PurchaseCommand = { type: 'RecordPayment', data: { purchase_id: 'u1', payment_method: 'payment_gateway' } };
const decline: PurchaseCommand = { type: 'RecordPaymentDeclined', data: { purchase_id: 'u1', payment_id: 'p1', reason: 'Receipt unreadable' } };

describe('a purchase is paid once', () => {
  it('records the purchase as priced', () => {
    given([]).when({ type: 'PlacePurchase', data: placed }).then([initiated]);
  });
  it('refuses to place the same purchase twice', () => {
    given([initiated]).when({ type: 'PlacePurchase', data: placed }).thenThrows('This purchase has already been placed.');
  });
  it('is paid with the lines and totals it was priced with (₦29,000, 7 PV)', () => {
    given([initiated]).when(pay).then([paid]);
  });
  it('records nothing when the payment is applied again (verify after webhook, a second approval)', () => {
    given([initiated, paid]).when(pay).then([]);
  });
  it('is declined with the admin\'s reason, once, and cannot be paid afterwards', () => {
    given([initiated]).when(decline).then([{ type: 'ProductPurchasePaymentDeclined', data: { purchase_id: 'u1', payment_id: 'p1', reason: 'Receipt unreadable' } }]);
    const declined: ProductPurchaseEvent = { type: 'ProductPurchasePaymentDeclined', data: { purchase_id: 'u1', payment_id: 'p1', reason: 'Receipt unreadable' } };
    given([initiated, declined]).when(decline).then([]);
    given([initiated, declined]).when(pay).thenThrows(/declined/);
  });
  it('cannot decline a paid purchase, nor pay an unknown one', () => {
    given([initiated, paid]).when(decline).thenThrows('This purchase has already been paid.');
    given([]).when(pay).thenThrows('Purchase not found.');
  });
});
