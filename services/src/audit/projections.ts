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
// that is not an array, or an entry without a uuid member id, adds nothing.
const cascadeRanks = sql`jsonb_array_elements(case when jsonb_typeof(data->'ranks') = 'array' then data->'ranks' else '[]'::jsonb end)`;
const cascadeSubjects = sql`(
  select coalesce(array_agg(distinct id), '{}') from (
    select unnest(event_subject_ids(stream_id, data - 'ranks', metadata))
    union all
    select lower(rank->>'member_id')::uuid from ${cascadeRanks} rank where rank->>'member_id' ~ ${UUID}
  ) ids(id))`;
const cascadeWords = sql`(
  event_words(stream_id, type, data - 'ranks')
  || (select to_tsvector('simple'::regconfig, coalesce(string_agg(distinct rank->>'rank_name', ' '), '')) from ${cascadeRanks} rank))`;

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
