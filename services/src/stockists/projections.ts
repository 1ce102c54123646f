import { sql } from 'kysely';
import type { Consumer } from '../core/consumers';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import { type MemberChange, applyMemberChange } from '../membership/member-changes';
import type { StockEvent, StockPurchaseEvent, StockistEvent } from './events';

/**
 * Inline projection of the stockist and stock-purchase streams (the next screen shows them at
 * once): stockists, stockist_payments (the package payments a stockist made), stock_purchases and
 * their lines. An approved stockist is flagged on the members row (the menu reads is_stockist).
 */
export async function projectStockists(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  await projectStockistRecords(db, events);
  await projectStockistFlag(db, events);
}

/** An approved stockist's flag on the `members` row (the `members` read model, read-models.ts). */
export async function projectStockistFlag(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) for (const change of stockistFlagChanges(recorded)) await applyMemberChange(db, change);
}

/** The stockist flag an approval sets on the members row (MemberChange: one event or a batch at a time). */
export function stockistFlagChanges(recorded: RecordedEvent): MemberChange[] {
  if (recorded.type !== 'StockistApproved') return [];
  const event = recorded as unknown as RecordedEvent<StockistEvent & { type: 'StockistApproved' }>;
  return [{ memberId: event.data.member_id, set: { is_stockist: true } }];
}

/** stockistFlagChanges in SQL over a batch's events (core/row-changes-at.ts `changes`). */
export const stockistFlagChangesSql = sql`
  select data->>'member_id' as key, ord, 0 as sub, '{"is_stockist": true}'::jsonb as set, null::jsonb as add
  from batch where type = 'StockistApproved'`;

