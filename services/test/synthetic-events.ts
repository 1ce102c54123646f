import { randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import type { Db } from '../src/core/db';
import type { RecordedEvent } from '../src/core/event-store';
import type { Database } from '../src/database';

/**
 * Recorded events for property tests of projections: each at the next log position (its own
 * transaction), `minute` minutes after a fixed start, so generated sequences can put times out of
 * order while the log order stays the generation order.
 */
export function syntheticLog(start = Date.parse('2026-03-01T00:00:00Z')) {
  let position = 0;
  return function recorded(type: string, data: Record<string, unknown>, minute: number): RecordedEvent {
    position += 1;
    const at = new Date(start + minute * 60_000).toISOString();
    return {
      type, data, streamId: `test-${position}`, streamPosition: 1, globalPosition: position, transactionId: String(1000 + position), eventId: randomUUID(), schemaVersion: 1,
      metadata: { actor: { type: 'system', id: 'test' }, now: at }, recordedAt: at, prevHash: '', hash: '',
    };
  };
}

/** `items` cut at the given points (each taken modulo length + 1): every way a log can fall into batches. */
export function cutIntoBatches<T>(items: readonly T[], cuts: readonly number[]): T[][] {
  const bounds = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b);
  return [0, ...bounds, items.length].flatMap((from, i, all) => (i + 1 < all.length ? [items.slice(from, all[i + 1])] : []));
}

class Rollback extends Error {}

/** Runs `work` in a transaction that is then rolled back, so each property run starts from the same tables. */
export async function inRolledBackTransaction(db: Db, work: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
  await db
    .transaction()
    .execute(async (trx) => {
      await work(trx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
}

/** Writes the events to the log in this transaction; the same events at their log positions and transaction (for consumers that read the log by position). */
export async function writtenToLog(trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (const e of events) {
    const { rows } = await sql<{ global_position: string; transaction_id: string }>`
      insert into events (stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash)
      values (${`test-${randomUUID()}`}, 1, ${e.type}, ${JSON.stringify(e.data)}::jsonb, ${JSON.stringify(e.metadata)}::jsonb, ${e.recordedAt}, ${e.eventId}, '', '')
      returning global_position, transaction_id::text`.execute(trx);
    out.push({ ...e, globalPosition: Number(rows[0]!.global_position), transactionId: rows[0]!.transaction_id });
  }
  return out;
}

/** The `row` column of a query (rows as jsonb, in a stable order), to compare two ways of building a table. */
export async function tableRows(trx: Transaction<Database>, query: string): Promise<unknown[]> {
  return (await sql<{ row: unknown }>`${sql.raw(query)}`.execute(trx)).rows.map((r) => r.row);
}

/**
 * The two sides of an "in SQL" property: `log` is written to the log (read by position) in one
 * transaction, rolled back at the end; after `setUp`, `eventByEvent` applies the events one by one
 * and `atPositions` applies each batch of `cuts` by log position, each from a savepoint so both start
 * from the same tables, and `rows` reads what each left.
 */
export async function bothSidesFromLog<R>(
  db: Db,
  log: readonly RecordedEvent[],
  cuts: readonly number[],
  sides: {
    setUp?: (trx: Transaction<Database>) => Promise<void>;
    eventByEvent: (trx: Transaction<Database>, logged: readonly RecordedEvent[]) => Promise<void>;
    atPositions: (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;
    rows: (trx: Transaction<Database>) => Promise<R>;
  },
): Promise<{ expected: R; actual: R }> {
  let result: { expected: R; actual: R } | undefined;
  await inRolledBackTransaction(db, async (trx) => {
    await sides.setUp?.(trx);
    const logged = await writtenToLog(trx, log);
    await sql`savepoint side`.execute(trx);
    await sides.eventByEvent(trx, logged);
    const expected = await sides.rows(trx);
    await sql`rollback to savepoint side`.execute(trx);
    for (const batch of cutIntoBatches(logged, cuts)) await sides.atPositions(trx, batch.map((e) => e.globalPosition));
    result = { expected, actual: await sides.rows(trx) };
  });
  return result!;
}
