import { type Kysely, sql } from 'kysely';

/**
 * A re-stock paid by card (BUSINESS-RULES.md §5): the payment is a package_payments row of purpose
 * `stock_purchase` naming the stock purchase (purchase_id), and the stock purchase waits for it
 * (`awaiting_payment`) before it goes to the admins (`processing`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table package_payments drop constraint package_payments_purpose_check`.execute(db);
  await sql`alter table package_payments add constraint package_payments_purpose_check check (purpose in ('registration', 'upgrade', 'product_purchase', 'stock_purchase'))`.execute(db);
  await sql`alter table stock_purchases drop constraint stock_purchases_status_check`.execute(db);
  await sql`alter table stock_purchases add constraint stock_purchases_status_check check (status in ('awaiting_payment', 'processing', 'approved', 'declined'))`.execute(db);
  await sql`alter table stock_purchases add column payment_id uuid`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from package_payments where purpose = 'stock_purchase'`.execute(db);
  await sql`alter table package_payments drop constraint package_payments_purpose_check`.execute(db);
  await sql`alter table package_payments add constraint package_payments_purpose_check check (purpose in ('registration', 'upgrade', 'product_purchase'))`.execute(db);
  await sql`delete from stock_purchases where status = 'awaiting_payment'`.execute(db);
  await sql`alter table stock_purchases drop column payment_id`.execute(db);
  await sql`alter table stock_purchases drop constraint stock_purchases_status_check`.execute(db);
  await sql`alter table stock_purchases add constraint stock_purchases_status_check check (status in ('processing', 'approved', 'declined'))`.execute(db);
}
