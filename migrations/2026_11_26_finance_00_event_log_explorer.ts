import { type Kysely, sql } from 'kysely';

/**
 * Indexes for the event log explorer (docs/audit.md), so each filter reads a page of the newest
 * matching events without scanning or counting a log of millions:
 * - global_position alone (the explorer's order and its keyset cursor; the primary key is per stream);
 * - the ids an event is about (`event_subject_ids`: the uuid ending its stream name, every uuid
 *   string anywhere in its data, its actor's id), so "every event about member X" is one GIN lookup;
 * - the acting admin, the cause and the correlation id named in metadata, and the time recorded;
 * - the words of its stream, type and data (`event_words`), for the free-text search.
 * Frozen: never edit a migration that has landed; add a new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index if not exists events_by_global_position on events (global_position)`.execute(db);
  await sql`
    create or replace function event_subject_ids(stream_id text, data jsonb, metadata jsonb) returns uuid[]
    language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct lower(v)::uuid), '{}')
      from (
        select substring(stream_id from '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$') as v
        union all
        select value #>> '{}' from jsonb_path_query(data, 'strict $.** ? (@.type() == "string" && @ like_regex "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")') as value
        union all
        select metadata->'actor'->>'id' where metadata->'actor'->>'id' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
      ) ids
      where v is not null
    $$`.execute(db);
  await sql`create index if not exists events_by_subject on events using gin (event_subject_ids(stream_id, data, metadata))`.execute(db);
  await sql`
    create or replace function event_words(stream_id text, type text, data jsonb) returns tsvector
    language sql immutable parallel safe as $$
      select to_tsvector('simple'::regconfig, stream_id || ' ' || type) || jsonb_to_tsvector('simple'::regconfig, data, '["string", "numeric"]')
    $$`.execute(db);
  await sql`create index if not exists events_by_words on events using gin (event_words(stream_id, type, data))`.execute(db);
  await sql`create index if not exists events_by_actor on events ((metadata->'actor'->>'id'), global_position)`.execute(db);
  await sql`create index if not exists events_by_causation on events ((metadata->>'causation_id'))`.execute(db);
  await sql`create index if not exists events_by_correlation on events ((metadata->>'correlation_id'), global_position)`.execute(db);
  await sql`create index if not exists events_by_recorded_at on events (recorded_at, global_position)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['events_by_recorded_at', 'events_by_correlation', 'events_by_causation', 'events_by_actor', 'events_by_words', 'events_by_subject', 'events_by_global_position']) {
    await sql`drop index if exists ${sql.raw(index)}`.execute(db);
  }
  await sql`drop function if exists event_words(text, text, jsonb)`.execute(db);
  await sql`drop function if exists event_subject_ids(text, jsonb, jsonb)`.execute(db);
}
