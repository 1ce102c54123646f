import { type Kysely, sql } from 'kysely';

/**
 * The rest of the catalogue's read tables (incentives, company banks, stockist packages, products,
 * the bill-payment catalogue) and the four bonus generation tables. Filled by inline projections
 * of the catalogue and settings events. Money columns hold kobo (bigint), like `packages`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table incentives (
      id integer primary key,
      rank_id integer not null,
      incentive text not null,
      worth bigint not null,
      file_path text,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index incentives_by_rank on incentives (rank_id)`.execute(db);

  await sql`
    create table company_banks (
      id integer primary key,
      bank_name text not null,
      bank_account_name text not null,
      bank_account_number text not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table stockist_packages (
      id integer primary key,
      name text not null,
      registration_value bigint not null,
      sales_bonus_percentage double precision not null,
      pickup_amount bigint not null,
      point_value integer not null,
      value integer not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table products (
      id integer primary key,
      name text not null,
      description text not null,
      image text,
      worth bigint not null,
      points integer not null,
      is_active boolean not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index products_active on products (id) where is_active`.execute(db);

  await sql`
    create table service_providers (
      id integer primary key,
      name text not null,
      code text not null,
      is_active boolean not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table product_services (
      id integer primary key,
      service_provider_id integer not null,
      service text not null,
      name text not null,
      amount bigint not null,
      is_active boolean not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index product_services_by_service on product_services (service)`.execute(db);

  // One row per (kind, registration package): the percentages of generations 1..10 as a JSON array.
  await sql`
    create table bonus_generation_tables (
      kind text not null check (kind in ('referral', 'upgrade', 'unilevel', 'stockist-upline')),
      package_id integer not null,
      percentages jsonb not null,
      updated_at timestamptz not null,
      primary key (kind, package_id)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists bonus_generation_tables, product_services, service_providers, products, stockist_packages, company_banks, incentives`.execute(db);
}
