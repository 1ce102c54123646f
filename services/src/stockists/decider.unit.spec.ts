import { describe, expect, it } from 'vitest';
import { foldEvents } from '../core/command';
import { decideStock, decideStockPurchase, decideStockist, normaliseState, stockDecider, stockistDecider, stockPurchaseDecider } from './decider';
import type { StockEvent, StockPurchaseEvent, StockistEvent } from './events';

const applied: StockistEvent = {
  type: 'StockistApplied',
  data: { stockist_id: 'st', member_id: 'k', store_name: 'Ikeja Herbs', store_address: '12 Allen', store_state: 'lagos', store_phone: '0803', package_id: 1, signee_id: 'sig', payment_id: 'p1', amount_kobo: 10_000_000, receipt_path: null },
};
const mini = { id: 1, name: 'Mini', registration_value_kobo: 10_000_000, sales_bonus_percentage: 5, pickup_amount_kobo: 8_000_000 };
const standard = { id: 2, name: 'Standard', registration_value_kobo: 25_000_000, sales_bonus_percentage: 7, pickup_amount_kobo: 21_000_000 };
const approve = { type: 'Approve' as const, data: { stockist_id: 'st', signee_active: true, stockist_package: mini, stockist_referral_bonus_percentage: 5 } };

describe('the stockist decider (Given events / When command / Then events)', () => {
  it('approves a pending application once; a decided one is neither approved nor disapproved again', () => {
    const state = foldEvents(stockistDecider, [applied]);
    const events = decideStockist(approve, state);
    expect(events.map((e) => e.type)).toEqual(['StockistApproved']);
    const after = foldEvents(stockistDecider, [applied, ...events]);
    expect(() => decideStockist(approve, after)).toThrow('This stockist application is no longer pending.');
    expect(() => decideStockist({ type: 'Disapprove', data: { reason: 'x' } }, after)).toThrow('This stockist application is no longer pending.');
  });

  it('an upgrade from Mini to Standard allows a pick-up of ₦210,000 − ₦80,000 = ₦130,000; one at a time', () => {
    const base = [applied, ...decideStockist(approve, foldEvents(stockistDecider, [applied]))];
    const request = { type: 'RequestUpgrade' as const, data: { stockist_id: 'st', member_id: 'k', payment_id: 'p2', from_package_id: 1, to_package_id: 2, amount_kobo: 15_000_000, receipt_path: null } };
    const requested = decideStockist(request, foldEvents(stockistDecider, base));
    expect(() => decideStockist({ ...request, data: { ...request.data, payment_id: 'p3' } }, foldEvents(stockistDecider, [...base, ...requested]))).toThrow('You already have a stockist upgrade awaiting approval.');
    const done = decideStockist({ type: 'ApproveUpgrade', data: { payment_id: 'p2', from_package: mini, to_package: standard } }, foldEvents(stockistDecider, [...base, ...requested]));
    expect(done).toEqual([expect.objectContaining({ type: 'StockistUpgradeApproved', data: expect.objectContaining({ pickup_allowance_kobo: 13_000_000, amount_kobo: 15_000_000 }) })]);
    const state = foldEvents(stockistDecider, [...base, ...requested, ...done]);
    expect(state.status !== 'none' && state.packageId).toBe(2);
  });
});

describe('the stock purchase decider', () => {
  const request = { type: 'Request' as const, data: { purchase_id: 'sp', stockist_id: 'st', member_id: 'k', pickup_type: 'registration_pickup' as const, package_id: 1, allowance_key: 'st', allowance_kobo: 8_000_000, total_price_kobo: 8_000_001, total_points: 1, total_quantity: 1, lines: [], receipt_path: null } };
  it('refuses ₦80,000.01 against an ₦80,000 registration allowance, accepts exactly ₦80,000', () => {
    expect(() => decideStockPurchase(request, foldEvents(stockPurchaseDecider, []))).toThrow('Total selected product price is higher than pickup amount');
    expect(() => decideStockPurchase({ ...request, data: { ...request.data, pickup_type: 're-stock' } }, foldEvents(stockPurchaseDecider, []))).toThrow('There selected Items total price is greater than the pickup amount');
    const events: StockPurchaseEvent[] = decideStockPurchase({ ...request, data: { ...request.data, total_price_kobo: 8_000_000 } }, foldEvents(stockPurchaseDecider, []));
    const approved = decideStockPurchase({ type: 'Approve', data: { sponsor_chain: [], stockist_upline_tables: {} } }, foldEvents(stockPurchaseDecider, events));
    expect(() => decideStockPurchase({ type: 'Decline', data: { reason: 'x' } }, foldEvents(stockPurchaseDecider, [...events, ...approved]))).toThrow('This stock purchase has already been decided.');
  });
});

