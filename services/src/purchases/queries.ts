import type { ProductPurchase } from '../contracts/purchases';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';

export const HISTORY_PAGE_SIZE = 10;

/**
 * A member's purchase history (seed 000 §2.11, §7 "Purchases"), newest first: every order except
 * a card checkout never completed (`awaiting_payment`). The store fields name the stockist who
 * handed the order over; none does yet, so they are null (the stockist capability fills them).
 */
export async function purchaseHistory(db: Executor, memberId: string, page: number, perPage = HISTORY_PAGE_SIZE) {
  const listed = db.selectFrom('product_purchases').where('product_purchases.member_id', '=', memberId).where('product_purchases.status', '!=', 'awaiting_payment');
  const totalRow = await listed.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const total = Number(totalRow.n);
  const rows = await listed
    .leftJoin('stockists as s', 's.id', 'product_purchases.stockist_id')
    .selectAll('product_purchases')
    .select(['s.store_name', 's.store_address', 's.store_state', 's.store_phone'])
    .orderBy('product_purchases.created_at', 'desc').orderBy('product_purchases.global_position', 'desc').limit(perPage).offset((page - 1) * perPage).execute();
  const lines = rows.length === 0 ? [] : await db.selectFrom('product_purchase_lines').selectAll().where('purchase_id', 'in', rows.map((r) => r.id)).orderBy('product_id').execute();
  const data = rows.map((row): ProductPurchase => ({
    id: row.id,
    pickup_type: row.pickup_type,
    payment_type: row.payment_method,
    store_name: row.store_name,
    store_address: row.store_address,
    store_state: row.store_state,
    store_phone: row.store_phone,
    total_quantity: row.total_quantity,
    total_price: koboToNaira(Number(row.total_price)),
    total_points: row.total_points,
    status: row.status,
    status_reason: row.status_reason,
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
    has_order_code: row.order_code !== null,
    products: lines
      .filter((line) => line.purchase_id === row.id)
      .map((line) => ({ product_id: line.product_id, name: line.name, product_qty: line.qty, price: koboToNaira(Number(line.price)), points: line.points })),
  }));
  return { data, current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}
