import { type Kysely, sql } from 'kysely';

/**
 * Members' product purchases (BUSINESS-RULES.md §5) and their lines, as the purchase events
 * project them (services/src/purchases/projections.ts); money in kobo, per-unit prices and points
 * on the lines. A purchase that is paid for is paid through a payment like a package
 * (package_payments, purpose `product_purchase`, naming the purchase), so card, receipt, admin
 * approval and wallet work the same way for both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table product_purchases (
      id uuid primary key,
      member_id uuid not null,
      pickup_type text not null check (pickup_type in ('registration_pickup', 'upgrade_pickup', 'repurchase_pickup')),
      payment_method text not null check (payment_method in ('payment_gateway', 'pop', 'wallet', 'allowance')),
      payment_id uuid,
      total_price bigint not null,
      total_points integer not null,
      total_quantity integer not null,
      status text not null,
      status_reason text,
      paid_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      -- The log position of the purchase's first event: orders purchases placed in the same instant.
      global_position bigint not null
    )`.execute(db);
  await sql`create index product_purchases_by_member on product_purchases (member_id, created_at desc, global_position desc)`.execute(db);
  await sql`create index product_purchases_by_status on product_purchases (status, created_at desc)`.execute(db);
  await sql`
    create table product_purchase_lines (
      purchase_id uuid not null references product_purchases (id) on delete cascade,
      product_id integer not null,
      name text not null,
      qty integer not null check (qty >= 1),
      price bigint not null,
      points integer not null,
      primary key (purchase_id, product_id)
    )`.execute(db);

  await sql`alter table package_payments drop constraint package_payments_purpose_check`.execute(db);
  await sql`alter table package_payments add constraint package_payments_purpose_check check (purpose in ('registration', 'upgrade', 'product_purchase'))`.execute(db);
  await sql`alter table package_payments alter column package_id drop not null, add column purchase_id uuid`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from package_payments where purpose = 'product_purchase'`.execute(db);
  await sql`alter table package_payments drop column if exists purchase_id, alter column package_id set not null`.execute(db);
  await sql`alter table package_payments drop constraint package_payments_purpose_check`.execute(db);
  await sql`alter table package_payments add constraint package_payments_purpose_check check (purpose in ('registration', 'upgrade'))`.execute(db);
  await sql`drop table if exists product_purchase_lines`.execute(db);
  await sql`drop table if exists product_purchases`.execute(db);
}
