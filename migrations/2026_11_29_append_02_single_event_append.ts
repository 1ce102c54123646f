import { type Kysely, sql } from 'kysely';

/**
 * A single-event append (the common case: a command records one event) in one statement with
 * scalar parameters (issue 13 item 1; docs/event-store.md "Appending"; docs/decisions.md). Same
 * checks, hash and insert as append_to_stream (2026_11_27_speedappend_01), which stays for
 * several events at once, but:
 *
 * - no arrays: append_to_stream took every value as a one-element array, which the client escapes
 *   into an array literal (JSON text full of quotes, twice: the data and the hash text holding it)
 *   and the server parses back, element by element;
 * - the event's data and metadata travel once, as their canonical JSON text (RFC 8785): the
 *   function stores them as jsonb (which reads canonical JSON as it reads any JSON) and builds the
 *   hashed text around them, '{"data":' data ',"event_id":"' id '","metadata":' metadata
 *   ',"prev_hash":"' prev_hash middle position tail, where middle and tail are the client's (the
 *   keys sort that way: canonicalHashPieces, core/event-store.ts). So the client no longer
 *   serialises the data twice (JSON.stringify for the column, canonicalize for the hash).
 *
 * A stale expected version raises SQLSTATE ES409 with the actual version as DETAIL, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function append_event(
      p_stream_id text,
      p_expected_version integer, -- null: any version
      p_type text,
      p_data text,
      p_metadata text,
      p_recorded_at timestamptz,
      p_event_id uuid,
      p_hash_middle text,
      p_hash_tail text,
      out appended_position integer, out appended_global_position bigint, out appended_transaction_id text,
      out appended_prev_hash text, out appended_hash text)
    language plpgsql as $$
    declare
      head_position integer;
      head_hash text;
    begin
      select e.stream_position, e.hash into head_position, head_hash
        from events e where e.stream_id = p_stream_id order by e.stream_position desc limit 1;
      if not found then
        head_position := 0;
        head_hash := repeat('0', 64);
      end if;
      if p_expected_version is not null and p_expected_version <> head_position then
        raise exception using errcode = 'ES409', detail = head_position::text,
          message = format('stream %s is at version %s, expected %s', p_stream_id, head_position, p_expected_version);
      end if;
      appended_position := head_position + 1;
      appended_prev_hash := head_hash;
      appended_hash := encode(sha256(convert_to(
        '{"data":' || p_data || ',"event_id":"' || p_event_id::text || '","metadata":' || p_metadata || ',"prev_hash":"'
          || head_hash || p_hash_middle || appended_position::text || p_hash_tail, 'UTF8')), 'hex');
      insert into events (stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash)
        values (p_stream_id, appended_position, p_type, 1, p_data::jsonb, p_metadata::jsonb, p_recorded_at, p_event_id, head_hash, appended_hash)
        returning global_position, transaction_id::text into appended_global_position, appended_transaction_id;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function append_event(text, integer, text, text, text, timestamptz, uuid, text, text)`.execute(db);
}
