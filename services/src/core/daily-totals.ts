import { type RawBuilder, type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import { batchRange } from './batch-range';
import type { Executor } from './db';
import type { RecordedEvent } from './event-store';

/**
 * A totals table kept in step with a read table: count and amount (kobo, or points) per company day
 * and key of the rows that count (docs/decisions.md 88). Dashboards then sum a row per day instead
 * of every row of the read table. The table is `(day date, key text, n bigint, amount bigint,
 * primary key (day, key))`, owned by the read model that owns the rows, so a rebuild fills its
 * fresh copy with the same writes.
 */
export type DailyTotals = {
  table: string;
  /**
   * `day, key, amount` of each row among `keys` that counts: the read table's own definition of
   * what the dashboard sums, as of the statement that runs it. Restrict the rows with
   * `amongKeys(idColumn, keys)`.
   */
  contributions: (keys: TotalsKeys) => RawBuilder<unknown>;
  /** The events that can change what a row contributes (the others' writes skip the totals), and where each names its row. */
  changedBy: { eventTypes: readonly string[]; keyField: string };
};

/**
 * The rows `contributions` reads: those whose key is in an SQL uuid array (the incremental path),
 * or every row of the read table (`'all'`: recountDailyTotals).
 */
export type TotalsKeys = RawBuilder<unknown> | 'all';

/** A contributions query's restriction to `keys`: `column = any(keys)`, or `true` for every row. */
export function amongKeys(column: string, keys: TotalsKeys): RawBuilder<unknown> {
  return keys === 'all' ? sql`true` : sql`${sql.ref(column)} = any(${keys})`;
}

/**
 * Replaces the whole of `totals.table` with every read row's contributions counted and summed by
 * (day, key): one `delete` and one `insert`, in one transaction (the caller's, if it is one). For
 * loaders that fill read tables without their events (the reads bench) and for repairs, with the
 * read table's writers stopped: it is NOT for live traffic. It reads the whole read table and
 * rewrites every totals row, and a write committing meanwhile (its difference added by
 * keepingDailyTotals, the live path) can be counted twice or lost.
 */
export async function recountDailyTotals(db: Executor, totals: DailyTotals): Promise<void> {
  const recount = async (trx: Executor) => {
    await sql`delete from ${sql.table(totals.table)}`.execute(trx);
    await sql`
      insert into ${sql.table(totals.table)} (day, key, n, amount)
      select day, key, count(*)::bigint, coalesce(sum(amount), 0)::bigint from (${totals.contributions('all')}) c
      group by day, key
      order by day, key`.execute(trx);
  };
  if (db.isTransaction) await recount(db);
  else await db.transaction().execute(recount);
}

/**
 * Runs `write` (which changes only the rows whose keys are in `keys`) and moves the totals by what
 * it changed: the rows' contributions are read before it (no lock: the rows' own writers are
 * serialized by their streams' locks, and a rebuild is the only writer of its tables), and the
 * difference with theirs after it is added in ONE statement, in (day, key) order, so every writer
 * locks the totals rows it moves in one order and two writers queue rather than deadlock. A day and
 * key no row counts any more is removed (so a rebuild, whatever path its rows took, ends equal).
 */
export async function keepingDailyTotals<T>(db: Executor, totals: DailyTotals, keys: RawBuilder<unknown>, write: () => Promise<T>): Promise<T> {
  const { rows: before } = await sql<{ day: string; key: string; n: number; amount: number }>`
    select day::text, key, count(*)::bigint as n, coalesce(sum(amount), 0)::bigint as amount from (${totals.contributions(keys)}) c group by day, key`.execute(db);
  const result = await write();
  const { rows: moved } = await sql<{ day: string; key: string; n: number }>`
    with after as (
      select day, key, count(*)::bigint as n, coalesce(sum(amount), 0)::bigint as amount from (${totals.contributions(keys)}) c group by day, key
    ),
    before as (
      select * from unnest(${sql.val(before.map((r) => r.day))}::date[], ${sql.val(before.map((r) => r.key))}::text[],
                           ${sql.val(before.map((r) => r.n))}::bigint[], ${sql.val(before.map((r) => r.amount))}::bigint[]) as b(day, key, n, amount)
    )
    insert into ${sql.table(totals.table)} as t (day, key, n, amount)
    select day, key, sum(n), sum(amount) from (select day, key, n, amount from after union all select day, key, -n, -amount from before) d
    group by day, key
    having sum(n) <> 0 or sum(amount) <> 0
    order by day, key
    on conflict (day, key) do update set n = t.n + excluded.n, amount = t.amount + excluded.amount
    returning day::text, key, t.n`.execute(db);
  const emptied = moved.filter((r) => Number(r.n) === 0);
  if (emptied.length > 0) {
    await sql`
      delete from ${sql.table(totals.table)} t
      using unnest(${sql.val(emptied.map((r) => r.day))}::date[], ${sql.val(emptied.map((r) => r.key))}::text[]) as d(day, key)
      where t.day = d.day and t.key = d.key and t.n = 0`.execute(db);
  }
  return result;
}

/** keepingDailyTotals for a write of these events: the rows their `changedBy` events name (none of them: the write alone). */
export async function keepingDailyTotalsOf(db: Executor, totals: DailyTotals, events: readonly Pick<RecordedEvent, 'type' | 'data'>[], write: () => Promise<void>): Promise<void> {
  const keys = new Set<string>();
  for (const recorded of events) {
    if (!totals.changedBy.eventTypes.includes(recorded.type)) continue;
    const key = (recorded.data as Record<string, unknown>)[totals.changedBy.keyField];
    if (typeof key === 'string') keys.add(key);
  }
  if (keys.size === 0) return write();
  await keepingDailyTotals(db, totals, sql`${sql.val([...keys])}::uuid[]`, write);
}

/** The same for a batch named by log positions (rebuilds' applyAt): the rows named by its `changedBy` events, read in SQL. */
export async function keepingDailyTotalsAt(trx: Transaction<Database>, totals: DailyTotals, positions: readonly number[], write: () => Promise<void>): Promise<void> {
  if (positions.length === 0) return;
  const keys = sql`array(select (data->>${totals.changedBy.keyField})::uuid from events
    where global_position = any(${sql.val(positions)}::bigint[]) and ${batchRange(positions)} and type = any(${sql.val(totals.changedBy.eventTypes)}::text[]))`;
  await keepingDailyTotals(trx, totals, keys, write);
}

type Apply = (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>;
type ApplyAt = (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;

/** A read model's apply that also keeps its daily totals. */
export const withDailyTotals = (totals: DailyTotals, apply: Apply): Apply => (trx, events) => keepingDailyTotalsOf(trx, totals, events, () => apply(trx, events));

/** A read model's applyAt that also keeps its daily totals. */
export const withDailyTotalsAt = (totals: DailyTotals, applyAt: ApplyAt): ApplyAt => (trx, positions) => keepingDailyTotalsAt(trx, totals, positions, () => applyAt(trx, positions));
