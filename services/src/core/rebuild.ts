import { sql } from 'kysely';
import type { Db } from './db';
import { type Consumer, drainConsumer, runBatch } from './consumers';

export type RebuildProgress = { consumer: string; applied: number; total: number };

const rebuildSchema = (consumer: Consumer) => `rebuild_${consumer.name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
const rebuildCheckpoint = (consumer: Consumer) => `${consumer.name}#rebuild`;

/**
 * Rebuilds a projection from position zero into fresh tables beside the live ones, then swaps
 * them in (docs/consumer-runner.md). The live tables keep serving until the swap, which takes
 * the live consumer's lock, applies the last events and renames in one short transaction.
 */
export async function rebuildProjection(
  db: Db,
  consumer: Consumer,
  options: { onProgress?: (progress: RebuildProgress) => void; swap?: boolean } = {},
): Promise<{ applied: number; schema: string }> {
  if (consumer.kind !== 'projection' || !consumer.tables?.length) {
    throw new Error(`${consumer.name} is not a projection with tables; only projections are rebuilt`);
  }
  const schema = rebuildSchema(consumer);
  const checkpointName = rebuildCheckpoint(consumer);
  await prepareRebuildTables(db, consumer, schema, checkpointName);

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
  if (options.swap !== false) await swapIn(db, consumer, schema, checkpointName);
  return { applied, schema };
}

async function prepareRebuildTables(db: Db, consumer: Consumer, schema: string, checkpointName: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
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
    }
    await sql`delete from consumer_checkpoints where name = ${checkpointName}`.execute(trx);
    await sql`insert into consumer_checkpoints (name) values (${checkpointName})`.execute(trx);
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
    if (result === null || result.applied === 0) break;
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
