import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../core/event-store';
import type { ProductPurchaseCollected } from '../purchases/events';
import type { StockPurchaseApproved, StockistApproved } from '../stockists/events';
import type { CompensationEvent } from './events';
import { type PendingPaymentsAt, signeeDecisions, stockistRebateDecisions, stockistUplineDecisions } from './stockist-bonuses';

/** Given a cause event as recorded / When the compensation policy decides / Then these bonuses. No database is read. */
function recorded<E extends { type: string; data: unknown }>(event: E): RecordedEvent {
  return {
    ...event,
    eventId: `ev-${event.type}`,
    streamId: 'stream-1',
    streamPosition: 2,
    globalPosition: 10,
    recordedAt: '2026-11-25T10:00:00.000Z',
    metadata: { actor: { type: 'admin', id: 'a' }, now: '2026-11-25T10:00:00.000Z' },
  } as unknown as RecordedEvent;
}
/** No beneficiary had a registration payment awaiting a decision at the cause. */
const noDb: PendingPaymentsAt = async () => new Map();
/** These beneficiaries each had their registration receipt awaiting an admin at the cause. */
const pendingFor = (payments: Record<string, string>): PendingPaymentsAt => async (_recorded, ids) => new Map(ids.map((id) => [id, payments[id] ?? null]));
const summary = (events: CompensationEvent[]) =>
  events.map((e) => ({ type: e.type, kind: e.data.kind, beneficiary: e.data.beneficiary_id, amount: e.data.amount_kobo, generation: e.data.generation, cause: e.data.cause.event_type, ...(e.type === 'BonusWithheld' ? { reason: e.data.reason } : {}) }));

const mini = { id: 1, name: 'Mini Stockist', registration_value_kobo: 10_000_000, sales_bonus_percentage: 5, pickup_amount_kobo: 8_000_000 };
const approved = (signeeActive: boolean): StockistApproved => ({
  type: 'StockistApproved',
  data: { stockist_id: 'st', member_id: 'k', payment_id: 'p', signee_id: 'sig', signee_active: signeeActive, stockist_package: mini, stockist_referral_bonus_percentage: 5 },
});

describe('signee bonus (Given StockistApproved on Mini Stockist ₦100,000, stockist_referral_bonus_percentage 5)', () => {
  it('pays the signee 5% × ₦100,000 = ₦5,000 (500,000 kobo), with its formula inputs', async () => {
    const events = await signeeDecisions(noDb, recorded(approved(true)));
    expect(summary(events)).toEqual([{ type: 'BonusCredited', kind: 'signee', beneficiary: 'sig', amount: 500_000, generation: null, cause: 'StockistApproved' }]);
    expect(events[0]!.data.inputs).toEqual({ base_kobo: 10_000_000, percentage: 5, stockist_package_id: 1 });
  });

  it('withholds the ₦5,000 when the signee was not active at the approval', async () => {
    expect(summary(await signeeDecisions(noDb, recorded(approved(false))))).toEqual([{ type: 'BonusWithheld', kind: 'signee', beneficiary: 'sig', amount: 500_000, generation: null, cause: 'StockistApproved', reason: 'inactive_beneficiary' }]);
  });

  it('holds the ₦5,000 on the signee\'s own registration payment when it awaited an admin at the approval', async () => {
    const events = await signeeDecisions(pendingFor({ sig: 'pay-sig' }), recorded(approved(false)));
    expect(events).toMatchObject([{ type: 'BonusHeld', data: { kind: 'signee', beneficiary_id: 'sig', amount_kobo: 500_000, payment_id: 'pay-sig' } }]);
  });
});

