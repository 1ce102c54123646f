import { type Kysely, sql } from 'kysely';

/**
 * Withdrawals and admin payouts (BUSINESS-RULES.md §4), projected inline from the wallet streams:
 * one row per request, with the bank account it goes to as it was when requested, and the
 * transfer's progress at the provider. Money in kobo.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table withdrawals (
      id uuid primary key,
      member_id uuid not null,
      kind text not null check (kind in ('withdrawal', 'payout')),
      automatic boolean not null default false,
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0),
      net_amount bigint not null check (net_amount > 0),
      status text not null check (status in ('pending', 'processing', 'successful', 'failed')),
      reason text not null default '',
      bank_name text not null,
      bank_code text not null,
      account_number text not null,
      account_name text not null,
      transfer_reference text not null unique,
      transfer_code text,
      recipient_code text,
      failure_reason text,
      requested_by uuid,
      created_at timestamptz not null,
      sent_at timestamptz,
      completed_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index withdrawals_by_member on withdrawals (member_id, created_at desc)`.execute(db);
  await sql`create index withdrawals_by_created on withdrawals (created_at desc)`.execute(db);
  await sql`create index withdrawals_waiting on withdrawals (status, created_at) where status in ('pending', 'processing')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists withdrawals`.execute(db);
}
