import { type Transaction, sql } from 'kysely';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import { type DailyTotals, amongKeys, keepingDailyTotalsAt, keepingDailyTotalsOf } from '../core/daily-totals';
import { type RowChange, projectRowsInBatches } from '../core/row-changes';
import { batchAt, projectRowsAt } from '../core/row-changes-at';
import type { Database } from '../database';
import { type ProductPurchaseEvent, type ProductPurchaseInitiated, productPurchaseEventTypes } from './events';

/**
 * Inline projection: product_purchases and their lines change with the purchase's events, in the
 * command's transaction (the member's purchase history shows an order at once).
 * Statuses: `awaiting_payment` (a card checkout not completed; not listed), `pending` (a receipt
 * awaiting an admin), `processing` (paid, to be picked up at a stockist), `approved` (collected), `declined`.
 * What each event does is data (purchaseRow, purchaseLines, purchaseChanges), written here one
 * event at a time and by rebuilds a batch at a time (projectPurchasesInBatches).
 */
export async function projectPurchases(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await keepingDailyTotalsOf(db, repurchaseTotals, events, () => writePurchases(db, events));
}

/**
 * What the admin dashboard sums of the orders (its repurchase pick-ups): a repurchase pick-up order
 * once paid and while not declined, on the Lagos day it was paid, for its total price.
 */
export const repurchaseTotals: DailyTotals = {
  table: 'daily_repurchase_totals',
  contributions: (keys) => sql`
    select (paid_at at time zone 'Africa/Lagos')::date as day, 'repurchase' as key, total_price as amount
    from product_purchases where ${amongKeys('id', keys)} and pickup_type = 'repurchase_pickup' and paid_at is not null and status <> 'declined'`,
  changedBy: { eventTypes: productPurchaseEventTypes, keyField: 'purchase_id' },
};

async function writePurchases(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const row = purchaseRow(recorded);
    if (row) {
      await db.insertInto('product_purchases').values(row).onConflict((oc) => oc.column('id').doNothing()).execute();
      await db.insertInto('product_purchase_lines').values(purchaseLines(recorded)).onConflict((oc) => oc.columns(['purchase_id', 'product_id']).doNothing()).execute();
    }
    for (const change of purchaseChanges(recorded)) await db.updateTable('product_purchases').set(change.set).where('id', '=', change.key).execute();
  }
}

/** The order an initiated purchase inserts (nothing is inserted when it is already there). */
export function purchaseRow(recorded: RecordedEvent) {
  if (recorded.type !== 'ProductPurchaseInitiated') return null;
  const d = (recorded as unknown as RecordedEvent<ProductPurchaseInitiated>).data;
  const at = new Date(recorded.recordedAt);
  return {
    id: d.purchase_id,
    member_id: d.member_id,
    pickup_type: d.pickup_type,
    payment_method: d.payment_method,
    payment_id: d.payment_id,
    total_price: d.total_price_kobo,
    total_points: d.total_points,
    total_quantity: d.total_quantity,
    status: d.payment_method === 'pop' ? ('pending' as const) : ('awaiting_payment' as const),
    order_code: d.order_code ?? null,
    created_at: at,
    updated_at: at,
    global_position: recorded.globalPosition,
  };
}

/** Its lines (each (purchase, product) once: a line already there is kept). */
export function purchaseLines(recorded: RecordedEvent) {
  if (recorded.type !== 'ProductPurchaseInitiated') return [];
  const d = (recorded as unknown as RecordedEvent<ProductPurchaseInitiated>).data;
  return d.lines.map((line) => ({ purchase_id: d.purchase_id, product_id: line.product_id, name: line.name, qty: line.qty, price: line.price_kobo, points: line.points }));
}

/** The changes the purchase's other events make to its order. */
export function purchaseChanges(recorded: RecordedEvent): Array<RowChange & { set: Record<string, unknown> }> {
  const event = recorded as unknown as RecordedEvent<ProductPurchaseEvent>;
  const at = new Date(recorded.recordedAt);
  switch (event.type) {
    case 'ProductPurchaseInitiated':
      return [];
    case 'ProductPurchasePaid':
      return [{ key: event.data.purchase_id, set: { status: 'processing', payment_method: event.data.payment_method, paid_at: at, updated_at: at } }];
    case 'ProductPurchasePaymentDeclined':
    case 'ProductPurchaseClaimDeclined':
      return [{ key: event.data.purchase_id, set: { status: 'declined', status_reason: event.data.reason, updated_at: at } }];
    case 'ProductPurchaseCollected':
      return [{ key: event.data.purchase_id, set: { status: 'approved', stockist_id: event.data.stockist_id, collected_at: at, collected_by: event.data.by, updated_at: at } }];
    default: {
      const unknownEvent: never = event;
      void unknownEvent;
      return [];
    }
  }
}

