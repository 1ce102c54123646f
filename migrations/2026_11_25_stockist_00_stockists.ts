import { type Kysely, sql } from 'kysely';

/**
 * Stockists, their package payments, stock purchases and stock (BUSINESS-RULES.md §5), as the
 * stockist events project them (services/src/stockists/); money in kobo. Members' orders gain an
 * order code and the stockist who handed them over.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table stockists (
      id uuid primary key,
      member_id uuid not null,
      store_name text not null,
      store_address text not null,
      store_state text not null,
      store_phone text not null,
      package_id integer not null,
      signee_id uuid not null,
      status text not null check (status in ('pending', 'approved', 'disapproved')),
      payment_id uuid not null,
      receipt_path text,
      registration_value bigint not null,
      created_at timestamptz not null,
      approved_at timestamptz,
      updated_at timestamptz not null,
      global_position bigint not null
    )`.execute(db);
  await sql`create index stockists_by_member on stockists (member_id, created_at desc)`.execute(db);
  await sql`create index stockists_by_status on stockists (status, created_at desc)`.execute(db);

  await sql`
    create table stockist_payments (
      id uuid primary key,
      stockist_id uuid not null,
      member_id uuid not null,
      kind text not null check (kind in ('registration', 'upgrade')),
      package_id integer not null,
      from_package_id integer,
      amount bigint not null,
      receipt_path text,
      status text not null check (status in ('pending', 'processing', 'approved', 'disapproved')),
      created_at timestamptz not null,
      decided_at timestamptz,
      -- the log position of the payment's first event: orders payments made in the same instant
      global_position bigint not null
    )`.execute(db);
  await sql`create index stockist_payments_by_stockist on stockist_payments (stockist_id, created_at desc)`.execute(db);

  await sql`
    create table stock_purchases (
      id uuid primary key,
      stockist_id uuid not null,
      member_id uuid not null,
      pickup_type text not null check (pickup_type in ('registration_pickup', 'upgrade_pickup', 're-stock')),
      package_id integer not null,
      total_price bigint not null,
      total_points integer not null,
      total_quantity integer not null,
      receipt_path text,
      status text not null check (status in ('processing', 'approved', 'declined')),
      status_reason text,
      created_at timestamptz not null,
      decided_at timestamptz,
      global_position bigint not null
    )`.execute(db);
  await sql`create index stock_purchases_by_stockist on stock_purchases (stockist_id, created_at desc)`.execute(db);
  await sql`create index stock_purchases_by_status on stock_purchases (status, created_at desc)`.execute(db);
  await sql`
    create table stock_purchase_lines (
      purchase_id uuid not null references stock_purchases (id) on delete cascade,
      product_id integer not null,
      name text not null,
      qty integer not null check (qty >= 1),
      price bigint not null,
      points integer not null,
      primary key (purchase_id, product_id)
    )`.execute(db);

  // the worker's read model of each stockist's stock
  await sql`
    create table stockist_stock (
      stockist_id uuid not null,
      product_id integer not null,
      quantity integer not null,
      updated_at timestamptz not null,
      primary key (stockist_id, product_id)
    )`.execute(db);

  await sql`alter table product_purchases add column order_code text, add column stockist_id uuid, add column collected_at timestamptz, add column collected_by text`.execute(db);
  await sql`create unique index product_purchases_order_code on product_purchases (order_code) where order_code is not null`.execute(db);
  await sql`create index product_purchases_by_stockist on product_purchases (stockist_id, collected_at desc) where stockist_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists product_purchases_by_stockist`.execute(db);
  await sql`drop index if exists product_purchases_order_code`.execute(db);
  await sql`alter table product_purchases drop column if exists order_code, drop column if exists stockist_id, drop column if exists collected_at, drop column if exists collected_by`.execute(db);
  await sql`drop table if exists stockist_stock`.execute(db);
  await sql`drop table if exists stock_purchase_lines`.execute(db);
  await sql`drop table if exists stock_purchases`.execute(db);
  await sql`drop table if exists stockist_payments`.execute(db);
  await sql`drop table if exists stockists`.execute(db);
}
