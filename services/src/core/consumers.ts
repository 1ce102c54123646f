import { type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import type { Db } from './db';
import { LOG_START, type LogPosition, type OtherDatabaseXids, type RecordedEvent, declareAppendsSql, horizonCtes, otherDatabaseXidsSql, readConsumerBatch, readConsumerPositions, typesAppendedIn } from './event-store';

/**
 * Consumers follow the whole log from a checkpoint (docs/consumer-runner.md).
 * - projection: writes read tables; rebuildable into fresh tables.
 * - policy: appends new events (naming their cause); made harmless to re-run by unique keys.
 * A batch and its checkpoint commit in one transaction: every event is applied exactly once.
 */
export type Consumer = {
  name: string;
  kind: 'projection' | 'policy';
  /** Event types it reads; others are skipped in SQL. Omit for all. */
  eventTypes?: readonly string[];
  /**
   * Event types a policy's batch may append, declared before its first write so that readers of
   * other types do not wait for the batch (declareAppendsSql; decision 73). Omit for any type.
   * A projection appends nothing and declares so. A function is asked once the batch is read, with
   * the types it holds (for `applyAt`, every type the consumer reads), for a policy that appends
   * some types only for some causes.
   */
  appends?: readonly string[] | ((batchTypes: ReadonlySet<string>) => readonly string[]);
  /** Read tables a projection owns (for rebuilds). Must be written with unqualified names. */
  tables?: readonly string[];
  batchSize?: number;
  /** Must not throw on a recorded event: validate at the command, not here. */
  apply: (trx: Transaction<Database>, events: RecordedEvent[]) => Promise<void>;
  /**
   * Set-based: the batch's events named by global position (in commit order), read by the consumer
   * inside PostgreSQL (INSERT … SELECT from events). When given, the runner reads positions only and
   * calls this instead of `apply`; `apply` must do the same (it is what rebuilds and tests call).
   */
  applyAt?: (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;
  /**
   * A rebuild's `applyAt` (core/rebuild.ts), when the live one is not set-based enough for a whole
   * log: the same tables from the same batch by other means (a projection's property test says so).
   * The live runner never calls it.
   */
  rebuildAt?: (trx: Transaction<Database>, positions: readonly number[]) => Promise<void>;
};

/**
 * `paused`: an admin paused the consumer (consumer_controls, docs/operations.md); it reads nothing until resumed.
 * `appended`: the event types the consumer's committed batches appended (a policy's), so the worker
 * can wake their readers. `held`: caught up with what it may read, but some event of its types has
 * committed above the horizon (readConsumerBatch): it must be drained again once that clears.
 */
export type DrainResult = {
  applied: number;
  status: 'caught_up' | 'busy' | 'failed' | 'paused';
  error?: string;
  appended: string[];
  held: boolean;
  /** The other databases' transactions read by the last batch, for peekConsumer. */
  otherDatabaseXids?: OtherDatabaseXids;
};
type BatchResult = { applied: number; lastPosition: LogPosition | null; paused?: true; appended: readonly string[]; held: boolean; otherDatabaseXids?: OtherDatabaseXids };

type Checkpoint = { last_transaction_id: string; last_global_position: number; status: string; paused: boolean };


/**
 * The consumer's lock, and in the same statement the other databases' transactions for the batch's
 * horizon: read before the batch's snapshot, as the horizon needs (otherDatabaseXids), at no extra
 * round trip. Null when another runner holds the lock.
 */
async function tryLock(trx: Transaction<Database>, name: string, appends: readonly string[] | undefined): Promise<OtherDatabaseXids | null> {
  // The first statement, so before the batch's first write: what it appends is declared whole.
  const declared = appends ? sql`, ${declareAppendsSql(trx, appends)} as declared` : sql``;
  const { rows } = await sql<{ locked: boolean; others: string[] }>`
    select pg_try_advisory_xact_lock(hashtextextended(${'consumer:' + name}, 0)) as locked, ${otherDatabaseXidsSql} as others ${declared}`.execute(trx);
  return rows[0]?.locked === true ? rows[0].others : null;
}

/** What a consumer's batch declares it may append before reading: a projection nothing, a policy its `appends` (undefined: anything, or decided once read). */
const appendsBeforeRead = (consumer: Pick<Consumer, 'kind' | 'appends'>): readonly string[] | undefined =>
  typeof consumer.appends === 'function' ? undefined : (consumer.appends ?? (consumer.kind === 'projection' ? [] : undefined));

/**
 * The consumer's checkpoint, created at the log's start the first time it runs (one statement
 * after that). A rebuild's checkpoint (`create: false`) is created by the rebuild: a missing one
 * means the rebuild was discarded, and must not silently start over from the log's start.
 */
async function readCheckpoint(trx: Transaction<Database>, name: string, options: { create: boolean }): Promise<Checkpoint> {
  const read = () => sql<Checkpoint>`
    select last_transaction_id::text as last_transaction_id, last_global_position, status,
      coalesce((select k.paused from consumer_controls k where k.name = c.name), false) as paused
    from consumer_checkpoints c where c.name = ${name}`.execute(trx);
  const { rows } = await read();
  if (rows[0]) return rows[0];
  if (!options.create) throw new Error(`no checkpoint row for consumer ${name}`);
  await sql`insert into consumer_checkpoints (name) values (${name}) on conflict do nothing`.execute(trx);
  const created = (await read()).rows[0];
  if (!created) throw new Error(`no checkpoint row for consumer ${name}`);
  return created;
}

/** A batch whose apply threw: how many events it held and where it started (it rolled back). */
class BatchFailed extends Error {
  constructor(
    readonly original: unknown,
    readonly events: number,
    readonly firstGlobalPosition: number,
  ) {
    super(original instanceof Error ? original.message : String(original));
  }
}

async function applyBatch(
  db: Db,
  consumer: Consumer,
  options: { checkpointName?: string; searchPath?: string },
  limit: number,
): Promise<BatchResult | null> {
  const checkpointName = options.checkpointName ?? consumer.name;
  return db.transaction().execute(async (trx) => {
    const otherDatabaseXids = await tryLock(trx, checkpointName, appendsBeforeRead(consumer));
    if (!otherDatabaseXids) return null;
    if (options.searchPath) await sql`select set_config('search_path', ${options.searchPath}, true)`.execute(trx);
    const checkpoint = await readCheckpoint(trx, checkpointName, { create: !options.searchPath });
    // Read under the lock: once a pause commits, no batch starts after it.
    if (checkpoint.paused) return { applied: 0, lastPosition: null, paused: true, appended: [], held: false };
    const after: LogPosition = { transactionId: checkpoint.last_transaction_id, globalPosition: checkpoint.last_global_position };
    const applyAt = consumer.applyAt;
    const { events, scannedTo, held } = applyAt
      ? await readConsumerPositions(trx, after, { limit, types: consumer.eventTypes, otherDatabaseXids })
      : await readConsumerBatch(trx, after, { limit, types: consumer.eventTypes, otherDatabaseXids });
    // A short batch holds every matching event the horizon lets us see: the checkpoint may move to
    // the last event seen of any type, so rare-event consumers do not re-read the log for nothing.
    const last = events.length < limit && scannedTo ? scannedTo : events.at(-1);
    if (!last) return { applied: 0, lastPosition: null, appended: [], held, otherDatabaseXids };
    if (events.length > 0) {
      const batchTypes = applyAt ? consumer.eventTypes : (events as RecordedEvent[]).map((event) => event.type);
      // Still before the batch's first write (readCheckpoint writes only a consumer's very first checkpoint; then it declares nothing).
      if (typeof consumer.appends === 'function' && batchTypes) await sql`select ${declareAppendsSql(trx, consumer.appends(new Set(batchTypes)))}`.execute(trx);
      try {
        if (applyAt) await applyAt(trx, events.map((event) => event.globalPosition));
        else await consumer.apply(trx, events as RecordedEvent[]);
      } catch (error) {
        throw new BatchFailed(error, events.length, events[0]!.globalPosition);
      }
    }
    // Compare-and-set: a checkpoint that moved under us (it cannot while we hold the lock) rolls
    // back. The operators' console's throughput is counted in the same statement (one round trip);
    // its insert runs even when the update matches nothing, which only the throw below undoes.
    const throughput =
      events.length > 0
        ? sql`counted as (
            insert into consumer_throughput (name, minute, events) values (${checkpointName}, date_trunc('minute', now()), ${events.length})
            on conflict (name, minute) do update set events = consumer_throughput.events + excluded.events),`
        : sql``;
    const { rows: moved } = await sql<{ name: string }>`
      with ${throughput} moved as (
        update consumer_checkpoints set last_transaction_id = ${last.transactionId}::xid8, last_global_position = ${last.globalPosition},
          events_applied = events_applied + ${events.length}, status = 'running', error = null, failed_global_position = null, updated_at = now()
        where name = ${checkpointName} and last_transaction_id = ${checkpoint.last_transaction_id}::xid8
          and last_global_position = ${checkpoint.last_global_position}
        returning name)
      select name from moved`.execute(trx);
    if (moved.length !== 1) throw new Error(`checkpoint of ${checkpointName} moved during a batch`);
    return { applied: events.length, lastPosition: { transactionId: last.transactionId, globalPosition: last.globalPosition }, appended: [...typesAppendedIn(trx)], held, otherDatabaseXids };
  });
}

/**
 * Applies one batch. Returns how many events it applied, or null when another runner holds the
 * consumer. `searchPath` redirects a projection's unqualified table names (rebuilds).
 */
export async function runBatch(
  db: Db,
  consumer: Consumer,
  options: { checkpointName?: string; searchPath?: string } = {},
): Promise<{ applied: number; lastPosition: LogPosition | null } | null> {
  try {
    return await applyBatch(db, consumer, options, consumer.batchSize ?? 500);
  } catch (error) {
    throw error instanceof BatchFailed ? error.original : error;
  }
}

/**
 * Runs batches until the consumer has caught up. A failing batch stops the consumer where it is
 * (never skipping the event) and records the error and position for operators; the next wake-up
 * tries again, so a deployed fix resumes it.
 */
export async function drainConsumer(
  db: Db,
  consumer: Consumer,
  options: { checkpointName?: string; searchPath?: string; maxBatches?: number; onBatch?: (applied: number) => void } = {},
): Promise<DrainResult> {
  const checkpointName = options.checkpointName ?? consumer.name;
  const batchSize = consumer.batchSize ?? 500;
  let applied = 0;
  const appended = new Set<string>();
  let otherDatabaseXids: OtherDatabaseXids | undefined;
  const done = (status: DrainResult['status'], held = false, error?: string): DrainResult => ({
    applied,
    status,
    appended: [...appended],
    held,
    ...(error === undefined ? {} : { error }),
    ...(otherDatabaseXids ? { otherDatabaseXids } : {}),
  });
  // After a batch fails, its events are retried one per transaction: the ones before the failing
  // event are applied, and the consumer stops exactly at it (a batch is all-or-nothing).
  let oneByOne = 0;
  for (let batch = 0; batch < (options.maxBatches ?? Number.POSITIVE_INFINITY); batch++) {
    const limit = oneByOne > 0 ? 1 : batchSize;
    let result: Awaited<ReturnType<typeof applyBatch>>;
    try {
      result = await applyBatch(db, consumer, options, limit);
    } catch (error) {
      if (error instanceof BatchFailed && error.events > 1) {
        oneByOne = error.events;
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      await recordFailure(db, consumer, checkpointName, message, error instanceof BatchFailed ? error.firstGlobalPosition : null);
      return done('failed', false, message);
    }
    if (result === null) return done('busy');
    if (result.paused) return done('paused');
    otherDatabaseXids = result.otherDatabaseXids;
    for (const type of result.appended) appended.add(type);
    applied += result.applied;
    options.onBatch?.(result.applied);
    if (oneByOne > 0) oneByOne--;
    if (result.applied < limit) return done('caught_up', result.held);
  }
  return done('caught_up');
}

/**
 * Whether a drain now would find work, in one read-only statement without the consumer's lock: an
 * event of its types after its checkpoint below the horizon (`readable`), or only above it
 * (`held`: an older transaction still runs). The held loop (core/wakeups.ts) looks with this
 * between drains instead of a batch transaction of five statements. `others` may be the list the
 * last batch or look read: an older list only lowers the horizon (xids are never reused across
 * databases while both run), so a stale one can only make a look say "held" a little longer. Each
 * look answers a fresh list (read after its own snapshot) for the next one.
 */
export async function peekConsumer(
  db: Db,
  consumer: Pick<Consumer, 'name' | 'eventTypes'>,
  others: OtherDatabaseXids,
  checkpointName = consumer.name,
): Promise<{ readable: boolean; held: boolean; otherDatabaseXids: OtherDatabaseXids }> {
  const typeFilter = consumer.eventTypes ? sql`and e.type = any(${sql.val(consumer.eventTypes)}::text[])` : sql``;
  const { rows } = await sql<{ readable: boolean; held: boolean; others: string[] }>`
    with ${horizonCtes(others, consumer.eventTypes)},
    checkpoint as (
      select coalesce(max(last_transaction_id), '0'::xid8) as tx, coalesce(max(last_global_position), 0) as gp
      from consumer_checkpoints where name = ${checkpointName})
    select
      exists (select 1 from events e, checkpoint c
        where (e.transaction_id, e.global_position) > (c.tx, c.gp) and e.transaction_id < (select below from bound) ${typeFilter}) as readable,
      -- At or above the horizon and after the checkpoint, as one start key of the commit-order index
      -- (readConsumerBatch's held check says why; positions start at 1).
      exists (select 1 from events e, checkpoint c, bound b
        where (e.transaction_id, e.global_position) > (greatest(b.below, c.tx), case when b.below > c.tx then 0 else c.gp end) ${typeFilter}) as held,
      -- Read after this statement's snapshot, so only for the next look (otherDatabaseXids says why).
      ${otherDatabaseXidsSql} as others`.execute(db);
  const row = rows[0];
  return row ? { readable: row.readable, held: row.held, otherDatabaseXids: row.others } : { readable: true, held: false, otherDatabaseXids: others };
}

async function recordFailure(db: Db, consumer: Consumer, checkpointName: string, message: string, failedAt: number | null): Promise<void> {
  // The failed batch rolled back the checkpoint row it may have created (a consumer's first batch).
  await sql`insert into consumer_checkpoints (name) values (${checkpointName}) on conflict do nothing`.execute(db);
  // Unless the failing event is known, name the next event the consumer would read.
  const typeFilter = consumer.eventTypes ? sql`and e.type = any(${sql.val(consumer.eventTypes)}::text[])` : sql``;
  const position =
    failedAt === null
      ? sql`(
        select e.global_position from events e
        where (e.transaction_id, e.global_position) > (c.last_transaction_id, c.last_global_position) ${typeFilter}
        order by e.transaction_id, e.global_position limit 1)`
      : sql`${failedAt}::bigint`;
  await sql`
    update consumer_checkpoints c set status = 'failed', error = ${message.slice(0, 2000)}, updated_at = now(),
      failed_global_position = ${position}
    where name = ${checkpointName}`.execute(db);
}

export type ConsumerLag = { name: string; status: string; behind: number; error: string | null; failedAt: number | null };

/** How far each consumer is behind the visible log (for /api/ready and /metrics). */
export async function consumerLag(db: Db, consumers: readonly Consumer[]): Promise<ConsumerLag[]> {
  const result: ConsumerLag[] = [];
  for (const consumer of consumers) {
    const { rows } = await sql<{ status: string | null; error: string | null; failed: number | null; behind: number }>`
      select c.status, c.error, c.failed_global_position as failed,
        (select count(*) from events e
          where (e.transaction_id, e.global_position) > (coalesce(c.last_transaction_id, '0'::xid8), coalesce(c.last_global_position, 0))
          ${consumer.eventTypes ? sql`and e.type = any(${sql.val(consumer.eventTypes)}::text[])` : sql``})::int as behind
      from (select 1) one left join consumer_checkpoints c on c.name = ${consumer.name}`.execute(db);
    const row = rows[0]!;
    result.push({ name: consumer.name, status: row.status ?? 'new', behind: row.behind, error: row.error, failedAt: row.failed });
  }
  return result;
}

export { LOG_START };
