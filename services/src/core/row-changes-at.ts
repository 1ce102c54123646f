import { type RawBuilder, type Transaction, sql } from 'kysely';
import { batchRange } from './batch-range';
import type { Database } from '../database';

/**
 * core/row-changes.ts inside PostgreSQL: an inline read model's table a batch at a time from the
 * batch's log positions (a rebuild's `applyAt`), so the events never cross into the process. The
 * model says in SQL what its events do, over `batch` (one row an event: `ord`, its place in the
 * batch, and the events table's `type`, `data`, `metadata`, `recorded_at`, `transaction_id`,
 * `global_position`, `stream_id`):
 * - `inserts`: rows `(key text, ord bigint, row jsonb)`, the row an event inserts (`on conflict do
 *   nothing` on the key), its values as the one-by-one insert's parameters would be;
 * - `changes`: rows `(key text, ord bigint, sub bigint, set jsonb)`, what an event sets on the row it
 *   names (`sub` orders several changes of one event).
 * The fold is projectRowsInBatches': each row's changes in log order (a later value wins per column);
 * an inserted row carries the changes from its insert on (those before it changed
 * nothing one by one: the row was not there), and every other row named, or inserted but already
 * there, gets all its changes in one UPDATE. The whole batch is ONE statement. A column the row
 * inserted does not name takes the table's default, as a one-row insert would.
 */
export type RowsAt<T extends keyof Database & string> = {
  table: T;
  key: { column: string; type: string };
  inserts: RawBuilder<unknown>;
  changes: RawBuilder<unknown>;
  /** Columns a change may set. (row-changes.ts also adds to columns; no SQL model needs it yet.) */
  settable: readonly string[];
};

/** The batch's events, in batch order (the `batch` relation of RowsAt's SQL). */
export const batchAt = (positions: readonly number[]) => sql`
  select p.ord, e.type, e.data, e.metadata, e.recorded_at, e.transaction_id, e.global_position, e.stream_id
  from unnest(${sql.val(positions)}::bigint[]) with ordinality as p(position, ord)
  join events e on e.global_position = p.position and ${batchRange(positions, 'e.global_position')}`;

/**
 * The table's column defaults as one jsonb (base of the inserted rows). Read from the catalog for
 * the table the search path names (a rebuild's fresh copy has the live one's defaults); a default
 * that must be evaluated per row (a sequence) would be evaluated once here, so it is refused.
 */
async function defaultsOf(trx: Transaction<Database>, table: string): Promise<RawBuilder<unknown>> {
  const { rows } = await sql<{ name: string; expr: string }>`
    select a.attname as name, pg_get_expr(d.adbin, d.adrelid) as expr
    from pg_attrdef d join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
    where d.adrelid = to_regclass(${table})`.execute(trx);
  const volatile = rows.find((r) => /nextval|random|uuid/i.test(r.expr));
  if (volatile) throw new Error(`${table}.${volatile.name} has a per-row default (${volatile.expr}); rows cannot be inserted set-based from jsonb`);
  if (rows.length === 0) return sql`'{}'::jsonb`;
  return sql`jsonb_build_object(${sql.join(rows.map((r) => sql`${r.name}::text, ${sql.raw(r.expr)}`))})`;
}

export function projectRowsAt<T extends keyof Database & string>(spec: RowsAt<T>) {
  return async (trx: Transaction<Database>, positions: readonly number[]): Promise<void> => {
    if (positions.length === 0) return;
    const table = sql.table(spec.table);
    const key = sql.id(spec.key.column);
    const keyType = sql.raw(spec.key.type);
    const defaults = await defaultsOf(trx, spec.table);
    const assignments = spec.settable.map((c) => sql`${sql.id(c)} = case when f.all_set ? ${c} then s.${sql.id(c)} else r.${sql.id(c)} end`);
    // No CTE is joined to another: the planner guesses a hundred rows for the batch (an unnest), and
    // joins of such guesses became nested loops of thousands × thousands. Rows are put together by
    // window and GROUP BY (sorts) instead, and only the final per-row result meets the table (by key).
    await sql`
      with batch as materialized (${batchAt(positions)}),
      ev as materialized (
        select key::${keyType} as key, ord, 0::bigint as sub, row, null::jsonb as set from (${spec.inserts}) i
        union all
        select key::${keyType}, ord, sub, null::jsonb, set from (${spec.changes}) c),
      -- "after": from the row's first insert in the batch on (an event's insert comes before its own changes).
      w as materialized (
        select key, ord, sub, row, set, coalesce(ord >= min(ord) filter (where row is not null) over (partition by key), false) as after from ev),
      sets as materialized (
        select w.key, w.after, w.ord, w.sub, x.col, x.value from w cross join lateral jsonb_each(w.set) as x(col, value) where w.set is not null),
      parts as (
        select key, ord, row, null::text as kind, null::text as col, null::jsonb as value from w where row is not null
        union all
        (select distinct on (key, col) key, null, null, 'set_after', col, value from sets where after order by key, col, ord desc, sub desc)
        union all
        (select distinct on (key, col) key, null, null, 'set_all', col, value from sets order by key, col, ord desc, sub desc)),
      -- Per row: its first insert and the last value of each column set (from its insert on, and all of them).
      f as materialized (
        select key,
          min(ord) filter (where row is not null) as inserted_at,
          (array_agg(row order by ord) filter (where row is not null))[1] as row,
          coalesce(jsonb_object_agg(col, value) filter (where kind = 'set_after'), '{}') as after_set,
          coalesce(jsonb_object_agg(col, value) filter (where kind = 'set_all'), '{}') as all_set
        from parts group by key),
      base as (select jsonb_populate_record(null::${table}, ${defaults}) as r),
      inserted as (
        insert into ${table}
        select p.*
        from f cross join base
          cross join lateral jsonb_populate_record(base.r, f.row || f.after_set) p
        where f.row is not null
        order by f.inserted_at
        on conflict (${key}) do nothing)
      -- Every row that was there before this statement (the UPDATE does not see the rows the insert
      -- adds: one snapshot): all its changes, which for a row inserted but already there include
      -- those after its insert, as one by one.
      update ${table} r set ${sql.join(assignments)}
      from f
        cross join lateral jsonb_populate_record(null::${table}, f.all_set) as s
      where r.${key} = f.key and f.all_set <> '{}'`.execute(trx);
  };
}
