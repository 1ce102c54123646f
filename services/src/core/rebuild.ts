import { type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import type { Db } from './db';
import { type Consumer, drainConsumer, runBatch } from './consumers';
import { type RecordedEvent, readCommittedAfter } from './event-store';

export type RebuildProgress = { consumer: string; applied: number; total: number };

/**
 * Events a rebuild batch reads at least (a consumer's own batch size when larger). A live batch is
 * small to keep lag and lock times short; a rebuild's only cost is its total time, and each batch
 * pays a fixed cost (its transaction, lock, checkpoint, read and a few statements of the apply:
 * ~10–25 ms here whatever its size), so it reads ten times more events a batch than a live one.
 */
export const REBUILD_BATCH_SIZE = 5000;

/** The batch size a rebuild of this consumer reads (benchmarks' references read the same). */
export const rebuildBatchSize = (consumer: Pick<Consumer, 'batchSize'>): number => Math.max(consumer.batchSize ?? 500, REBUILD_BATCH_SIZE);

/** The consumer as its rebuild runs it: its apply (its rebuildAt when it has one), in batches of `batchSize` (rebuild-sized by default). */
const forRebuild = (consumer: Consumer, batchSize = rebuildBatchSize(consumer)): Consumer => ({
  ...consumer,
  batchSize,
  ...(consumer.rebuildAt ? { applyAt: consumer.rebuildAt } : {}),
});

const rebuildSchema = (consumer: Consumer) => `rebuild_${consumer.name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
const rebuildCheckpoint = (consumer: Consumer) => `${consumer.name}#rebuild`;

/**
 * Rebuilds a projection from position zero into fresh tables beside the live ones, then swaps
 * them in (docs/consumer-runner.md). The live tables keep serving until the swap, which takes
 * the live consumer's lock, applies the last events and renames in one short transaction.
 */
export async function rebuildProjection(
  db: Db,
  live: Consumer,
  options: { onProgress?: (progress: RebuildProgress) => void; swap?: boolean; /** Events a batch (rebuildBatchSize by default). */ batchSize?: number } = {},
): Promise<{ applied: number; schema: string }> {
  const consumer = forRebuild(live, options.batchSize);
  if (consumer.kind !== 'projection' || !consumer.tables?.length) {
    throw new Error(`${consumer.name} is not a projection with tables; only projections are rebuilt`);
  }
  const schema = rebuildSchema(consumer);
  const checkpointName = rebuildCheckpoint(consumer);
  const deferred = await prepareRebuildTables(db, consumer, schema, checkpointName);

  const total = await countEvents(db, consumer);
  let applied = 0;
  const searchPath = `${schema}, public`;
  for (;;) {
    const result = await drainConsumer(db, consumer, {
      checkpointName,
      searchPath,
      onBatch: (n) => {
        applied += n;
        options.onProgress?.({ consumer: consumer.name, applied, total });
      },
    });
    if (result.status === 'failed') throw new Error(`rebuild of ${consumer.name} failed: ${result.error}`);
    if (result.status === 'caught_up') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await buildDeferredIndexes(db, schema, deferred);
  if (options.swap !== false) await swapIn(db, consumer, schema, checkpointName);
  return { applied, schema };
}

type DeferredIndex = { table: string; definition: string };

/** The live tables' plain indexes, built on the full fresh tables (same names: they move into public with them). */
async function buildDeferredIndexes(db: Db, schema: string, deferred: readonly DeferredIndex[]): Promise<void> {
  for (const { table, definition } of deferred) {
    const on = ` ON public.${table} USING `;
    if (!definition.includes(on)) throw new Error(`cannot rebuild index of ${table}: ${definition}`);
    await sql.raw(definition.replace(on, ` ON "${schema}".${table} USING `)).execute(db);
  }
}

/**
 * The fresh tables of a rebuild, empty copies of the live ones, WITHOUT their plain (non-unique)
 * indexes: filled a batch at a time, every row would update each of them (the members table has
 * fifteen, two of them GIN over its text: 9,091 rows took 10 s to insert with them and 0.15 s
 * into a bare copy). Keys and unique indexes stay (ON CONFLICT and the constraints need them).
 * Returns the live tables' plain indexes, which a projection's rebuild builds on its fresh tables
 * once they are full (one sort each) before they are swapped in; an inline read model's fresh
 * tables are only compared with the live ones by key and dropped, so they never need them.
 */
async function prepareRebuildTables(db: Db, consumer: Consumer, schema: string, checkpointName: string): Promise<DeferredIndex[]> {
  return db.transaction().execute(async (trx) => {
    const deferred: DeferredIndex[] = [];
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx);
    await sql`create schema ${sql.id(schema)}`.execute(trx);
    for (const table of consumer.tables!) {
      await sql`create table ${sql.id(schema, table)} (like ${sql.id('public', table)} including all)`.execute(trx);
      // A serial column's default still names the live table's sequence, which is dropped with
      // the live table at the swap: give the fresh table a fresh sequence of its own (it moves
      // with the table into public).
      const { rows: serials } = await sql<{ column_name: string; sequence_name: string; data_type: string }>`
        select a.attname as column_name, s.relname as sequence_name, format_type(q.seqtypid, null) as data_type
        from pg_depend d
        join pg_class s on s.oid = d.objid and s.relkind = 'S'
        join pg_sequence q on q.seqrelid = s.oid
        join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
        where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype = 'a'
          and d.refobjid = ${`public.${table}`}::regclass`.execute(trx);
      for (const serial of serials) {
        await sql`create sequence ${sql.id(schema, serial.sequence_name)} as ${sql.raw(serial.data_type)}
          owned by ${sql.id(schema, table, serial.column_name)}`.execute(trx);
        await sql`alter table ${sql.id(schema, table)} alter column ${sql.id(serial.column_name)}
          set default nextval(${sql.lit(`"${schema}"."${serial.sequence_name.replace(/"/g, '""')}"`)}::regclass)`.execute(trx);
      }
      const { rows: plain } = await sql<{ copy: string; definition: string }>`
        select copy.relname as copy, pg_get_indexdef(live_index.indexrelid) as definition
        from pg_index live_index
        join pg_index copy_index on copy_index.indrelid = ${`"${schema}".${table}`}::regclass
          and not copy_index.indisunique and not copy_index.indisprimary
          and copy_index.indkey = live_index.indkey and copy_index.indclass = live_index.indclass and copy_index.indoption = live_index.indoption
          and (select amname from pg_am join pg_class c on c.relam = pg_am.oid where c.oid = copy_index.indexrelid)
            = (select amname from pg_am join pg_class c on c.relam = pg_am.oid where c.oid = live_index.indexrelid)
          and pg_get_expr(copy_index.indexprs, copy_index.indrelid) is not distinct from pg_get_expr(live_index.indexprs, live_index.indrelid)
          and pg_get_expr(copy_index.indpred, copy_index.indrelid) is not distinct from pg_get_expr(live_index.indpred, live_index.indrelid)
        join pg_class copy on copy.oid = copy_index.indexrelid
        where live_index.indrelid = ${`public.${table}`}::regclass and not live_index.indisunique and not live_index.indisprimary`.execute(trx);
      for (const index of plain) {
        await sql`drop index ${sql.id(schema, index.copy)}`.execute(trx);
        deferred.push({ table, definition: index.definition });
      }
    }
    await sql`delete from consumer_checkpoints where name = ${checkpointName}`.execute(trx);
    await sql`insert into consumer_checkpoints (name) values (${checkpointName})`.execute(trx);
    return deferred;
  });
}

