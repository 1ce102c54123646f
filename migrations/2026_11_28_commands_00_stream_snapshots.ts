import { type Kysely, sql } from 'kysely';

/**
 * Snapshots of long streams (docs/event-store.md "Snapshots"): the fold of a stream's first
 * `version` events, so a command on a wallet reads its snapshot and the events after it instead of
 * the whole stream. Derived from the immutable log and safe to delete (the next command folds from
 * the start); `kind` names the fold (decider and state shape), so a changed fold ignores old rows.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table stream_snapshots (
      stream_id text primary key,
      kind text not null,
      version integer not null,
      state jsonb not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The stream's lock, then its snapshot and the events after it: one round trip instead of two.
  // PL/pgSQL and VOLATILE: the query after the lock runs in a snapshot taken after the lock was
  // granted (READ COMMITTED), so it sees everything the previous holder committed. The lock key is
  // the one every writer of a stream takes (core/event-store.ts streamLockKey).
  await sql`
    create function lock_and_load_stream(p_stream_id text, p_kind text)
    returns table (part text, stream_position integer, type text, data jsonb)
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended('stream:' || p_stream_id, 0));
      return query
        with snapshot as (select s.version, s.state from stream_snapshots s where s.stream_id = p_stream_id and s.kind = p_kind)
        select 'snapshot'::text, snapshot.version, null::text, snapshot.state from snapshot
        union all
        select 'event'::text, e.stream_position, e.type, e.data from events e
        where e.stream_id = p_stream_id and e.stream_position > coalesce((select snapshot.version from snapshot), 0);
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists lock_and_load_stream(text, text)`.execute(db);
  await sql`drop table if exists stream_snapshots`.execute(db);
}
