import { type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import type { RecordedEvent } from './event-store';

/**
 * An inline read model's table a batch of events at a time, with the rows the events applied one
 * by one leave (used by rebuilds; the commands still write one event at a time). A projection says
 * what each event does to the table as data:
 * - `insertOf`: the row an event inserts, `on conflict do nothing` on the key (a registration, an order);
 * - `changesOf`: the changes an event makes to rows it names by key: columns set to values, and
 *   numbers added to columns (one UPDATE each, one by one; a row that is not there is left alone).
 *
 * Batched, each row's changes are folded in log order (a later value wins; additions add up), so
 * a row changed by many events of the batch is written once:
 * - the batch's inserts go in one statement, each row carrying the changes that come after its
 *   insert in the batch. Changes before the insert changed nothing one by one when the insert
 *   then added the row (rows are never deleted, so it was not there) and are dropped; when the
 *   insert added nothing (the row was there), every change of the batch applies to that row;
 * - the other rows' folded changes are written by one UPDATE per set of columns changed (usually
 *   one), the values typed by the table's own row type (jsonb_populate_record), so a value
 *   arrives as the one-by-one UPDATE's parameter would (dates as ISO text, numbers as JSON numbers).
 * A column an inserted row does not name and a change adds to starts at 0 (its default).
 */
export type RowChange = { key: string; set: Record<string, unknown>; add?: Record<string, number> };

export type RowsInBatches<T extends keyof Database & string> = {
  table: T;
  /** The key column and its SQL type. */
  key: { column: string; type: string };
  insertOf: (recorded: RecordedEvent) => Record<string, unknown> | null;
  changesOf: readonly ((recorded: RecordedEvent) => RowChange[])[];
};

type Folded = { set: Record<string, unknown>; add: Record<string, number> };
const empty = (): Folded => ({ set: {}, add: {} });
/** In place: a batch folds thousands of changes. */
function fold(into: Folded, change: { set: Record<string, unknown>; add?: Record<string, number> }): Folded {
  Object.assign(into.set, change.set);
  for (const [column, n] of Object.entries(change.add ?? {})) into.add[column] = (into.add[column] ?? 0) + n;
  return into;
}

export function projectRowsInBatches<T extends keyof Database & string>(spec: RowsInBatches<T>) {
  return async (trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void> => {
    type Row = { insertedAt: number | null; row: Record<string, unknown> | null; before: Folded; after: Folded };
    const rows = new Map<string, Row>();
    const of = (key: string): Row => {
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { insertedAt: null, row: null, before: empty(), after: empty() }));
      return row;
    };
    events.forEach((recorded, ord) => {
      const inserted = spec.insertOf(recorded);
      if (inserted) {
        const row = of(String(inserted[spec.key.column]));
        // A second insert of the same key adds nothing, one by one as here.
        if (row.insertedAt === null) Object.assign(row, { insertedAt: ord, row: inserted });
      }
      for (const changes of spec.changesOf) {
        for (const change of changes(recorded)) {
          const row = of(change.key);
          fold(row.insertedAt === null ? row.before : row.after, change);
        }
      }
    });

    const written = new Set<string>();
    const toInsert = [...rows.values()].filter((r) => r.row !== null);
    if (toInsert.length > 0) {
      const values = toInsert.map(({ row, after }) => {
        const merged: Record<string, unknown> = { ...row!, ...after.set };
        for (const [column, n] of Object.entries(after.add)) merged[column] = Number(merged[column] ?? 0) + n;
        return merged;
      });
      // kysely fills a column some rows do not name with DEFAULT, as a one-row insert would leave it.
      // A statement stays under PostgreSQL's 65,535 parameters (a swap's tail may be long).
      const columns = new Set(values.flatMap((value) => Object.keys(value))).size;
      const perStatement = Math.max(1, Math.floor(60_000 / Math.max(columns, 1)));
      for (let i = 0; i < values.length; i += perStatement) {
        const inserted = await trx
          .insertInto(spec.table)
          .values(values.slice(i, i + perStatement) as never)
          .onConflict((oc) => oc.column(spec.key.column as never).doNothing())
          .returning(sql.ref(spec.key.column).as('key') as never)
          .execute();
        for (const row of inserted as unknown as { key: unknown }[]) written.add(String(row.key));
      }
    }

    const groups = new Map<string, { set: string[]; add: string[]; keys: string[]; sets: string[]; adds: string[] }>();
    for (const [key, r] of rows) {
      if (written.has(key)) continue;
      // Not inserted in the batch: all its changes. Inserted, but the row was there: all of them too.
      const change = r.row === null ? r.before : fold(r.before, r.after);
      const set = Object.keys(change.set).sort();
      const add = Object.keys(change.add).sort();
      if (set.length === 0 && add.length === 0) continue;
      const shape = `${set.join(',')}|${add.join(',')}`;
      let group = groups.get(shape);
      if (!group) groups.set(shape, (group = { set, add, keys: [], sets: [], adds: [] }));
      group.keys.push(key);
      group.sets.push(JSON.stringify(change.set));
      group.adds.push(JSON.stringify(change.add));
    }
    const table = sql.table(spec.table);
    for (const group of groups.values()) {
      const assignments = [
        ...group.set.map((column) => sql`${sql.id(column)} = s.${sql.id(column)}`),
        ...group.add.map((column) => sql`${sql.id(column)} = r.${sql.id(column)} + a.${sql.id(column)}`),
      ];
      await sql`
        update ${table} r set ${sql.join(assignments)}
        from unnest(${sql.val(group.keys)}::${sql.raw(spec.key.type)}[], ${sql.val(group.sets)}::jsonb[], ${sql.val(group.adds)}::jsonb[]) as t(key, sets, adds)
          cross join lateral jsonb_populate_record(null::${table}, t.sets) as s
          cross join lateral jsonb_populate_record(null::${table}, t.adds) as a
        where r.${sql.id(spec.key.column)} = t.key`.execute(trx);
    }
  };
}
