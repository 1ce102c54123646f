import { type RawBuilder, sql } from 'kysely';
import type { Executor } from './db';
import type { RecordedEvent } from './event-store';

/**
 * A totals table kept in step with a read table: count and amount (kobo, or points) per company day and key of the rows
 * that count (docs/decisions.md 88). Dashboards then sum a row per day instead of every row of the
 * read table. The table is `(day date, key text, n bigint, amount bigint, primary key (day, key))`,
 * owned by the read model that owns the rows, so a rebuild fills its fresh copy with the same writes.
 */
export type DailyTotals = {
  table: string;
  /**
   * `day, key, amount` of each row among the keys in `keys` (an SQL array) that counts: the read
   * table's own definition of what the dashboard sums, as of the statement that runs it.
   */
  contributions: (keys: RawBuilder<unknown>) => RawBuilder<unknown>;
};

/**
 * Runs `write` (which changes only the rows whose keys are in `keys`) and moves the totals by what
 * it changed: the rows' contributions before it are taken away, theirs after it added, and a day and
 * key no row counts any more is removed (so a rebuild, whatever path its rows took, ends equal).
 * Concurrent writers of the same day and key queue on its row; an upsert lets two create it.
 */
export async function keepingDailyTotals<T>(db: Executor, totals: DailyTotals, keys: RawBuilder<unknown>, write: () => Promise<T>): Promise<T> {
  const taken = await adjust(db, totals, keys, -1);
  const result = await write();
  const touched = [...taken, ...(await adjust(db, totals, keys, 1))];
  if (touched.length > 0) {
    await sql`
      delete from ${sql.table(totals.table)} t
      using unnest(${sql.val(touched.map((r) => r.day))}::date[], ${sql.val(touched.map((r) => r.key))}::text[]) as d(day, key)
      where t.day = d.day and t.key = d.key and t.n = 0`.execute(db);
  }
  return result;
}

async function adjust(db: Executor, totals: DailyTotals, keys: RawBuilder<unknown>, sign: 1 | -1): Promise<Array<{ day: string; key: string }>> {
  const { rows } = await sql<{ day: string; key: string }>`
    insert into ${sql.table(totals.table)} as t (day, key, n, amount)
    select day, key, ${sign} * count(*), ${sign} * coalesce(sum(amount), 0) from (${totals.contributions(keys)}) c
    group by day, key
    on conflict (day, key) do update set n = t.n + excluded.n, amount = t.amount + excluded.amount
    returning day::text, key`.execute(db);
  return rows;
}

/** The distinct `field` of the events that carry one, as an SQL uuid array (the keys a write of them touches). */
export function eventKeys(events: readonly RecordedEvent[], field: string): RawBuilder<unknown> {
  const keys = new Set<string>();
  for (const recorded of events) {
    const key = (recorded.data as Record<string, unknown>)[field];
    if (typeof key === 'string') keys.add(key);
  }
  return sql`${sql.val([...keys])}::uuid[]`;
}
