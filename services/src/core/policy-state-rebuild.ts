import { type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import type { Db } from './db';
import type { EventMetadata, RecordedEvent } from './event-store';
import { REBUILD_BATCH_SIZE, type RebuildProgress, type SwapResult } from './rebuild';

/**
 * A policy's working state rebuilt from the log (docs/consumer-runner.md, "Policy working state"):
 * a table a policy keeps from the events it READS stands at the policy's checkpoint, not at the
 * log's head, so it is rebuilt in one transaction holding the policy's own advisory lock (its
 * batches skip meanwhile, and resume after), from the events the policy has applied (up to its
 * checkpoint) plus the events of `appendedTypes` it appended in those batches (all committed ones:
 * only it appends them, and none of its batches runs). Beside the live tables in a schema of its
 * own; then, unless `swap` is false, the live rows that differ are replaced, in the same
 * transaction, so readers see the old rows until the new ones commit.
 */
export type PolicyStateModel = {
  name: string;
  /** The policy whose checkpoint and lock the state follows. */
  policy: string;
  tables: readonly string[];
  /** Events the policy reads, applied up to its checkpoint. */
  readTypes: readonly string[];
  /** Events the policy appends, applied wherever they are in the log. */
  appendedTypes: readonly string[];
  apply: (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>;
  /** The same as `apply`, set-based from the batch's log positions (the events are then never read into the process). */
  applyAt?: (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;
};

const BATCH = REBUILD_BATCH_SIZE;

type Row = {
  global_position: number; transaction_id: string; stream_id: string; stream_position: number; type: string; schema_version: number;
  data: Record<string, unknown>; metadata: EventMetadata; recorded_at: Date; event_id: string; prev_hash: string; hash: string;
};
const recorded = (row: Row): RecordedEvent => ({
  type: row.type, data: row.data, streamId: row.stream_id, streamPosition: row.stream_position, globalPosition: Number(row.global_position),
  transactionId: row.transaction_id, eventId: row.event_id, schemaVersion: row.schema_version, metadata: row.metadata,
  recordedAt: row.recorded_at.toISOString(), prevHash: row.prev_hash, hash: row.hash,
});
/** Named as an inline read model's rebuild (core/rebuild.ts), so discardRebuild(name, { inline: true }) drops it. */
export const policyStateSchema = (name: string) => `rebuild_inline_${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;

export async function rebuildPolicyState(
  db: Db,
  model: PolicyStateModel,
  options: { onProgress?: (progress: RebuildProgress) => void; swap?: boolean } = {},
): Promise<{ applied: number; schema: string; swapped: SwapResult | null }> {
  const schema = policyStateSchema(model.name);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${'consumer:' + model.policy}, 0))`.execute(trx);
    const { rows: checkpoints } = await sql<{ tx: string; gp: number }>`
      select last_transaction_id::text as tx, last_global_position as gp from consumer_checkpoints where name = ${model.policy}`.execute(trx);
    const upTo = checkpoints[0] ?? { tx: '0', gp: 0 };
    const selected = sql`(type = any(${sql.val([...model.readTypes])}::text[]) and (transaction_id, global_position) <= (${upTo.tx}::xid8, ${upTo.gp}::bigint))
      or type = any(${sql.val([...model.appendedTypes])}::text[])`;
    const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from events where ${selected}`.execute(trx);
    const total = counted[0]!.n;

    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx);
    await sql`create schema ${sql.id(schema)}`.execute(trx);
    for (const table of model.tables) await sql`create table ${sql.id(schema, table)} (like ${sql.id('public', table)} including all)`.execute(trx);
    await sql`select set_config('search_path', ${`${schema}, public`}, true)`.execute(trx);
    let applied = 0;
    let after = { tx: '0', gp: 0 };
    // With an applyAt, a batch is its positions only; the apply reads the events inside PostgreSQL.
    const columns = model.applyAt
      ? sql`global_position, transaction_id::text as transaction_id`
      : sql`global_position, transaction_id::text as transaction_id, stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash`;
    for (;;) {
      const { rows } = await sql<Row>`
        select ${columns}
        from public.events
        where (transaction_id, global_position) > (${after.tx}::xid8, ${after.gp}::bigint) and (${selected})
        -- Qualified: the select list turns transaction_id into text, and ordering by that text would
        -- put xid 1000000 before 999999 (a batch then read again, or skipped, past the cursor).
        order by events.transaction_id, events.global_position limit ${BATCH}`.execute(trx);
      if (rows.length === 0) break;
      if (model.applyAt) await model.applyAt(trx, rows.map((row) => Number(row.global_position)));
      else await model.apply(trx, rows.map(recorded));
      applied += rows.length;
      const last = rows[rows.length - 1]!;
      after = { tx: last.transaction_id, gp: Number(last.global_position) };
      options.onProgress?.({ consumer: model.name, applied, total });
    }
    await sql`select set_config('search_path', 'public', true)`.execute(trx);
    if (options.swap === false) return { applied, schema, swapped: null };

    const swapped: SwapResult = [];
    for (const table of model.tables) {
      const live = sql.id('public', table);
      const rebuilt = sql.id(schema, table);
      const removed = await sql`delete from ${live} l where not exists (select 1 from ${rebuilt} r where r = l)`.execute(trx);
      const added = await sql`insert into ${live} select r.* from ${rebuilt} r where not exists (select 1 from ${live} l where r = l)`.execute(trx);
      swapped.push({ table, removed: Number(removed.numAffectedRows ?? 0), added: Number(added.numAffectedRows ?? 0) });
    }
    await sql`drop schema ${sql.id(schema)} cascade`.execute(trx);
    return { applied, schema, swapped };
  });
}
