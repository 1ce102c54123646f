import { type Kysely, sql } from 'kysely';

/**
 * appendToStream in one statement (docs/event-store.md "Appending"): read the stream's head, check
 * the expected version, chain the hashes and insert, inside PostgreSQL, so an append costs one
 * round trip instead of two (read the head, then insert).
 *
 * The hash stays exactly the one verifyLog recomputes: sha256 of the event's canonical JSON
 * (RFC 8785). The client canonicalises everything it knows and sends the text around the two
 * values only the database knows, the previous hash and the stream position; their keys
 * (`prev_hash`, `stream_position`) sit at fixed places in the sorted keys, so the text is
 * `head || prev_hash || middle || position || tail`.
 *
 * A stale expected version raises SQLSTATE ES409 with the stream's actual version as DETAIL
 * (answered as ConcurrencyConflict). A writer that got there first (same position, not yet
 * visible) still makes this insert wait on the primary key and fail with a unique violation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function append_to_stream(
      p_stream_id text,
      p_expected_version integer, -- null: any version
      p_types text[],
      p_data jsonb[],
      p_metadata jsonb,
      p_recorded_at timestamptz,
      p_event_ids uuid[],
      p_hash_heads text[],
      p_hash_middles text[],
      p_hash_tails text[])
    returns table (appended_position integer, appended_global_position bigint, appended_transaction_id text,
                   appended_prev_hash text, appended_hash text)
    language plpgsql as $$
    declare
      head_position integer;
      head_hash text;
      positions integer[];
      prev_hashes text[];
      hashes text[];
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
      for i in 1 .. cardinality(p_types) loop
        positions[i] := head_position + i;
        prev_hashes[i] := head_hash;
        head_hash := encode(sha256(convert_to(
          p_hash_heads[i] || head_hash || p_hash_middles[i] || (head_position + i)::text || p_hash_tails[i], 'UTF8')), 'hex');
        hashes[i] := head_hash;
      end loop;
      return query
        insert into events as e (stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash)
        select p_stream_id, r.position, r.type, 1, r.data, p_metadata, p_recorded_at, r.event_id, r.prev_hash, r.hash
        from unnest(positions, p_types, p_data, p_event_ids, prev_hashes, hashes) as r(position, type, data, event_id, prev_hash, hash)
        returning e.stream_position, e.global_position, e.transaction_id::text, e.prev_hash, e.hash;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function append_to_stream(text, integer, text[], jsonb[], jsonb, timestamptz, uuid[], text[], text[], text[])`.execute(db);
}
