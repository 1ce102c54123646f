import { type Kysely, sql } from 'kysely';

/**
 * Package payments (registration and upgrade) and the member columns activation, upgrade and
 * expiry change (BUSINESS-RULES.md §2). Money in kobo.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table members
      add column personal_pv bigint not null default 0,
      add column registration_expires_at timestamptz,
      add column registration_expired_at timestamptz`.execute(db);
  await sql`update members set registration_expires_at = created_at + interval '7 days' where activated_at is null`.execute(db);
  await sql`create index members_awaiting_payment on members (registration_expires_at) where activated_at is null and registration_expired_at is null`.execute(db);

  await sql`
    create table package_payments (
      id uuid primary key,
      member_id uuid not null,
      purpose text not null check (purpose in ('registration', 'upgrade')),
      method text not null check (method in ('payment_gateway', 'pop')),
      package_id integer not null,
      from_package_id integer,
      amount_due bigint not null,
      amount_paid bigint,
      reference text unique,
      receipt_path text,
      description text not null default '',
      status text not null,
      status_reason text,
      decided_by uuid,
      decided_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index package_payments_by_member on package_payments (member_id, created_at desc)`.execute(db);
  await sql`create index package_payments_by_status on package_payments (status, created_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists package_payments`.execute(db);
  await sql`alter table members drop column if exists personal_pv, drop column if exists registration_expires_at, drop column if exists registration_expired_at`.execute(db);
}
