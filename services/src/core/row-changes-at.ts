import { type RawBuilder, type Transaction, sql } from 'kysely';
import type { Database } from '../database';

/**
 * core/row-changes.ts inside PostgreSQL: an inline read model's table a batch at a time from the
 * batch's log positions (a rebuild's `applyAt`), so the events never cross into the process. The
 * model says in SQL what its events do, over `batch` (one row an event: `ord`, its place in the
 * batch, and the events table's `type`, `data`, `metadata`, `recorded_at`, `transaction_id`,
 * `global_position`, `stream_id`):
 * - `inserts`: rows `(key text, ord bigint, row jsonb)`, the row an event inserts (`on conflict do
 *   nothing` on the key), its values as the one-by-one insert's parameters would be;
 * - `changes`: rows `(key text, ord bigint, sub bigint, set jsonb, add jsonb)`, what an event changes
 *   on the row it names (`sub` orders several changes of one event; `add` numbers added to columns).
 * The fold is projectRowsInBatches': each row's changes in log order (a later value wins per column,
 * additions add up); an inserted row carries the changes from its insert on (those before it changed
 * nothing one by one: the row was not there), and every other row named, or inserted but already
 * there, gets all its changes in one UPDATE. The whole batch is ONE statement. A column the row
 * inserted does not name takes the table's default, as a one-row insert would.
 */
export type RowsAt<T extends keyof Database & string> = {
  table: T;
  key: { column: string; type: string };
  inserts: RawBuilder<unknown>;
  changes: RawBuilder<unknown>;
  /** Columns a change may set. */
  settable: readonly string[];
  /** Columns a change may add to. */
  addable?: readonly string[];
};

/** The batch's events, in batch order (the `batch` relation of RowsAt's SQL). */
export const batchAt = (positions: readonly number[]) => sql`
  select p.ord, e.type, e.data, e.metadata, e.recorded_at, e.transaction_id, e.global_position, e.stream_id
  from unnest(${sql.val(positions)}::bigint[]) with ordinality as p(position, ord)
  join events e on e.global_position = p.position`;

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
    const addable = spec.addable ?? [];
    const defaults = await defaultsOf(trx, spec.table);
    // An inserted row's value of an added column: its value after the later sets (0 when none), plus the sum.
    const addedOnInsert = addable.length
      ? sql` || jsonb_strip_nulls(jsonb_build_object(${sql.join(
          addable.map(
            (c) => sql`${c}::text, case when a.add ? ${c} then coalesce((i.row || coalesce(s.set, '{}'))->>${c}, '0')::numeric + (a.add->>${c})::numeric end`,
          ),
        )}))`
      : sql``;
    const assignments = [
      ...spec.settable.map((c) => sql`${sql.id(c)} = case when f.set ? ${c} then s.${sql.id(c)} else r.${sql.id(c)} end`),
      ...addable.map((c) => sql`${sql.id(c)} = case when f.add ? ${c} then r.${sql.id(c)} + a.${sql.id(c)} else r.${sql.id(c)} end`),
    ];
    await sql`
      with batch as materialized (${batchAt(positions)}),
      ins as (select distinct on (key) key, ord, row from (select key::${keyType} as key, ord, row from (${spec.inserts}) i) i order by key, ord),
      ch as materialized (
        select c.key, c.ord, c.sub, c.set, c.add, i.ord as inserted_at
        from (select key::${keyType} as key, ord, sub, set, add from (${spec.changes}) c) c left join ins i on i.key = c.key),
      -- Per row: the last value of each column set, and the sum of each column added; "after" only
      -- what comes from the row's insert on (an event's insert comes before its own changes).
      sets as (
        select distinct on (c.key, x.col, c.ord >= c.inserted_at) c.key, x.col, x.value, coalesce(c.ord >= c.inserted_at, false) as after
        from ch c cross join lateral jsonb_each(c.set) x(col, value)
        order by c.key, x.col, c.ord >= c.inserted_at, c.ord desc, c.sub desc),
      adds as (
        select c.key, x.col, coalesce(c.ord >= c.inserted_at, false) as after, sum(x.value::numeric) as n
        from ch c cross join lateral jsonb_each_text(coalesce(c.add, '{}')) x(col, value)
        group by 1, 2, 3),
      after_set as (select key, jsonb_object_agg(col, value) as set from sets where after group by key),
      after_add as (select key, jsonb_object_agg(col, n) as add from adds where after group by key),
      base as (select jsonb_populate_record(null::${table}, ${defaults}) as r),
      inserted as (
        insert into ${table}
        select p.*
        from ins i cross join base left join after_set s on s.key = i.key left join after_add a on a.key = i.key
          cross join lateral jsonb_populate_record(base.r, i.row || coalesce(s.set, '{}') ${addedOnInsert}) p
        order by i.ord
        on conflict (${key}) do nothing
        returning ${key} as key),
      -- Every other row: all its changes (a row inserted but already there gets the insert's followers too).
      all_set as (
        select key, jsonb_object_agg(col, value) as set from (
          select distinct on (c.key, x.col) c.key, x.col, x.value
          from ch c cross join lateral jsonb_each(c.set) x(col, value)
          order by c.key, x.col, c.ord desc, c.sub desc) l
        group by key),
      all_add as (select key, jsonb_object_agg(col, n) as add from (select key, col, sum(n) as n from adds group by 1, 2) s group by key),
      folded as (
        select k.key, coalesce(s.set, '{}') as set, coalesce(a.add, '{}') as add
        from (select distinct key from ch) k left join all_set s on s.key = k.key left join all_add a on a.key = k.key
        where not exists (select 1 from inserted w where w.key = k.key))
      update ${table} r set ${sql.join(assignments)}
      from folded f
        cross join lateral jsonb_populate_record(null::${table}, f.set) as s
        cross join lateral jsonb_populate_record(null::${table}, f.add) as a
      where r.${key} = f.key`.execute(trx);
  };
}
