import { sql } from 'kysely';
import type { Db } from '../core/db';
import { type LogPosition, readConsumerBatch } from '../core/event-store';

/**
 * Events appended per type, for /metrics (events_appended_total), kept in event_type_counts and
 * advanced at each scrape by the events appended since the position the last one reached: a scrape
 * reads what is new, not the whole log. Like a consumer, it only passes events below the oldest
 * transaction still running (readConsumerBatch's horizon), so an event a slow transaction commits
 * late is counted at a later scrape, never skipped. Concurrent scrapes (several api processes)
 * take turns on an advisory lock; one that finds it taken reads the counts as they stand.
 */
const COUNTS_LOCK = 7_301_127_001;

export async function countAppendedEvents(db: Db): Promise<Map<string, number>> {
  await db.transaction().execute(async (trx) => {
    const { rows: lock } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${COUNTS_LOCK}) as locked`.execute(trx);
    if (!lock[0]?.locked) return;
    const { rows } = await sql<{ tx: string; gp: number }>`
      select last_transaction_id::text as tx, last_global_position as gp from event_type_counts_position`.execute(trx);
    const after: LogPosition = { transactionId: rows[0]?.tx ?? '0', globalPosition: Number(rows[0]?.gp ?? 0) };
    // How far the log can be read safely now (no event matched: limit 0); counted up to there in one statement.
    const { scannedTo } = await readConsumerBatch(trx, after, { limit: 0 });
    if (!scannedTo) return;
    await sql`
      with counted as (
        select type, count(*) as n from events
        where (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition})
          and (transaction_id, global_position) <= (${scannedTo.transactionId}::xid8, ${scannedTo.globalPosition})
        group by type
      )
      insert into event_type_counts (type, appended) select type, n from counted
      on conflict (type) do update set appended = event_type_counts.appended + excluded.appended`.execute(trx);
    await sql`
      update event_type_counts_position set last_transaction_id = ${scannedTo.transactionId}::xid8, last_global_position = ${scannedTo.globalPosition}`.execute(trx);
  });
  const { rows } = await sql<{ type: string; appended: number }>`select type, appended::float8 as appended from event_type_counts`.execute(db);
  return new Map(rows.map((row) => [row.type, Number(row.appended)]));
}
