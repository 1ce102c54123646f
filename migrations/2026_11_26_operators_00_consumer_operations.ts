import { type Kysely, sql } from 'kysely';

/**
 * The operators' console (issue 12 items 5 and 7, docs/operations.md):
 * - consumer_controls: which consumers an admin paused (inline projection of ConsumerPaused /
 *   ConsumerResumed on `consumer-<name>`); the runner reads it under the consumer's lock.
 * - consumer_throughput: events each consumer applied per minute, written in the batch's own
 *   transaction (so a rolled-back batch counts nothing).
 * - projection_rebuilds: each rebuild an admin asked for, its progress (written by the worker's
 *   job) and outcome; one unfinished rebuild per projection at a time.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table consumer_controls (
      name text primary key,
      paused boolean not null default false,
      changed_by text,
      changed_at timestamptz not null default now(),
      reason text
    )`.execute(db);
  await sql`
    create table consumer_throughput (
      name text not null,
      minute timestamptz not null,
      events integer not null,
      primary key (name, minute)
    )`.execute(db);
  await sql`
    create table projection_rebuilds (
      id uuid primary key,
      consumer text not null,
      status text not null check (status in ('queued', 'running', 'succeeded', 'failed')),
      applied bigint not null default 0,
      total bigint not null default 0,
      requested_by text not null,
      requested_event_id uuid,
      requested_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      worker text,
      error text
    )`.execute(db);
  await sql`create unique index projection_rebuilds_one_unfinished on projection_rebuilds (consumer) where finished_at is null`.execute(db);
  await sql`create index projection_rebuilds_latest on projection_rebuilds (consumer, requested_at desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists projection_rebuilds, consumer_throughput, consumer_controls`.execute(db);
}
