import { type Kysely, sql } from 'kysely';

/**
 * Takes the explorer's two GIN expression indexes off the append path (docs/audit.md, "Off the
 * append path"). `events_by_subject` (a jsonb_path_query with a regex over every string of the data)
 * and `events_by_words` (a tsvector of the whole data) were maintained inside every append: 2,000
 * events took 2.5 s to insert with them and 0.49 s without. Their content now lives in
 * `event_search`, written by the `event-search` projection (services/src/audit/projections.ts) in
 * batches, off the command path, from the same two functions.
 *
 * On an upgraded database the history is backfilled here, set-based, and the projection's
 * checkpoint starts at the log's last event, so nothing is lost and nothing is read twice. On an
 * empty database there is no checkpoint row and the projection starts at the log's beginning.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_by_subject`.execute(db);
  await sql`drop index if exists events_by_words`.execute(db);
  await sql`
    create table event_search (
      global_position bigint primary key,
      subjects uuid[] not null,
      words tsvector not null
    )`.execute(db);
  await sql`
    insert into event_search (global_position, subjects, words)
    select global_position, event_subject_ids(stream_id, data, metadata), event_words(stream_id, type, data) from events`.execute(db);
  // Built after the backfill: one sort per index rather than an index update per row.
  await sql`create index event_search_by_subject on event_search using gin (subjects)`.execute(db);
  await sql`create index event_search_by_words on event_search using gin (words)`.execute(db);
  await sql`
    insert into consumer_checkpoints (name, last_transaction_id, last_global_position)
    select 'event-search', transaction_id, global_position from events
    order by transaction_id desc, global_position desc limit 1
    on conflict (name) do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from consumer_checkpoints where name = 'event-search'`.execute(db);
  await sql`drop table if exists event_search`.execute(db);
  await sql`create index if not exists events_by_subject on events using gin (event_subject_ids(stream_id, data, metadata))`.execute(db);
  await sql`create index if not exists events_by_words on events using gin (event_words(stream_id, type, data))`.execute(db);
}