async function countEvents(db: Db, consumer: Consumer): Promise<number> {
  const filter = consumer.eventTypes ? sql`where type = any(${sql.val(consumer.eventTypes)}::text[])` : sql``;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from events ${filter}`.execute(db);
  return rows[0]?.n ?? 0;
}

async function swapIn(db: Db, consumer: Consumer, schema: string, checkpointName: string): Promise<void> {
  // Catch up once more so the swap transaction stays short. Events committed after this are not
  // lost: the live checkpoint becomes the rebuild's, so the live runner applies them next.
  for (;;) {
    const result = await runBatch(db, consumer, { checkpointName, searchPath: `${schema}, public` });
    // A short batch means it caught up with what was visible: under steady appends "nothing left"
    // may never come, and what arrives after is the live runner's to apply.
    if (result === null || result.applied < (consumer.batchSize ?? 500)) break;
  }
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${'consumer:' + consumer.name}, 0))`.execute(trx);
    await sql`select pg_advisory_xact_lock(hashtextextended(${'consumer:' + checkpointName}, 0))`.execute(trx);
    for (const table of consumer.tables!) {
      await sql`drop table ${sql.id('public', table)}`.execute(trx);
      await sql`alter table ${sql.id(schema, table)} set schema public`.execute(trx);
    }
    await sql`
      update consumer_checkpoints live set
        last_transaction_id = r.last_transaction_id, last_global_position = r.last_global_position,
        events_applied = r.events_applied, status = 'running', error = null, failed_global_position = null, updated_at = now()
      from consumer_checkpoints r
      where live.name = ${consumer.name} and r.name = ${checkpointName}`.execute(trx);
    await sql`
      insert into consumer_checkpoints (name, last_transaction_id, last_global_position, events_applied)
      select ${consumer.name}, last_transaction_id, last_global_position, events_applied
      from consumer_checkpoints where name = ${checkpointName}
      on conflict (name) do nothing`.execute(trx);
    await sql`delete from consumer_checkpoints where name = ${checkpointName}`.execute(trx);
    await sql`drop schema ${sql.id(schema)} cascade`.execute(trx);
  });
}

