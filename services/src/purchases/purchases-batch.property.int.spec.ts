import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { recountedTotals } from '../../test/daily-totals';
import { bothSidesFromLog, cutIntoBatches, inRolledBackTransaction, syntheticLog, tableRows } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import { projectPurchases, projectPurchasesAt, projectPurchasesInBatches, repurchaseTotals } from './projections';

/**
 * The product-purchases read model a batch at a time (as rebuilds apply it) leaves exactly the
 * orders and lines the commands' projection leaves one event at a time: generated sequences of
 * every purchase event over a few orders, cut into random batches, with changes before an order's
 * initiation, initiations repeated (with other lines), several changes of an order in one batch,
 * and times out of order (the last event wins, not the latest time). Every path keeps the daily
 * repurchase totals equal to the orders it left, summed by the Lagos day each was paid.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Trx = Transaction<Database>;

const recorded = syntheticLog();

const ORDERS = 4;
type Step = { type: string; order: number; n: number; products: number[]; minute: number };
const step: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom('ProductPurchaseInitiated', 'ProductPurchaseInitiated', 'ProductPurchasePaid', 'ProductPurchasePaymentDeclined', 'ProductPurchaseClaimDeclined', 'ProductPurchaseCollected'),
  order: fc.integer({ min: 0, max: ORDERS - 1 }),
  n: fc.integer({ min: 0, max: 1000 }),
  products: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
  minute: fc.integer({ min: 0, max: 20_000 }),
});

function event(ids: string[], member: string, s: Step): RecordedEvent {
  const purchase_id = ids[s.order]!;
  const methods = ['payment_gateway', 'pop', 'wallet', 'allowance'] as const;
  const pickups = ['registration_pickup', 'upgrade_pickup', 'repurchase_pickup'] as const;
  const lines = s.products.map((p) => ({ product_id: p, name: `P${p}-${s.n}`, qty: 1 + (s.n % 3), price_kobo: 100 * s.n, points: s.n % 7 }));
  switch (s.type) {
    case 'ProductPurchaseInitiated':
      return recorded(s.type, {
        purchase_id, member_id: member, pickup_type: pickups[s.n % 3], payment_method: methods[s.n % 4], payment_id: s.n % 2 ? randomUUID() : null,
        total_price_kobo: 100 * s.n, total_points: s.n % 7, total_quantity: lines.length, lines, ...(s.n % 5 === 0 ? {} : { order_code: `R${s.order}-${s.n}` }),
      }, s.minute);
    case 'ProductPurchasePaid':
      return recorded(s.type, { purchase_id, member_id: member, pickup_type: pickups[s.n % 3], total_price_kobo: 0, total_points: 0, lines, payment_method: methods[s.n % 4] }, s.minute);
    case 'ProductPurchasePaymentDeclined':
      return recorded(s.type, { purchase_id, payment_id: randomUUID(), reason: `declined ${s.n}` }, s.minute);
    case 'ProductPurchaseClaimDeclined':
      return recorded(s.type, { purchase_id, member_id: member, pickup_type: pickups[s.n % 3], reason: `claim ${s.n}` }, s.minute);
    default:
      return recorded('ProductPurchaseCollected', {
        purchase_id, member_id: member, pickup_type: pickups[s.n % 3], total_price_kobo: 0, lines, by: s.n % 2 ? 'stockist' : 'admin', stockist_id: s.n % 2 ? randomUUID() : null,
        stockist_member_id: null, stockist_package_id: null, sales_bonus_percentage: null, stockist_active: null,
      }, s.minute);
  }
}

/** The orders, their lines and the daily repurchase totals, which must be the orders' own sum by paid day whatever path wrote them. */
const ordersAndLines = async (trx: Trx) => {
  const days = await tableRows(trx, 'select to_jsonb(d) as row from daily_repurchase_totals d order by day, key');
  const summed = await tableRows(trx, `
    select jsonb_build_object('day', day, 'key', 'repurchase', 'n', n, 'amount', amount) as row from (
      select (paid_at at time zone 'Africa/Lagos')::date as day, count(*) as n, sum(total_price) as amount from product_purchases
      where pickup_type = 'repurchase_pickup' and paid_at is not null and status <> 'declined' group by 1) s order by day`);
  expect(days, 'the daily repurchase totals are the paid orders summed by day').toEqual(summed);
  expect(await recountedTotals(trx, repurchaseTotals), 'recounted from every row (recountDailyTotals)').toEqual(days);
  return {
    orders: await tableRows(trx, 'select to_jsonb(p) as row from product_purchases p order by id'),
    lines: await tableRows(trx, 'select to_jsonb(l) as row from product_purchase_lines l order by purchase_id, product_id'),
    days,
  };
};

async function rowsAfter(apply: (trx: Trx) => Promise<void>): Promise<{ orders: unknown[]; lines: unknown[]; days: unknown[] }> {
  let result = { orders: [] as unknown[], lines: [] as unknown[], days: [] as unknown[] };
  await inRolledBackTransaction(t.db, async (trx) => {
    await apply(trx);
    result = await ordersAndLines(trx);
  });
  return result;
}

describe('product purchases, a batch at a time', () => {
  it('leaves the same orders and lines as the commands’ projection applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const ids = Array.from({ length: ORDERS }, () => randomUUID());
        const member = randomUUID();
        const log = steps.map((s) => event(ids, member, s));
        const batches = cutIntoBatches(log, cuts);
        const expected = await rowsAfter(async (trx) => {
          for (const e of log) await projectPurchases(trx, [e]);
        });
        const actual = await rowsAfter(async (trx) => {
          for (const batch of batches) await projectPurchasesInBatches(trx, batch);
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('in SQL (rebuilds’ applyAt, the batch by log position) leaves the same orders and lines as the projection applied event by event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 30, size: 'max' }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const ids = Array.from({ length: ORDERS }, () => randomUUID());
        const member = randomUUID();
        const log = steps.map((s) => event(ids, member, s));
        const { expected, actual } = await bothSidesFromLog(t.db, log, cuts, {
          eventByEvent: async (trx, logged) => {
            for (const e of logged) await projectPurchases(trx, [e]);
          },
          atPositions: projectPurchasesAt,
          rows: ordersAndLines,
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
