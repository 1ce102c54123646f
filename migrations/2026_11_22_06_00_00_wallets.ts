import { type Kysely, sql } from 'kysely';

/**
 * The wallet ledger (BUSINESS-RULES.md §3, §4), projected by the worker from the wallet streams:
 * one row per credited or withheld bonus, and each member's totals. Money in kobo.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table wallet_entries (
      global_position bigint primary key,
      member_id uuid not null,
      entry text not null check (entry in ('credited', 'withheld')),
      kind text not null,
      amount bigint not null,
      generation integer,
      reason text,
      cause_event_id uuid not null,
      cause_type text not null,
      cause_member_id uuid,
      inputs jsonb not null,
      recorded_at timestamptz not null
    )`.execute(db);
  await sql`create index wallet_entries_by_member on wallet_entries (member_id, recorded_at desc, global_position desc)`.execute(db);
  await sql`create index wallet_entries_by_member_kind on wallet_entries (member_id, kind) where entry = 'credited'`.execute(db);
  await sql`create index wallet_entries_by_kind on wallet_entries (kind) where entry = 'credited'`.execute(db);

  await sql`
    create table wallets (
      member_id uuid primary key,
      total_bonus bigint not null default 0,
      total_withheld bigint not null default 0,
      total_withdrawn bigint not null default 0,
      total_spent bigint not null default 0,
      balance bigint not null default 0,
      updated_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists wallets, wallet_entries`.execute(db);
}
