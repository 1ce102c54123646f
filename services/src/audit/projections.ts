import { type Transaction, sql } from 'kysely';
import type { Consumer } from '../core/consumers';
import type { Database } from '../database';

/**
 * The event log explorer's search table (docs/audit.md, "Off the append path"): for each event,
 * the ids it is about (`event_subject_ids`) and its words (`event_words`), under GIN indexes that
 * answer the explorer's `member_id` and `q` filters. Both used to be GIN expression indexes on
 * `events` itself, maintained inside every append: ~80 % of an append's cost. Here the worker
 * computes them in batches, after the command has committed, so appends stay cheap and these two
 * filters see an event once this projection has caught up.
 *
 * Every event type: an event may name a member anywhere in its data. The row is derived from the
 * event alone (read back by position in the batch's transaction), so a replay writes the same row;
 * `on conflict do nothing` makes a re-read event harmless (the migration backfilled the history).
 */
export const eventSearchProjection: Consumer = {
  name: 'event-search',
  kind: 'projection',
  tables: ['event_search'],
  batchSize: 1000,
  apply: (trx, events) => projectEventSearchAt(trx, events.map((e) => e.globalPosition)),
  // The runner hands it the batch's positions only: the events are read here, inside PostgreSQL.
  applyAt: (trx, positions) => projectEventSearchAt(trx, positions),
};

/**
 * A rank cascade (`RanksAchieved`, docs/points.md) names up to thousands of members in one event of
 * ~1.4 MB: the generic functions ran a regex over each of its strings for the subjects and made a
 * tsvector of every uuid fragment and number (60,000 lexemes for 10,000 ranks), ~0.4 s of the
 * deep activation's 1.2 s (services/bench/activation.bench.ts). Its row is built from its shape
 * instead: the subjects are those of the event without its list plus each listed member's id (the
 * list's only uuid; a test compares them with `event_subject_ids`); the words, those of the event
 * without its list plus the ranks' names. A member's filter finds the cascade as before; free
 * text finds it by type, stream, cause and rank name, not by a fragment of each member's id nor by
 * the entries' numbers (cpv, rank and package ids).
 */
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
// Guarded like the generic functions (a projection must never throw on a recorded event): a list
// that is not an array, or an entry without a uuid member id, adds nothing. Both shapes are read:
// `columns` (one array per field, since decision 67) and `ranks` (an array of objects, before).
const arrayAt = (path: ReturnType<typeof sql>) => sql`case when jsonb_typeof(${path}) = 'array' then ${path} else '[]'::jsonb end`;
const cascadeMembers = sql`(
  select rank->>'member_id' from jsonb_array_elements(${arrayAt(sql`data->'ranks'`)}) rank
  union all
  select id from jsonb_array_elements_text(${arrayAt(sql`data->'columns'->'member_id'`)}) id)`;
const cascadeRankNames = sql`(
  select rank->>'rank_name' from jsonb_array_elements(${arrayAt(sql`data->'ranks'`)}) rank
  union all
  select name from jsonb_array_elements_text(${arrayAt(sql`data->'columns'->'rank_name'`)}) name)`;
const cascadeSubjects = sql`(
  select coalesce(array_agg(distinct id), '{}') from (
    select unnest(event_subject_ids(stream_id, data - 'ranks' - 'columns', metadata))
    union all
    select lower(member_id)::uuid from ${cascadeMembers} members(member_id) where member_id ~ ${UUID}
  ) ids(id))`;
const cascadeWords = sql`(
  event_words(stream_id, type, data - 'ranks' - 'columns')
  || (select to_tsvector('simple'::regconfig, coalesce(string_agg(distinct name, ' '), '')) from ${cascadeRankNames} names(name)))`;

async function projectEventSearchAt(trx: Transaction<Database>, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await sql`
    insert into event_search (global_position, subjects, words)
    select global_position,
      case when type = 'RanksAchieved' then ${cascadeSubjects} else event_subject_ids(stream_id, data, metadata) end,
      case when type = 'RanksAchieved' then ${cascadeWords} else event_words(stream_id, type, data) end
    from events where global_position = any(${sql.val(positions)}::bigint[])
    on conflict (global_position) do nothing`.execute(trx);
}