/** stockists, stockist_payments, stock_purchases and their lines (the `stockists` read model). */
export async function projectStockistRecords(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<StockistEvent | StockPurchaseEvent | StockEvent>;
    const at = new Date(recorded.recordedAt);
    switch (event.type) {
      case 'StockistApplied': {
        const d = event.data;
        await db
          .insertInto('stockists')
          .values({
            id: d.stockist_id, member_id: d.member_id, store_name: d.store_name, store_address: d.store_address, store_state: d.store_state, store_phone: d.store_phone,
            package_id: d.package_id, signee_id: d.signee_id, status: 'pending', payment_id: d.payment_id, receipt_path: d.receipt_path, registration_value: d.amount_kobo,
            created_at: at, approved_at: null, updated_at: at, global_position: recorded.globalPosition,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        await db
          .insertInto('stockist_payments')
          .values({ id: d.payment_id, stockist_id: d.stockist_id, member_id: d.member_id, kind: 'registration', package_id: d.package_id, from_package_id: null, amount: d.amount_kobo, receipt_path: d.receipt_path, status: 'pending', created_at: at, decided_at: null, global_position: recorded.globalPosition })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'StockistApproved':
        await db.updateTable('stockists').set({ status: 'approved', approved_at: at, updated_at: at }).where('id', '=', event.data.stockist_id).execute();
        await db.updateTable('stockist_payments').set({ status: 'approved', decided_at: at }).where('id', '=', event.data.payment_id).execute();
        break;
      case 'StockistDisapproved':
        await db.updateTable('stockists').set({ status: 'disapproved', updated_at: at }).where('id', '=', event.data.stockist_id).execute();
        await db.updateTable('stockist_payments').set({ status: 'disapproved', decided_at: at }).where('id', '=', event.data.payment_id).execute();
        break;
      case 'StockistProfileUpdated': {
        const { stockist_id, ...fields } = event.data;
        await db.updateTable('stockists').set({ ...fields, updated_at: at }).where('id', '=', stockist_id).execute();
        break;
      }
      case 'StockistUpgradeRequested': {
        const d = event.data;
        await db
          .insertInto('stockist_payments')
          .values({ id: d.payment_id, stockist_id: d.stockist_id, member_id: d.member_id, kind: 'upgrade', package_id: d.to_package_id, from_package_id: d.from_package_id, amount: d.amount_kobo, receipt_path: d.receipt_path, status: 'processing', created_at: at, decided_at: null, global_position: recorded.globalPosition })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'StockistUpgradeApproved':
        await db.updateTable('stockist_payments').set({ status: 'approved', decided_at: at }).where('id', '=', event.data.payment_id).execute();
        await db.updateTable('stockists').set({ package_id: event.data.to_package.id, updated_at: at }).where('id', '=', event.data.stockist_id).execute();
        break;
      case 'StockistUpgradeDisapproved':
        await db.updateTable('stockist_payments').set({ status: 'disapproved', decided_at: at }).where('id', '=', event.data.payment_id).execute();
        break;
      case 'StockPurchaseRequested': {
        const d = event.data;
        await db
          .insertInto('stock_purchases')
          .values({
            id: d.purchase_id, stockist_id: d.stockist_id, member_id: d.member_id, pickup_type: d.pickup_type, package_id: d.package_id, total_price: d.total_price_kobo,
            total_points: d.total_points, total_quantity: d.total_quantity, receipt_path: d.receipt_path, status: d.payment_id ? 'awaiting_payment' : 'processing', payment_id: d.payment_id ?? null,
            status_reason: null, created_at: at, decided_at: null,
            global_position: recorded.globalPosition,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        await db
          .insertInto('stock_purchase_lines')
          .values(d.lines.map((l) => ({ purchase_id: d.purchase_id, product_id: l.product_id, name: l.name, qty: l.qty, price: l.price_kobo, points: l.points })))
          .onConflict((oc) => oc.columns(['purchase_id', 'product_id']).doNothing())
          .execute();
        break;
      }
      case 'StockPurchasePaid':
        await db.updateTable('stock_purchases').set({ status: 'processing' }).where('id', '=', event.data.purchase_id).where('status', '=', 'awaiting_payment').execute();
        break;
      case 'StockPurchaseApproved':
        await db.updateTable('stock_purchases').set({ status: 'approved', decided_at: at }).where('id', '=', event.data.purchase_id).execute();
        break;
      case 'StockPurchaseDeclined':
        await db.updateTable('stock_purchases').set({ status: 'declined', status_reason: event.data.reason, decided_at: at }).where('id', '=', event.data.purchase_id).execute();
        break;
      case 'StockAdded':
      case 'StockTaken':
        // The stock read model is the worker's (stockStockProjection below).
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}

/**
 * Each stockist's stock by product, built by the worker from StockAdded / StockTaken (BUSINESS-RULES.md §5).
 * The decision to take stock is made on the `stock-<id>` stream; this table is what the records show.
 */
export const stockistStockProjection: Consumer = {
  name: 'stockist-stock',
  kind: 'projection',
  eventTypes: ['StockAdded', 'StockTaken'],
  tables: ['stockist_stock'],
  batchSize: 500,
  async apply(trx, events) {
    const changes = new Map<string, { stockist: string; product: number; qty: number; at: string }>();
    for (const recorded of events) {
      const event = recorded as RecordedEvent<StockEvent>;
      const sign = event.type === 'StockAdded' ? 1 : -1;
      for (const line of event.data.lines) {
        const key = `${event.data.stockist_id}:${line.product_id}`;
        const change = changes.get(key) ?? { stockist: event.data.stockist_id, product: line.product_id, qty: 0, at: recorded.recordedAt };
        change.qty += sign * line.qty;
        change.at = recorded.recordedAt;
        changes.set(key, change);
      }
    }
    if (changes.size === 0) return;
    const list = [...changes.values()];
    await sql`
      insert into stockist_stock (stockist_id, product_id, quantity, updated_at)
      select * from unnest(${sql.val(list.map((c) => c.stockist))}::uuid[], ${sql.val(list.map((c) => c.product))}::int[], ${sql.val(list.map((c) => c.qty))}::int[], ${sql.val(list.map((c) => c.at))}::timestamptz[])
      on conflict (stockist_id, product_id) do update set quantity = stockist_stock.quantity + excluded.quantity, updated_at = excluded.updated_at`.execute(trx);
  },
};
