import { type Kysely, sql } from 'kysely';

/**
 * The event log and the mechanisms around it (docs/event-store.md).
 * Frozen: never edit a migration that has landed; add a new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table events (
      global_position bigint generated always as identity,
      transaction_id xid8 not null default pg_current_xact_id(),
      stream_id text not null,
      stream_position integer not null check (stream_position > 0),
      type text not null,
      schema_version smallint not null default 1,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null,
      event_id uuid not null unique,
      prev_hash text not null,
      hash text not null,
      primary key (stream_id, stream_position)
    )`.execute(db);
  await sql`create index events_by_commit_order on events (transaction_id, global_position)`.execute(db);
  await sql`create index events_by_type on events (type, global_position)`.execute(db);

  // History is never rewritten: corrections are new events. Tamper evidence (the hash chain) catches
  // what a superuser could still do by disabling this trigger.
  await sql`
    create function events_are_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'events are immutable: % on events is not allowed', tg_op;
    end $$`.execute(db);
  await sql`
    create trigger events_are_immutable before update or delete on events
    for each row execute function events_are_immutable()`.execute(db);
  await sql`
    create trigger events_are_not_truncated before truncate on events
    for each statement execute function events_are_immutable()`.execute(db);

  await sql`
    create table unique_keys (
      scope text not null,
      key text not null,
      owner text not null,
      created_at timestamptz not null default now(),
      primary key (scope, key)
    )`.execute(db);

  await sql`
    create table consumer_checkpoints (
      name text primary key,
      last_transaction_id xid8 not null default '0',
      last_global_position bigint not null default 0,
      events_applied bigint not null default 0,
      status text not null default 'running',
      failed_global_position bigint,
      error text,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table idempotent_requests (
      key text primary key,
      fingerprint text not null,
      status_code integer not null,
      body jsonb not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists idempotent_requests, consumer_checkpoints, unique_keys, events`.execute(db);
  await sql`drop function if exists events_are_immutable cascade`.execute(db);
}