describe('stockist upline bonus (Given StockPurchaseApproved of ₦66,500 by stockist k)', () => {
  const stock = (chain: StockPurchaseApproved['data']['sponsor_chain']): StockPurchaseApproved => ({
    type: 'StockPurchaseApproved',
    data: {
      purchase_id: 'sp', stockist_id: 'st', member_id: 'k', pickup_type: 'registration_pickup', total_price_kobo: 6_650_000,
      lines: [{ product_id: 1, name: 'Moringa', qty: 5, price_kobo: 850_000, points: 2 }, { product_id: 3, name: 'Black Seed', qty: 2, price_kobo: 1_200_000, points: 3 }],
      sponsor_chain: chain,
      stockist_upline_tables: { '2': [3, 2, 1, 1, 0, 0, 0, 0, 0, 0], '4': [4, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0, 0] },
    },
  });

  it('pays gen 1 (Bronze) 3% = ₦1,995, gen 2 (Gold) 3% = ₦1,995, gen 3 (Bronze) 1% = ₦665: each by its own package', async () => {
    const events = await stockistUplineDecisions(noDb, recorded(stock([
      { member_id: 's1', package_id: 2, active: true },
      { member_id: 's2', package_id: 4, active: true },
      { member_id: 's3', package_id: 2, active: true },
    ])));
    expect(summary(events)).toEqual([
      { type: 'BonusCredited', kind: 'stockist_upline', beneficiary: 's1', amount: 199_500, generation: 1, cause: 'StockPurchaseApproved' },
      { type: 'BonusCredited', kind: 'stockist_upline', beneficiary: 's2', amount: 199_500, generation: 2, cause: 'StockPurchaseApproved' },
      { type: 'BonusCredited', kind: 'stockist_upline', beneficiary: 's3', amount: 66_500, generation: 3, cause: 'StockPurchaseApproved' },
    ]);
  });

  it('withholds gen 1\'s 3% = ₦1,995 when it was inactive at the approval, and still pays gen 2 2% × ₦66,500 = ₦1,330 on Bronze', async () => {
    const events = await stockistUplineDecisions(noDb, recorded(stock([{ member_id: 's1', package_id: 2, active: false }, { member_id: 's2', package_id: 2, active: true }])));
    expect(summary(events)).toEqual([
      { type: 'BonusWithheld', kind: 'stockist_upline', beneficiary: 's1', amount: 199_500, generation: 1, cause: 'StockPurchaseApproved', reason: 'inactive_upline' },
      { type: 'BonusCredited', kind: 'stockist_upline', beneficiary: 's2', amount: 133_000, generation: 2, cause: 'StockPurchaseApproved' },
    ]);
  });

  it('holds gen 1\'s ₦1,995 on its pending registration payment instead of withholding it', async () => {
    const events = await stockistUplineDecisions(pendingFor({ s1: 'pay-s1' }), recorded(stock([{ member_id: 's1', package_id: 2, active: false }, { member_id: 's2', package_id: 2, active: true }])));
    expect(events.map((e) => [e.type, e.data.beneficiary_id, e.data.amount_kobo])).toEqual([['BonusHeld', 's1', 199_500], ['BonusCredited', 's2', 133_000]]);
    expect(events[0]).toMatchObject({ data: { payment_id: 'pay-s1', generation: 1 } });
  });
});

describe('stockist rebate (Given ProductPurchaseCollected of ₦20,500)', () => {
  const collected = (over: Partial<ProductPurchaseCollected['data']>): ProductPurchaseCollected => ({
    type: 'ProductPurchaseCollected',
    data: {
      purchase_id: 'o', member_id: 'm', pickup_type: 'repurchase_pickup', total_price_kobo: 2_050_000, lines: [],
      by: 'stockist', stockist_id: 'st', stockist_member_id: 'k', stockist_package_id: 2, sales_bonus_percentage: 7, stockist_active: true, ...over,
    },
  });

  it('pays the stockist its package\'s 7% × ₦20,500 = ₦1,435 (143,500 kobo)', async () => {
    expect(summary(await stockistRebateDecisions(noDb, recorded(collected({}))))).toEqual([{ type: 'BonusCredited', kind: 'stockist_rebate', beneficiary: 'k', amount: 143_500, generation: null, cause: 'ProductPurchaseCollected' }]);
  });

  it('rounds down: 5% × ₦20,500.30 = 102,501.5 kobo → 102,501 kobo', async () => {
    expect(summary(await stockistRebateDecisions(noDb, recorded(collected({ total_price_kobo: 2_050_030, sales_bonus_percentage: 5 }))))[0]!.amount).toBe(102_501);
  });

  it('pays no rebate for an order an admin handed over at the head office', async () => {
    expect(await stockistRebateDecisions(noDb, recorded(collected({ by: 'admin', stockist_id: null, stockist_member_id: null, stockist_package_id: null, sales_bonus_percentage: null, stockist_active: null })))).toEqual([]);
  });
});
