import { type Kysely, sql } from 'kysely';

/**
 * append_event after the stream's lock, in the same statement (issue 13 item 2; docs/decisions.md):
 * a command that read its stream outside a transaction (core/command.ts runCommand) appends its one
 * event at the version it read, and a wallet's writers decide under the stream's lock (the
 * compensation policy, core/event-store.ts streamLockKey). Taking the lock here, before the head
 * is read, keeps them apart as before: PL/pgSQL and VOLATILE, so append_event's read of the head
 * runs in a snapshot taken after the lock was granted (READ COMMITTED) and sees what the previous
 * holder committed; a stale expected version raises ES409 as append_event does. The lock is held to
 * the end of the statement's transaction, like lock_and_load_stream's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function append_event_locked(
      p_stream_id text,
      p_expected_version integer,
      p_type text,
      p_data text,
      p_metadata text,
      p_recorded_at timestamptz,
      p_event_id uuid,
      p_hash_middle text,
      p_hash_tail text,
      out appended_position integer, out appended_global_position bigint, out appended_transaction_id text,
      out appended_prev_hash text, out appended_hash text)
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended('stream:' || p_stream_id, 0));
      select a.appended_position, a.appended_global_position, a.appended_transaction_id, a.appended_prev_hash, a.appended_hash
        into appended_position, appended_global_position, appended_transaction_id, appended_prev_hash, appended_hash
        from append_event(p_stream_id, p_expected_version, p_type, p_data, p_metadata, p_recorded_at, p_event_id, p_hash_middle, p_hash_tail) a;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function append_event_locked(text, integer, text, text, text, timestamptz, uuid, text, text)`.execute(db);
}