describe('the stock decider: stock never goes below zero', () => {
  it('Given 5 Moringa added and 3 taken, When 3 more are taken, Then it refuses; 2 may be taken', () => {
    const history: StockEvent[] = [
      { type: 'StockAdded', data: { stockist_id: 'st', stock_purchase_id: 'sp', lines: [{ product_id: 1, qty: 5 }] } },
      { type: 'StockTaken', data: { stockist_id: 'st', purchase_id: 'o1', lines: [{ product_id: 1, qty: 3 }] } },
    ];
    const state = foldEvents(stockDecider, history);
    expect(() => decideStock({ type: 'Take', data: { stockist_id: 'st', purchase_id: 'o2', lines: [{ product_id: 1, qty: 3 }] } }, state)).toThrow("You don't have enough stock to process this order");
    expect(() => decideStock({ type: 'Take', data: { stockist_id: 'st', purchase_id: 'o2', lines: [{ product_id: 9, qty: 1 }] } }, state)).toThrow("You don't have enough stock");
    expect(decideStock({ type: 'Take', data: { stockist_id: 'st', purchase_id: 'o2', lines: [{ product_id: 1, qty: 2 }] } }, state)).toHaveLength(1);
  });
});

describe('states', () => {
  it('stores the 36 states and FCT lower-cased, and nothing else', () => {
    expect(normaliseState('  Akwa  Ibom ')).toBe('akwa ibom');
    expect(normaliseState('FCT')).toBe('fct - abuja');
    expect(normaliseState('Abuja')).toBe('fct - abuja');
    expect(normaliseState('Lagos State')).toBeNull();
  });
});

describe('a re-stock paid by card (Given events / When command / Then events)', () => {
  const requested: StockPurchaseEvent = {
    type: 'StockPurchaseRequested',
    data: {
      purchase_id: 'sp1', stockist_id: 'st', member_id: 'k', pickup_type: 're-stock', package_id: 1, allowance_key: null, allowance_kobo: 2_900_000,
      total_price_kobo: 2_400_000, total_points: 6, total_quantity: 2, lines: [{ product_id: 2, name: 'Black Seed Oil', qty: 2, price_kobo: 1_200_000, points: 3 }], receipt_path: null, payment_id: 'pay1',
    },
  };
  const approve = { type: 'Approve' as const, data: { sponsor_chain: [], stockist_upline_tables: {} } };

  it('waits for its payment: no approval before it; the payment sends it to the admins once, replays record nothing', () => {
    const waiting = foldEvents(stockPurchaseDecider, [requested]);
    expect(waiting.status).toBe('awaiting_payment');
    expect(() => decideStockPurchase(approve, waiting)).toThrow('This stock purchase is not paid yet: its card payment has not been confirmed.');
    expect(() => decideStockPurchase({ type: 'RecordPaid', data: { payment_id: 'other' } }, waiting)).toThrow('This payment does not pay for this stock purchase.');
    const paid = decideStockPurchase({ type: 'RecordPaid', data: { payment_id: 'pay1' } }, waiting);
    expect(paid).toEqual([{ type: 'StockPurchasePaid', data: { purchase_id: 'sp1', stockist_id: 'st', payment_id: 'pay1' } }]);
    const processing = foldEvents(stockPurchaseDecider, [requested, ...paid]);
    expect(decideStockPurchase({ type: 'RecordPaid', data: { payment_id: 'pay1' } }, processing)).toEqual([]);
    expect(decideStockPurchase(approve, processing).map((e) => e.type)).toEqual(['StockPurchaseApproved']);
  });

  it('an abandoned checkout may be declined; money arriving afterwards is refused (the payment is then flagged to admins)', () => {
    const declined = decideStockPurchase({ type: 'Decline', data: { reason: 'Checkout abandoned' } }, foldEvents(stockPurchaseDecider, [requested]));
    expect(declined.map((e) => e.type)).toEqual(['StockPurchaseDeclined']);
    const after = foldEvents(stockPurchaseDecider, [requested, ...declined]);
    expect(() => decideStockPurchase({ type: 'RecordPaid', data: { payment_id: 'pay1' } }, after)).toThrow('This stock purchase has already been decided.');
    expect(() => decideStockPurchase(approve, after)).toThrow('This stock purchase has already been decided.');
  });
});
