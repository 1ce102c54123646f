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

async function projectEventSearchAt(trx: Transaction<Database>, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await sql`
    insert into event_search (global_position, subjects, words)
    select global_position, event_subject_ids(stream_id, data, metadata), event_words(stream_id, type, data)
    from events where global_position = any(${sql.val(positions)}::bigint[])
    on conflict (global_position) do nothing`.execute(trx);
}
