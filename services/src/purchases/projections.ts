import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { ProductPurchaseEvent } from './events';

/**
 * Inline projection: product_purchases and their lines change with the purchase's events, in the
 * command's transaction (the member's purchase history shows an order at once).
 * Statuses: `awaiting_payment` (a card checkout not completed; not listed), `pending` (a receipt
 * awaiting an admin), `processing` (paid, to be picked up at a stockist), `approved` (collected), `declined`.
 */
export async function projectPurchases(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<ProductPurchaseEvent>;
    const at = new Date(recorded.recordedAt);
    switch (event.type) {
      case 'ProductPurchaseInitiated': {
        const d = event.data;
        await db
          .insertInto('product_purchases')
          .values({
            id: d.purchase_id,
            member_id: d.member_id,
            pickup_type: d.pickup_type,
            payment_method: d.payment_method,
            payment_id: d.payment_id,
            total_price: d.total_price_kobo,
            total_points: d.total_points,
            total_quantity: d.total_quantity,
            status: d.payment_method === 'pop' ? 'pending' : 'awaiting_payment',
            order_code: d.order_code ?? null,
            created_at: at,
            updated_at: at,
            global_position: recorded.globalPosition,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        await db
          .insertInto('product_purchase_lines')
          .values(d.lines.map((line) => ({ purchase_id: d.purchase_id, product_id: line.product_id, name: line.name, qty: line.qty, price: line.price_kobo, points: line.points })))
          .onConflict((oc) => oc.columns(['purchase_id', 'product_id']).doNothing())
          .execute();
        break;
      }
      case 'ProductPurchasePaid':
        await db.updateTable('product_purchases').set({ status: 'processing', payment_method: event.data.payment_method, paid_at: at, updated_at: at }).where('id', '=', event.data.purchase_id).execute();
        break;
      case 'ProductPurchasePaymentDeclined':
      case 'ProductPurchaseClaimDeclined':
        await db.updateTable('product_purchases').set({ status: 'declined', status_reason: event.data.reason, updated_at: at }).where('id', '=', event.data.purchase_id).execute();
        break;
      case 'ProductPurchaseCollected':
        await db
          .updateTable('product_purchases')
          .set({ status: 'approved', stockist_id: event.data.stockist_id, collected_at: at, collected_by: event.data.by, updated_at: at })
          .where('id', '=', event.data.purchase_id)
          .execute();
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}
