import { type Kysely, sql } from 'kysely';

/**
 * The tamper check (docs/tamper-check.md): each run of the hash-chain verification with its
 * progress and result, and the stream heads verified runs anchored (a later run finds a stream
 * cut short below a head it once verified).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table log_verifications (
      id uuid primary key,
      trigger text not null check (trigger in ('admin', 'schedule')),
      requested_by uuid,
      status text not null check (status in ('queued', 'running', 'intact', 'broken', 'failed')),
      events_total bigint not null default 0,
      events_checked bigint not null default 0,
      streams_checked bigint not null default 0,
      problems_count integer not null default 0,
      first_problem jsonb,
      problems jsonb not null default '[]',
      heads_digest text,
      error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index log_verifications_newest on log_verifications (created_at desc)`.execute(db);
  // At most one run queued or running at a time.
  await sql`create unique index log_verifications_one_active on log_verifications ((true)) where status in ('queued', 'running')`.execute(db);
  await sql`
    create table log_verified_heads (
      stream_id text primary key,
      stream_position integer not null,
      hash text not null,
      verified_at timestamptz not null,
      verification_id uuid not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists log_verified_heads`.execute(db);
  await sql`drop table if exists log_verifications`.execute(db);
}