const purchasesInBatches = projectRowsInBatches({ table: 'product_purchases', key: { column: 'id', type: 'uuid' }, insertOf: purchaseRow, changesOf: [purchaseChanges] });

/**
 * The product-purchases read model a batch at a time (rebuilds; core/row-changes.ts): the orders
 * and their changes, then every line of the batch in one insert (the first of a (purchase,
 * product) kept, as one by one; lines never change, so their order against the orders' changes
 * does not matter).
 */
export async function projectPurchasesInBatches(trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void> {
  await keepingDailyTotalsOf(trx, repurchaseTotals, events, () => purchasesInBatches(trx, events));
  const lines = events.flatMap(purchaseLines);
  if (lines.length === 0) return;
  await sql`
    insert into product_purchase_lines (purchase_id, product_id, name, qty, price, points)
    select * from unnest(
      ${sql.val(lines.map((l) => l.purchase_id))}::uuid[], ${sql.val(lines.map((l) => l.product_id))}::int[], ${sql.val(lines.map((l) => l.name))}::text[],
      ${sql.val(lines.map((l) => l.qty))}::int[], ${sql.val(lines.map((l) => l.price))}::bigint[], ${sql.val(lines.map((l) => l.points))}::int[])
    on conflict (purchase_id, product_id) do nothing`.execute(trx);
}

const purchasesAt = projectRowsAt({
  table: 'product_purchases',
  key: { column: 'id', type: 'uuid' },
  inserts: sql`
    select data->>'purchase_id' as key, ord, jsonb_build_object(
      'id', data->'purchase_id', 'member_id', data->'member_id', 'pickup_type', data->'pickup_type', 'payment_method', data->'payment_method', 'payment_id', data->'payment_id',
      'total_price', data->'total_price_kobo', 'total_points', data->'total_points', 'total_quantity', data->'total_quantity',
      'status', case when data->>'payment_method' = 'pop' then 'pending' else 'awaiting_payment' end, 'order_code', data->'order_code',
      'created_at', recorded_at, 'updated_at', recorded_at, 'global_position', global_position) as row
    from batch where type = 'ProductPurchaseInitiated'`,
  changes: sql`
    select data->>'purchase_id' as key, ord, 0 as sub,
      case type
        when 'ProductPurchasePaid' then jsonb_build_object('status', 'processing', 'payment_method', data->'payment_method', 'paid_at', recorded_at, 'updated_at', recorded_at)
        when 'ProductPurchaseCollected' then jsonb_build_object('status', 'approved', 'stockist_id', data->'stockist_id', 'collected_at', recorded_at, 'collected_by', data->'by', 'updated_at', recorded_at)
        else jsonb_build_object('status', 'declined', 'status_reason', data->'reason', 'updated_at', recorded_at)
      end as set
    from batch where type in ('ProductPurchasePaid', 'ProductPurchasePaymentDeclined', 'ProductPurchaseClaimDeclined', 'ProductPurchaseCollected')`,
  settable: ['status', 'payment_method', 'paid_at', 'status_reason', 'stockist_id', 'collected_at', 'collected_by', 'updated_at'],
});

/**
 * projectPurchasesInBatches inside PostgreSQL (rebuilds' `applyAt`: the batch by log position,
 * core/row-changes-at.ts): the orders in one statement, then every line of the batch in another
 * (the first of a (purchase, product) kept). purchases-batch.property.int.spec.ts compares it with
 * the event-by-event projection.
 */
export async function projectPurchasesAt(trx: Transaction<Database>, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await keepingDailyTotalsAt(trx, repurchaseTotals, positions, () => purchasesAt(trx, positions));
  await sql`
    insert into product_purchase_lines (purchase_id, product_id, name, qty, price, points)
    select (b.data->>'purchase_id')::uuid, (l.value->>'product_id')::int, l.value->>'name', (l.value->>'qty')::int, (l.value->>'price_kobo')::bigint, (l.value->>'points')::int
    from (${batchAt(positions)}) b cross join lateral jsonb_array_elements(b.data->'lines') with ordinality as l(value, n)
    where b.type = 'ProductPurchaseInitiated'
    order by b.ord, l.n
    on conflict (purchase_id, product_id) do nothing`.execute(trx);
}
