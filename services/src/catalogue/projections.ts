import type { Kysely } from 'kysely';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import { type CatalogueKind, kindOfEvent } from './kinds';

/**
 * Inline projection: the catalogue tables change in the same transaction as their events.
 * `<Kind>Defined` writes the row, `<Kind>Updated` writes the changed columns, `<Kind>Removed`
 * deletes the row (the entry's history stays in its stream).
 */
export async function projectCatalogue(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  // One writer for eight tables of different shapes: the row is built from the kind's column map.
  const tables = db as unknown as Kysely<any>;
  for (const event of events) {
    const found = kindOfEvent(event.type);
    if (!found) continue;
    const { kind, change } = found;
    const id = event.data[kind.idField] as number;
    const updated_at = new Date(event.recordedAt);
    switch (change) {
      case 'Defined': {
        const { [kind.idField]: _id, ...fields } = event.data;
        const row = { ...toColumns(kind, fields), updated_at };
        await tables.insertInto(kind.table).values({ id, ...row }).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
        break;
      }
      case 'Updated': {
        const changes = toColumns(kind, event.data.changes as Record<string, unknown>);
        await tables.updateTable(kind.table).set({ ...changes, updated_at }).where('id', '=', id).execute();
        break;
      }
      case 'Removed':
        await tables.deleteFrom(kind.table).where('id', '=', id).execute();
        break;
      default: {
        const unknownChange: never = change;
        throw new Error(`unknown catalogue change ${String(unknownChange)}`);
      }
    }
  }
}

function toColumns(kind: CatalogueKind, fields: Record<string, unknown>): Record<string, unknown> {
  const columns = kind.columns as Record<string, string | undefined>;
  return Object.fromEntries(Object.entries(fields).map(([field, value]) => [columns[field] ?? field, value]));
}
