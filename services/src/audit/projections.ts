import { type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
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
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
// The text of a JSON array of uuid strings, as jsonb prints it: one regex over the whole list
// instead of one per entry (10,000 regex calls were ~60 % of a cascade's row, decision 72).
const UUID_LIST = `^\\[("${UUID}"(, )?)*\\]$`;
// Guarded like the generic functions (a projection must never throw on a recorded event): a list
// that is not an array, or an entry without a uuid member id, adds nothing. Both shapes are read:
// `columns` (one array per field, since decision 67) and `ranks` (an array of objects, before).
const arrayAt = (path: ReturnType<typeof sql>) => sql`case when jsonb_typeof(${path}) = 'array' then ${path} else '[]'::jsonb end`;
// The event without its list (its cause, stream and actor), and the parts of the list read below:
// computed once per cascade (offset 0 keeps the planner from inlining them into each use), and only
// for cascades. The keys are removed in one pass (`- text[]`): a chain of four `- text`, each
// rebuilding the ~0.6 MB value, was ~2.5 ms, and it was computed twice (subjects and words); each
// read of `e.data` fetches its ~85 TOAST pages again (decision 84).
const cascadeRest = sql`
  left join lateral (
    select r.rest, event_subject_ids(e.stream_id, r.rest, e.metadata) as subjects, r.columns, r.ranks, r.kinds
    from (
      select e.data - '{ranks,columns,members,kinds}'::text[] as rest,
        -- the member ids: in columns (decision 67) or compact (decision 80), both under member_id
        coalesce(e.data->'columns', e.data->'members') as columns,
        e.data->'ranks' as ranks, e.data->'kinds' as kinds
      where e.type = 'RanksAchieved' offset 0) r) c on true`;
const listedMembers = sql`(
  select rank->>'member_id' from jsonb_array_elements(${arrayAt(sql`c.ranks`)}) rank
  union all
  select id from jsonb_array_elements_text(${arrayAt(sql`c.columns->'member_id'`)}) id)`;
const cascadeSubjects = sql`
  case when jsonb_typeof(c.columns->'member_id') = 'array' and (c.columns->>'member_id') ~ ${UUID_LIST}
    -- in columns, every entry a uuid (checked once above): cast, without the ids the rest already names
    then c.subjects || array(select id::uuid from jsonb_array_elements_text(c.columns->'member_id') id where id::uuid <> all(c.subjects))
    else (
      select coalesce(array_agg(distinct id), '{}') from (
        select unnest(c.subjects)
        union all
        select lower(member_id)::uuid from ${listedMembers} members(member_id) where member_id ~ ${`^${UUID}$`}
      ) ids(id))
  end`;
const cascadeRankNames = sql`(
  select rank->>'rank_name' from jsonb_array_elements(${arrayAt(sql`c.ranks`)}) rank
  union all
  select name from jsonb_array_elements_text(${arrayAt(sql`c.columns->'rank_name'`)}) name
  union all
  select name from jsonb_array_elements_text(${arrayAt(sql`c.kinds->'rank_name'`)}) name)`;
// A few distinct names among thousands of entries: hashed, not sorted.
const cascadeWords = sql`(
  event_words(e.stream_id, e.type, c.rest)
  || (select to_tsvector('simple'::regconfig, coalesce(string_agg(name, ' '), '')) from (select distinct name from ${cascadeRankNames} names(name)) names))`;

async function projectEventSearchAt(trx: Transaction<Database>, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await sql`
    insert into event_search (global_position, subjects, words)
    select e.global_position,
      case when e.type = 'RanksAchieved' then ${cascadeSubjects} else event_subject_ids(e.stream_id, e.data, e.metadata) end,
      case when e.type = 'RanksAchieved' then ${cascadeWords} else event_words(e.stream_id, e.type, e.data) end
    from events e ${cascadeRest}
    where e.global_position = any(${sql.val(positions)}::bigint[]) and ${batchRange(positions, 'e.global_position')}
    on conflict (global_position) do nothing`.execute(trx);
}