/**
 * A read model that commands keep inside their own transactions (members, payments, the
 * catalogue…): the same projection functions the commands call, here applied to the log.
 */
export type InlineReadModel = {
  name: string;
  /** Tables it alone writes; every other table it reads stays the live one. */
  tables: readonly string[];
  /** The event types its apply reads. */
  eventTypes: readonly string[];
  apply: (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>;
  /**
   * The same as `apply`, set-based: the batch named by position, read inside PostgreSQL
   * (Consumer.applyAt). When given, a rebuild's batches use it; `apply` still applies the swap's tail.
   */
  applyAt?: (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;
};

export type SwapResult = { table: string; removed: number; added: number }[];

/** As a consumer (for the rebuild's own checkpoint and batches), under the name `inline:<name>`. */
const inlineConsumer = (model: InlineReadModel): Consumer => ({
  name: `inline:${model.name}`,
  kind: 'projection',
  eventTypes: model.eventTypes,
  tables: model.tables,
  batchSize: REBUILD_BATCH_SIZE,
  apply: model.apply,
  ...(model.applyAt ? { applyAt: model.applyAt } : {}),
});

/**
 * Rebuilds an inline read model from the log beside the live tables, then (unless `swap` is
 * false) makes the live tables equal to the rebuilt ones under the tables' own lock, which every
 * command writing them takes too (docs/consumer-runner.md, "Rebuilding inline read models"). The
 * live tables are corrected row by row, never dropped: their rows that differ are replaced, so
 * readers never miss a table, and other tables' foreign keys stay.
 */
export async function rebuildInline(
  db: Db,
  model: InlineReadModel,
  options: {
    onProgress?: (progress: RebuildProgress) => void;
    swap?: boolean;
    /** Runs after the last catch-up outside the lock, just before the swap (tests open the race window here). */
    beforeSwap?: () => Promise<void>;
    /** Told each time the swap found a command writing the tables and will try again. */
    onLockBusy?: (attempt: number) => void;
  } = {},
): Promise<{ applied: number; schema: string; swapped: SwapResult | null }> {
  const consumer = inlineConsumer(model);
  const schema = rebuildSchema(consumer);
  const checkpointName = rebuildCheckpoint(consumer);
  await prepareRebuildTables(db, consumer, schema, checkpointName);
  const total = await countEvents(db, consumer);
  let applied = 0;
  const report = (n: number) => {
    applied += n;
    options.onProgress?.({ consumer: model.name, applied, total });
  };
  for (;;) {
    const result = await drainConsumer(db, consumer, { checkpointName, searchPath: `${schema}, public`, onBatch: report });
    if (result.status === 'failed') throw new Error(`rebuild of ${model.name} failed: ${result.error}`);
    if (result.status === 'caught_up') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (options.swap === false) {
    // Left beside the live tables to be compared: complete up to every event committed by now,
    // not only those below the horizon (a transaction running anywhere in the database holds that back).
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('search_path', ${`${schema}, public`}, true)`.execute(trx);
      const tail = await committedAfterCheckpoint(trx, checkpointName, model.eventTypes);
      if (tail.length) await model.apply(trx, tail);
      report(tail.length);
    });
    return { applied, schema, swapped: null };
  }
  await options.beforeSwap?.();
  const swapped = await swapInline(db, model, consumer, schema, checkpointName, report, options.onLockBusy);
  return { applied, schema, swapped };
}

/** Drops what a rebuild left beside the live tables (after `swap: false`). */
export async function discardRebuild(db: Db, name: string, options: { inline?: boolean } = {}): Promise<void> {
  const consumer = { name: options.inline ? `inline:${name}` : name } as Consumer;
  await sql`drop schema if exists ${sql.id(rebuildSchema(consumer))} cascade`.execute(db);
  await sql`delete from consumer_checkpoints where name = ${rebuildCheckpoint(consumer)}`.execute(db);
}

export type TableDifference = { table: string; onlyLive: number; onlyRebuilt: number; samples: { side: 'live' | 'rebuilt'; row: unknown }[] };

/**
 * Row-for-row comparison of a rebuild (left by `swap: false`) with the live tables: every column
 * of every row, by its whole-row JSON (jsonb equality: 1.50 equals 1.5, key order does not matter).
 */
export async function compareWithLive(db: Db, schema: string, tables: readonly string[]): Promise<TableDifference[]> {
  const differences: TableDifference[] = [];
  for (const table of tables) {
    const live = sql.id('public', table);
    const rebuilt = sql.id(schema, table);
    const { rows } = await sql<{ side: 'live' | 'rebuilt'; row: unknown }>`
      with l as (select to_jsonb(t) as row from ${live} t), r as (select to_jsonb(t) as row from ${rebuilt} t),
        only_live as (select row from l except all select row from r),
        only_rebuilt as (select row from r except all select row from l)
      select 'live' as side, row from only_live union all select 'rebuilt', row from only_rebuilt`.execute(db);
    const onlyLive = rows.filter((r) => r.side === 'live').length;
    if (rows.length) differences.push({ table, onlyLive, onlyRebuilt: rows.length - onlyLive, samples: rows.slice(0, 6) });
  }
  return differences;
}

async function primaryKey(trx: Transaction<Database>, table: string): Promise<string[]> {
  const { rows } = await sql<{ column: string }>`
    select a.attname as column from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = ${`public.${table}`}::regclass and i.indisprimary
    order by array_position(i.indkey, a.attnum)`.execute(trx);
  if (!rows.length) throw new Error(`${table} has no primary key; an inline read model's table needs one to be swapped row by row`);
  return rows.map((r) => r.column);
}

/** Attempts at taking the tables' lock without waiting before waiting for it (bounded). */
const NOWAIT_ATTEMPTS = 200;

/**
 * The swap of an inline read model, in one transaction:
 * 1. lock the live tables in EXCLUSIVE mode: reads go on, writes wait. Every command that writes
 *    them holds ROW EXCLUSIVE on them from its first write to its commit, so once we hold the lock
 *    every command that wrote them has committed, and every command still running has not written
 *    them yet and will write after our commit, into the corrected tables, its own events (which
 *    are not visible to us: they are not committed). Taken NOWAIT, retried: a swap waiting for one
 *    table while holding another could deadlock with a command writing both in the other order,
 *    and the command might be the one aborted. After many attempts it waits, bounded by lock_timeout.
 * 2. apply every committed event of its types after the rebuild's checkpoint. Not only those below
 *    the horizon, as the batches read: under the lock every committed one is already in the live
 *    tables, so it must be in the rebuilt ones too, whichever transactions are still running.
 * 3. delete the live rows that differ from the rebuilt ones or are not in them (children first),
 *    insert the rebuilt rows the live tables lack (parents first). Rows are compared whole
 *    (`r = l`: column by column with each type's equality, 1.50 = 1.5, two nulls equal; the
 *    fresh table is a copy of the live one's columns): a tenth of the cost of comparing their
 *    to_jsonb (members at 9,091 rows: 19 ms against 249 ms). A column type without an equality
 *    (json, point) would make it fail loudly; no read model's table has one.
 */
async function swapInline(
  db: Db,
  model: InlineReadModel,
  consumer: Consumer,
  schema: string,
  checkpointName: string,
  report: (n: number) => void,
  onLockBusy?: (attempt: number) => void,
): Promise<SwapResult> {
  // Catch up below the horizon first, so the tail applied under the lock is short.
  for (;;) {
    const result = await runBatch(db, consumer, { checkpointName, searchPath: `${schema}, public` });
    if (result === null || result.applied === 0) break;
    report(result.applied);
  }
  const tables = sql.join(model.tables.map((table) => sql.id('public', table)));
  for (let attempt = 1; ; attempt++) {
    const wait = attempt > NOWAIT_ATTEMPTS;
    try {
      return await db.transaction().execute(async (trx) => {
        if (wait) await sql`set local lock_timeout = '10s'`.execute(trx);
        await sql`lock table ${tables} in exclusive mode ${sql.raw(wait ? '' : 'nowait')}`.execute(trx);
        await sql`select pg_advisory_xact_lock(hashtextextended(${'consumer:' + checkpointName}, 0))`.execute(trx);
        await sql`select set_config('search_path', ${`${schema}, public`}, true)`.execute(trx);
        const tail = await committedAfterCheckpoint(trx, checkpointName, model.eventTypes);
        if (tail.length) await model.apply(trx, tail);
        report(tail.length);
        await sql`select set_config('search_path', 'public', true)`.execute(trx);
        const result: SwapResult = [];
        for (const table of [...model.tables].reverse()) {
          const key = await primaryKey(trx, table);
          const same = sql.join(key.map((column) => sql`r.${sql.id(column)} = l.${sql.id(column)}`), sql` and `);
          const removed = await sql`
            delete from ${sql.id('public', table)} l
            where not exists (select 1 from ${sql.id(schema, table)} r where ${same} and r = l)`.execute(trx);
          result.unshift({ table, removed: Number(removed.numAffectedRows ?? 0), added: 0 });
        }
        for (const entry of result) {
          const key = await primaryKey(trx, entry.table);
          const same = sql.join(key.map((column) => sql`r.${sql.id(column)} = l.${sql.id(column)}`), sql` and `);
          const added = await sql`
            insert into ${sql.id('public', entry.table)}
            select r.* from ${sql.id(schema, entry.table)} r
            where not exists (select 1 from ${sql.id('public', entry.table)} l where ${same})`.execute(trx);
          entry.added = Number(added.numAffectedRows ?? 0);
        }
        await sql`delete from consumer_checkpoints where name = ${checkpointName}`.execute(trx);
        await sql`drop schema ${sql.id(schema)} cascade`.execute(trx);
        return result;
      });
    } catch (error) {
      // 55P03: lock_not_available (NOWAIT). Another attempt in a moment.
      if ((error as { code?: string }).code === '55P03' && !wait) {
        onLockBusy?.(attempt);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5 * attempt, 50)));
        continue;
      }
      throw error;
    }
  }
}

/** Every committed event of these types after the rebuild's checkpoint (no horizon: see swapInline). */
async function committedAfterCheckpoint(trx: Transaction<Database>, checkpointName: string, types: readonly string[]): Promise<RecordedEvent[]> {
  const { rows } = await sql<{ tx: string; gp: number }>`
    select last_transaction_id::text as tx, last_global_position as gp from consumer_checkpoints where name = ${checkpointName}`.execute(trx);
  if (!rows[0]) throw new Error(`no checkpoint row for ${checkpointName}`);
  return readCommittedAfter(trx, { transactionId: rows[0].tx, globalPosition: Number(rows[0].gp) }, types);
}
