import { type Kysely, sql } from 'kysely';

/**
 * The error a stale expected version raises, as a function a plain SQL statement can call (issue 13
 * item 1; docs/decisions.md): the single-event append is now one INSERT … SELECT sent as a named
 * prepared statement (core/event-store.ts appendOne), and plain SQL has no RAISE. Called only
 * when the head read is not the version expected, from a CASE (whose branches PostgreSQL evaluates
 * in order), so an append that succeeds never enters PL/pgSQL. Same SQLSTATE, DETAIL and message
 * as append_event's, which stays (an api still running the old code calls it, and
 * append_event_locked builds on it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function append_stale_version(p_stream_id text, p_head_position integer, p_expected_version integer)
    returns boolean
    language plpgsql volatile as $$
    begin
      raise exception using errcode = 'ES409', detail = p_head_position::text,
        message = format('stream %s is at version %s, expected %s', p_stream_id, p_head_position, p_expected_version);
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function append_stale_version(text, integer, integer)`.execute(db);
}
