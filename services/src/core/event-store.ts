import { createHash } from 'node:crypto';
import { type OperationNodeSource, type RawBuilder, type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import { type Executor, PREPARED, namesPrepared } from './db';
import { canonicalJson } from './canonical-json';
import { timeOrderedId } from './ids';
import { ConcurrencyConflict } from './errors';

/**
 * The event log (docs/event-store.md). One table, one row per event, streams ordered by
 * stream_position, the whole log read in commit order (transaction_id, global_position).
 */

export type Actor =
  | { type: 'member'; id: string }
  | { type: 'admin'; id: string }
  | { type: 'system'; id: string }
  | { type: 'anonymous'; id: null };

export type EventMetadata = {
  actor: Actor;
  /** When the command was decided; also the event's recorded_at, so the hash is reproducible. */
  now: string;
  request_id?: string | null;
  correlation_id?: string | null;
  /** The event that caused this one (policies); null for commands from people. */
  causation_id?: string | null;
  idempotency_key?: string | null;
};

/** What a decider returns: a past-tense type and plain JSON data. */
export type DomainEvent<Type extends string = string, Data extends object = Record<string, unknown>> = {
  type: Type;
  data: Data;
};

/**
 * Every type of an event union, as a list the compiler keeps complete: the record must name each
 * type of `E` and nothing else. For a command that declares what it appends (runInTransaction's
 * `appends`), where a type left out would make its transaction fail.
 */
export function eventTypesOf<E extends DomainEvent>(types: { [Type in E['type']]: true }): readonly E['type'][] {
  return Object.keys(types) as E['type'][];
}

export type RecordedEvent<E extends DomainEvent = DomainEvent> = E & {
  streamId: string;
  streamPosition: number;
  globalPosition: number;
  transactionId: string;
  eventId: string;
  schemaVersion: number;
  metadata: EventMetadata;
  recordedAt: string;
  prevHash: string;
  hash: string;
};

export const GENESIS_HASH = '0'.repeat(64);

/** Expected version: the number of events the caller saw in the stream (0 = a new stream), or 'any'. */
export type ExpectedVersion = number | 'any';

type EventRow = {
  global_position: number;
  transaction_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: Date;
  event_id: string;
  prev_hash: string;
  hash: string;
};

/** What an event's hash covers (eventHash); the tamper check's events carry these and the hash. */
export type HashedContent = {
  prevHash: string;
  streamId: string;
  streamPosition: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  recordedAt: string;
  eventId: string;
};

export function eventHash(event: HashedContent): string {
  // Canonical JSON (RFC 8785) so the hash survives jsonb's reordering of keys.
  const canonical = canonicalJson({
    prev_hash: event.prevHash,
    stream_id: event.streamId,
    stream_position: event.streamPosition,
    type: event.type,
    schema_version: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recorded_at: event.recordedAt,
    event_id: event.eventId,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    type: row.type,
    data: row.data,
    streamId: row.stream_id,
    streamPosition: row.stream_position,
    globalPosition: row.global_position,
    transactionId: row.transaction_id,
    eventId: row.event_id,
    schemaVersion: row.schema_version,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

const eventColumns = sql`global_position, transaction_id::text as transaction_id, stream_id, stream_position, type,
  schema_version, data, metadata, recorded_at, event_id, prev_hash, hash`;

export async function readStream(db: Executor, streamId: string): Promise<RecordedEvent[]> {
  const { rows } = await sql<EventRow>`
    select ${eventColumns} from events where stream_id = ${streamId} order by stream_position`.execute(db);
  return rows.map(toRecorded);
}

export async function streamVersion(db: Executor, streamId: string): Promise<{ version: number; lastHash: string }> {
  const { rows } = await sql<{ stream_position: number; hash: string }>`
    select stream_position, hash from events where stream_id = ${streamId}
    order by stream_position desc limit 1`.execute(db);
  const last = rows[0];
  return last ? { version: last.stream_position, lastHash: last.hash } : { version: 0, lastHash: GENESIS_HASH };
}

function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** One event ready to insert: its place in its stream and its link in the stream's hash chain. */
type ChainedRow = { streamId: string; streamPosition: number; eventId: string; prevHash: string; hash: string; event: DomainEvent; metadata: EventMetadata; recordedAt: string };

/** Numbers and hashes `events` after a stream head: the chain every append writes (and verifyLog checks). */
function chainEvents(streamId: string, head: { version: number; lastHash: string }, events: readonly DomainEvent[], metadata: EventMetadata, recordedAt: string): ChainedRow[] {
  let prevHash = head.lastHash;
  return events.map((event, index) => {
    const streamPosition = head.version + index + 1;
    const eventId = timeOrderedId();
    const hash = eventHash({ prevHash, streamId, streamPosition, type: event.type, schemaVersion: 1, data: event.data, metadata, recordedAt, eventId });
    const row = { streamId, streamPosition, eventId, prevHash, hash, event, metadata, recordedAt };
    prevHash = hash;
    return row;
  });
}

/** One insert statement for rows of any streams; answers each row's log position, in row order. */
async function insertRows(db: Executor, rows: readonly ChainedRow[]): Promise<RecordedEvent[]> {
  const { rows: inserted } = await sql<{ stream_id: string; stream_position: number; global_position: number; transaction_id: string }>`
    insert into events (stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash)
    select * from unnest(
      ${sql.val(rows.map((r) => r.streamId))}::text[],
      ${sql.val(rows.map((r) => r.streamPosition))}::int[],
      ${sql.val(rows.map((r) => r.event.type))}::text[],
      ${sql.val(rows.map(() => 1))}::smallint[],
      ${sql.val(rows.map((r) => JSON.stringify(r.event.data)))}::jsonb[],
      ${sql.val(rows.map((r) => JSON.stringify(r.metadata)))}::jsonb[],
      ${sql.val(rows.map((r) => r.recordedAt))}::timestamptz[],
      ${sql.val(rows.map((r) => r.eventId))}::uuid[],
      ${sql.val(rows.map((r) => r.prevHash))}::text[],
      ${sql.val(rows.map((r) => r.hash))}::text[]
    )
    returning stream_id, stream_position, global_position, transaction_id::text as transaction_id`.execute(db);
  const positions = new Map(inserted.map((row) => [`${row.stream_position}:${row.stream_id}`, row]));
  return rows.map((r) => {
    const position = positions.get(`${r.streamPosition}:${r.streamId}`)!;
    return {
      ...r.event,
      streamId: r.streamId,
      streamPosition: r.streamPosition,
      globalPosition: position.global_position,
      transactionId: position.transaction_id,
      eventId: r.eventId,
      schemaVersion: 1,
      metadata: r.metadata,
      recordedAt: r.recordedAt,
      prevHash: r.prevHash,
      hash: r.hash,
    };
  });
}

/**
 * The canonical JSON eventHash hashes, cut around the two values only the database knows when it
 * appends (the previous hash and the stream position): canonical = head + prevHash + middle +
 * streamPosition + tail. RFC 8785 sorts keys, so `prev_hash` always follows `metadata` and
 * `stream_position` follows `stream_id` (a unit test checks the pieces against eventHash).
 */
export function canonicalHashPieces(event: Omit<HashedContent, 'prevHash' | 'streamPosition'>): { head: string; middle: string; tail: string } {
  const json = (value: unknown) => canonicalJson(value);
  return {
    head: `{"data":${json(event.data)},"event_id":${json(event.eventId)},"metadata":${json(event.metadata)},"prev_hash":"`,
    ...hashMiddleAndTail(event),
  };
}

/** canonicalHashPieces' middle and tail: what follows prev_hash and stream_position (no data). */
export function hashMiddleAndTail(event: { streamId: string; type: string; schemaVersion: number; recordedAt: string }): { middle: string; tail: string } {
  // JSON.stringify of a string or a safe integer is its canonical JSON (RFC 8785).
  return {
    middle: `","recorded_at":${JSON.stringify(event.recordedAt)},"schema_version":${JSON.stringify(event.schemaVersion)},"stream_id":${JSON.stringify(event.streamId)},"stream_position":`,
    tail: `,"type":${JSON.stringify(event.type)}}`,
  };
}

/** SQLSTATE the append functions raise for a stale expected version (DETAIL: the actual version). */
const STALE_EXPECTED_VERSION = 'ES409';

/** What append_to_stream and append_event answer for each event they insert. */
type AppendedRow = { appended_position: number; appended_global_position: number; appended_transaction_id: string; appended_prev_hash: string; appended_hash: string };

/** The recorded event an append function's row describes. */
function recorded(event: DomainEvent, streamId: string, row: AppendedRow, eventId: string, metadata: EventMetadata, recordedAt: string): RecordedEvent {
  return {
    ...event,
    streamId,
    streamPosition: row.appended_position,
    globalPosition: row.appended_global_position,
    transactionId: row.appended_transaction_id,
    eventId,
    schemaVersion: 1,
    metadata,
    recordedAt,
    prevHash: row.appended_prev_hash,
    hash: row.appended_hash,
  };
}

/** A stale expected version, or a second writer at the same position, as ConcurrencyConflict; anything else as it came. */
function appendError(error: unknown, streamId: string, expectedVersion: ExpectedVersion): unknown {
  const e = error as { code?: string; detail?: string } | null;
  if (e?.code === STALE_EXPECTED_VERSION) return new ConcurrencyConflict(streamId, expectedVersion, Number(e.detail));
  if (isUniqueViolation(error, 'events_pkey')) return new ConcurrencyConflict(streamId, expectedVersion, null);
  return error;
}

/**
 * Appends events at the stream's end in one statement (one round trip): the append_to_stream
 * function (migrations/2026_11_27_speedappend_01_append_function.ts) reads the head, checks the
 * expected version, chains the hashes and inserts. Keep it the first write of its transaction
 * (an xid taken earlier would sort these events before events committed in between).
 * Two writers at the same expected version: the second blocks on the primary key until the
 * first commits, then fails with a unique violation, answered as ConcurrencyConflict.
 */
export async function appendToStream(
  db: Executor,
  streamId: string,
  events: readonly DomainEvent[],
  options: { expectedVersion: ExpectedVersion; metadata: EventMetadata },
): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  noteAppended(db, events.map((event) => event.type));
  if (events.length === 1) return [await appendOneEvent(db, streamId, events[0]!, options)];
  const { metadata } = options;
  const recordedAt = new Date(metadata.now).toISOString();
  const eventIds = events.map(() => timeOrderedId());
  const pieces = events.map((event, i) =>
    canonicalHashPieces({ streamId, type: event.type, schemaVersion: 1, data: event.data, metadata, recordedAt, eventId: eventIds[i]! }),
  );
  try {
    const { rows } = await sql<AppendedRow>`
      select * from append_to_stream(
        ${streamId},
        ${options.expectedVersion === 'any' ? null : options.expectedVersion}::integer,
        ${sql.val(events.map((e) => e.type))}::text[],
        ${sql.val(events.map((e) => JSON.stringify(e.data)))}::jsonb[],
        ${JSON.stringify(metadata)}::jsonb,
        ${recordedAt}::timestamptz,
        ${sql.val(eventIds)}::uuid[],
        ${sql.val(pieces.map((p) => p.head))}::text[],
        ${sql.val(pieces.map((p) => p.middle))}::text[],
        ${sql.val(pieces.map((p) => p.tail))}::text[])`.execute(db);
    // RETURNING gives no order guarantee: the i-th event is the i-th position.
    rows.sort((a, b) => a.appended_position - b.appended_position);
    return rows.map((row, i) => recorded(events[i]!, streamId, row, eventIds[i]!, metadata, recordedAt));
  } catch (error) {
    throw appendError(error, streamId, options.expectedVersion);
  }
}

/**
 * appendToStream for one event (what nearly every command appends): one statement (appendedQuery),
 * scalar parameters, the data and metadata sent once as their canonical JSON, which the statement
 * both stores (as jsonb) and hashes (with the head, middle and tail of canonicalHashPieces around
 * them).
 */
async function appendOneEvent(db: Executor, streamId: string, event: DomainEvent, options: { expectedVersion: ExpectedVersion; metadata: EventMetadata }): Promise<RecordedEvent> {
  const { metadata } = options;
  const recordedAt = new Date(metadata.now).toISOString();
  const eventId = timeOrderedId();
  const expectedVersion = options.expectedVersion === 'any' ? null : options.expectedVersion;
  try {
    const { rows } = await sql<AppendedRow>`${sql.raw(PREPARED)}
      with ${appendedQuery(db, { streamId, expectedVersion, type: event.type, data: event.data, metadata, recordedAt, eventId }, { lock: false })}
      select * from appended`.execute(db);
    return recorded(event, streamId, rows[0]!, eventId, metadata, recordedAt);
  } catch (error) {
    throw appendError(error, streamId, options.expectedVersion);
  }
}

type OneEvent = { streamId: string; expectedVersion: number | null; type: string; data: unknown; metadata: EventMetadata; recordedAt: string; eventId: string };

/**
 * The single-event append as WITH queries ending in `appended` (the AppendedRow), for the top of a
 * statement's WITH list (data-modifying WITH queries may not be nested). Three ways, one result:
 * - `lock`: append_event_locked (PL/pgSQL): the stream's lock, then the head read in a snapshot
 *   taken after it is granted (a lock taken inside a plain statement would not refresh its snapshot);
 * - a pool that names PREPARED statements: appendOne, plain SQL, planned once per connection;
 * - otherwise append_event (PL/pgSQL): unnamed, appendOne would be planned at every call
 *   (~0.2 ms: the head read weighs the events table's nine indexes), dearer than the function.
 */
function appendedQuery(db: Executor, e: OneEvent, options: { lock: boolean }) {
  const hashPieces = hashMiddleAndTail({ streamId: e.streamId, type: e.type, schemaVersion: 1, recordedAt: e.recordedAt });
  if (!options.lock && namesPrepared(db)) return appendOne(e, hashPieces);
  const { middle, tail } = hashPieces;
  return sql`appended as (select * from ${sql.raw(options.lock ? 'append_event_locked' : 'append_event')}(${e.streamId}, ${e.expectedVersion}::integer, ${e.type},
        ${canonicalJson(e.data)}, ${canonicalJson(e.metadata)}, ${e.recordedAt}::timestamptz, ${e.eventId}::uuid, ${middle}, ${tail}))`;
}

/**
 * The single-event append in plain SQL. It does what append_event does: reads the head (one index
 * probe), refuses a stale expected version (append_stale_version raises ES409 with the actual
 * version, reached only then: CASE evaluates its branches in order), chains and hashes (the same
 * text, so verifyLog is unchanged) and inserts. As a named prepared statement it costs the server
 * about half the function's call, which ran its own statements through SPI (issue 13 item 1,
 * docs/decisions.md).
 *
 * Concurrency is the function's: the head is read in the statement's snapshot; a writer that
 * committed the same position since finds the primary key taken (unique violation: a conflict),
 * one still in flight makes this insert wait for its end, so two appends never chain from one head.
 */
function appendOne(e: OneEvent, { middle, tail }: { middle: string; tail: string }) {
  return sql`append_params as (
      select ${e.streamId}::text as stream_id, ${e.expectedVersion}::integer as expected_version, ${e.type}::text as type,
        ${canonicalJson(e.data)}::text as data, ${canonicalJson(e.metadata)}::text as metadata, ${e.recordedAt}::timestamptz as recorded_at,
        ${e.eventId}::uuid as event_id, ${middle}::text as middle, ${tail}::text as tail),
    append_head as (
      select coalesce(h.stream_position, 0) as position, coalesce(h.hash, repeat('0', 64)) as hash
      from append_params p left join lateral (
        select e.stream_position, e.hash from events e where e.stream_id = p.stream_id order by e.stream_position desc limit 1) h on true),
    appended as (
      insert into events (stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash)
      select p.stream_id, h.position + 1, p.type, 1, p.data::jsonb, p.metadata::jsonb, p.recorded_at, p.event_id, h.hash,
        encode(sha256(convert_to('{"data":' || p.data || ',"event_id":"' || p.event_id::text || '","metadata":' || p.metadata
          || ',"prev_hash":"' || h.hash || p.middle || (h.position + 1)::text || p.tail, 'UTF8')), 'hex')
      from append_params p, append_head h
      where case when p.expected_version is null or p.expected_version = h.position then true
                 else append_stale_version(p.stream_id, h.position, p.expected_version) end
      returning stream_position as appended_position, global_position as appended_global_position,
        transaction_id::text as appended_transaction_id, prev_hash as appended_prev_hash, hash as appended_hash)`;
}

/**
 * An event about to be appended at a known position (expected version + 1): what an inline
 * projection may read before the append (runCommand's one-statement write, core/command.ts). No
 * log position, transaction or hash yet: those come back from the append.
 */
export type PendingEvent<E extends DomainEvent = DomainEvent> = E & {
  streamId: string;
  streamPosition: number;
  eventId: string;
  schemaVersion: number;
  metadata: EventMetadata;
  recordedAt: string;
};

export function pendingEvent<E extends DomainEvent>(streamId: string, event: E, expectedVersion: number, metadata: EventMetadata): PendingEvent<E> {
  return { ...event, streamId, streamPosition: expectedVersion + 1, eventId: timeOrderedId(), schemaVersion: 1, metadata, recordedAt: new Date(metadata.now).toISOString() };
}

/**
 * Appends one pending event at its expected version AND runs `alongside` (an inline projection's
 * writes: kysely queries or raw SQL) in ONE statement, so in one implicit transaction: all or
 * nothing, one round trip, no BEGIN/COMMIT (issue 13 item 2). The append is the statement's main
 * query and the writes are data-modifying WITH queries, which PostgreSQL runs after it; a stale
 * version (ES409) or a second writer at the position (the primary key) aborts them all and
 * answers ConcurrencyConflict. `lock`: take the stream's lock first (append_event_locked), for
 * streams whose other writers decide under it (wallets). Each write must touch rows no other
 * write of the statement touches (PostgreSQL applies one change per row and statement).
 */
export async function appendPendingWith(
  db: Executor,
  pending: PendingEvent,
  options: { lock: boolean },
  alongside: readonly OperationNodeSource[] = [],
): Promise<RecordedEvent> {
  const { streamId, metadata, recordedAt, eventId } = pending;
  noteAppended(db, [pending.type]);
  const event: DomainEvent = { type: pending.type, data: pending.data };
  const expectedVersion = pending.streamPosition - 1;
  const writes = alongside.map((write, i) => sql`, ${sql.raw(`w${i}`)} as (${write})`);
  try {
    const { rows } = await sql<AppendedRow>`${sql.raw(PREPARED)}
      with ${appendedQuery(db, { streamId, expectedVersion, type: event.type, data: event.data, metadata, recordedAt, eventId }, options)}
      ${sql.join(writes, sql``)}
      select * from appended`.execute(db);
    return recorded(event, streamId, rows[0]!, eventId, metadata, recordedAt);
  } catch (error) {
    throw appendError(error, streamId, expectedVersion);
  }
}

/**
 * The event types each open transaction appends, so its commit rings only the consumers that read
 * them (runInTransaction, core/wakeups.ts). Noted before the statement: a type noted for an append
 * that then failed only rings a consumer for nothing.
 */
const typesAppended = new WeakMap<Executor, Set<string>>();

export function noteAppended(db: Executor, types: Iterable<string>): void {
  if (!db.isTransaction) return;
  const declared = appendsDeclared.get(db);
  const noted = typesAppended.get(db) ?? new Set<string>();
  for (const type of types) {
    // Readers of this type may already have passed the transaction (declareAppends): refuse before the statement.
    if (declared && !declared.has(type)) throw new Error(`${type} appended by a transaction that declared it appends only: ${[...declared].join(', ') || 'nothing'}`);
    noted.add(type);
  }
  typesAppended.set(db, noted);
}

/** Whether noteAppended would let this transaction append `type` (a statement that may append from SQL asks before it runs). */
export function mayAppend(db: Executor, type: string): boolean {
  const declared = appendsDeclared.get(db);
  return !declared || declared.has(type);
}

/**
 * A transaction that says, before its first write, every event type it may append: a reader of
 * other types does not wait for it (the horizon, horizonCtes). Shared advisory locks of one class,
 * one per type's hash plus a mark (objid 0) that the transaction declared at all, are what a reader
 * sees in pg_locks beside the transaction's own xid lock. Shared locks of this class are never
 * taken exclusively, so declaring never waits. Two types of the same hash only make a reader wait
 * for more. A transaction that declared may append nothing else (noteAppended throws): a reader
 * that passed it would never see the event. The statement declares only while the transaction has
 * no xid yet (it answers whether it did): a reader could see a later declaration half made, the mark
 * without every type. Undeclared, the transaction holds every reader back, as before; the check in
 * noteAppended applies either way.
 */
export const APPENDS_DECLARED_LOCK_CLASS = 1163283028; // 'EVNT'

export function declareAppendsSql(trx: Executor, types: readonly string[]) {
  if (!trx.isTransaction) throw new Error('only a transaction declares what it appends');
  const appended = [...typesAppendedIn(trx)].filter((type) => !types.includes(type));
  if (appended.length > 0) throw new Error(`declared after appending ${appended.join(', ')}`);
  appendsDeclared.set(trx, new Set(types));
  return sql<boolean>`(
    select case when pg_current_xact_id_if_assigned() is null then (
      select count(pg_advisory_xact_lock_shared(${APPENDS_DECLARED_LOCK_CLASS}, lock.objid)) >= 0
      from (select 0 as objid union all select hashtext(t) from unnest(${sql.val([...types])}::text[]) t) lock)
    else false end)`;
}

const appendsDeclared = new WeakMap<Executor, ReadonlySet<string>>();

/** The event types appended so far in this transaction (empty when none). */
export function typesAppendedIn(trx: Executor): ReadonlySet<string> {
  return typesAppended.get(trx) ?? new Set();
}

/** The per-stream lock key writers of a stream take turns on (wallet commands, bonus policies, appendToStreams). */
export const streamLockKey = (streamId: string) => `stream:${streamId}`;

/**
 * Events for one stream. `metadata` overrides the call's (a policy appending for several causes
 * in one batch names each cause). A stream may appear more than once only with expectedVersion 'any':
 * its appends are chained one after the other, in the order given.
 */
export type StreamAppend = { streamId: string; events: readonly DomainEvent[]; expectedVersion?: ExpectedVersion; metadata?: EventMetadata };

/** Rows per insert statement: large enough to make round trips rare, small enough to keep each statement modest. */
const APPEND_CHUNK_ROWS = 1000;
/**
 * Up to this many streams, appendToStreams takes each stream's lock. Every advisory lock held
 * takes a slot in PostgreSQL's shared lock table (max_locks_per_transaction × max_connections,
 * 6,400 by default: 30,000 locks in one transaction fail with "out of shared memory", and a
 * transaction holding thousands starves everyone else's locks). Beyond it the primary key alone
 * keeps positions unique, and a lost race is re-read and re-chained (below).
 */
export const MAX_LOCKED_STREAMS = 2000;

/**
 * The one order every multi-stream writer takes its locks in, so no two can deadlock
 * (docs/event-store.md "Locks"): first this lock, shared by writers that lock their streams
 * (then their streams' locks, sorted, in one statement), exclusive for a bulk append too large to
 * lock stream by stream (it waits for the others and keeps them out). A writer of a single stream
 * (a wallet command) takes only that stream's lock: holding one stream, it cannot close a cycle.
 */
export const BULK_APPEND_LOCK = 'streams:bulk-append';

/**
 * Takes BULK_APPEND_LOCK exclusively. A policy that may append to more than MAX_LOCKED_STREAMS
 * streams (a matching cycle, a profit share) calls it first thing in its transaction, before any
 * stream lock, so it never waits for the lock while holding stream locks others wait for.
 */
export async function lockAllStreamsForBulkAppend(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${BULK_APPEND_LOCK}, 0))`.execute(trx);
}
const APPEND_ATTEMPTS = 5;

/**
 * Appends to many streams in a few round trips (periodic bonus runs paying thousands of wallets):
 * takes the streams' locks in one statement (sorted, so two bulk writers cannot deadlock), reads
 * every head in one query, numbers and chains the events exactly as appendToStream does, and
 * inserts ~1,000 rows per statement. Returns the recorded events in the order given.
 *
 * A stream whose `expectedVersion` (default 'any') does not match raises ConcurrencyConflict
 * before anything is written. A writer that did not take the lock and got to a stream first
 * (a unique violation, after it committed) rolls back only these inserts to a savepoint; the heads
 * are read again and the events re-chained behind its event, a few times at most. Needs a
 * transaction (the savepoint); keep it the transaction's first write, like appendToStream.
 */
export async function appendToStreams(
  trx: Transaction<Database>,
  batches: readonly StreamAppend[],
  options: { metadata: EventMetadata; maxLockedStreams?: number },
): Promise<RecordedEvent[]> {
  const appends = batches.filter((batch) => batch.events.length > 0);
  if (appends.length === 0) return [];
  noteAppended(trx, appends.flatMap((batch) => batch.events.map((event) => event.type)));
  const streamIds = [...new Set(appends.map((batch) => batch.streamId))];
  if (streamIds.length !== appends.length && appends.some((batch) => (batch.expectedVersion ?? 'any') !== 'any')) {
    throw new Error('appendToStreams: a stream given twice cannot name an expected version');
  }

  if (streamIds.length <= (options.maxLockedStreams ?? MAX_LOCKED_STREAMS)) {
    const sorted = [...streamIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    await sql`select pg_advisory_xact_lock_shared(hashtextextended(${BULK_APPEND_LOCK}, 0))`.execute(trx);
    await sql`
      select pg_advisory_xact_lock(hashtextextended(key, 0))
      from unnest(${sql.val(sorted.map(streamLockKey))}::text[]) with ordinality as locks(key, n)
      order by n`.execute(trx);
  } else {
    await lockAllStreamsForBulkAppend(trx);
  }

  for (let attempt = 1; ; attempt++) {
    const { rows: headRows } = await sql<{ stream_id: string; stream_position: number; hash: string }>`
      select s.stream_id, head.stream_position, head.hash
      from unnest(${sql.val(streamIds)}::text[]) as s(stream_id)
      cross join lateral (
        select stream_position, hash from events e where e.stream_id = s.stream_id order by stream_position desc limit 1
      ) head`.execute(trx);
    const heads = new Map(headRows.map((row) => [row.stream_id, { version: row.stream_position, lastHash: row.hash }]));
    const headOf = (streamId: string) => heads.get(streamId) ?? { version: 0, lastHash: GENESIS_HASH };
    const chainAfterHead = (batch: StreamAppend): ChainedRow[] => {
      const metadata = batch.metadata ?? options.metadata;
      const rows = chainEvents(batch.streamId, headOf(batch.streamId), batch.events, metadata, new Date(metadata.now).toISOString());
      const last = rows.at(-1);
      if (last) heads.set(batch.streamId, { version: last.streamPosition, lastHash: last.hash });
      return rows;
    };
    // Every expected version is checked before anything is written.
    for (const batch of appends) {
      const expected = batch.expectedVersion ?? 'any';
      const head = headOf(batch.streamId);
      if (expected !== 'any' && expected !== head.version) throw new ConcurrencyConflict(batch.streamId, expected, head.version);
    }
    await sql`savepoint append_to_streams`.execute(trx);
    try {
      // Chained chunk by chunk, so the session is never idle in its transaction for long while
      // JS hashes (idle_in_transaction_session_timeout, core/db.ts).
      const recorded: RecordedEvent[] = [];
      let chunk: ChainedRow[] = [];
      for (const batch of appends) {
        chunk.push(...chainAfterHead(batch));
        if (chunk.length >= APPEND_CHUNK_ROWS) {
          recorded.push(...(await insertRows(trx, chunk)));
          chunk = [];
        }
      }
      if (chunk.length > 0) recorded.push(...(await insertRows(trx, chunk)));
      await sql`release savepoint append_to_streams`.execute(trx);
      return recorded;
    } catch (error) {
      if (!isUniqueViolation(error, 'events_pkey')) throw error;
      await sql`rollback to savepoint append_to_streams`.execute(trx);
      await sql`release savepoint append_to_streams`.execute(trx);
      if (attempt >= APPEND_ATTEMPTS) {
        const stream = /\(stream_id, stream_position\)=\((.*), \d+\)/.exec((error as { detail?: string }).detail ?? '')?.[1];
        throw new ConcurrencyConflict(stream ?? streamIds[0]!, 'any', null);
      }
    }
  }
}

export type LogPosition = { transactionId: string; globalPosition: number };

/**
 * A read of the log below the horizon: at most `limit` events of `types`. `otherDatabaseXids`, when
 * the caller already read them in an earlier statement of its transaction, saves the read its own.
 */
export type ConsumerReadOptions = { limit: number; types?: readonly string[]; otherDatabaseXids?: OtherDatabaseXids };
export const LOG_START: LogPosition = { transactionId: '0', globalPosition: 0 };

/**
 * The next events of the whole log after `after`, in commit order, and only those below the oldest
 * transaction of this database still running: an event committed late by a slower transaction
 * sorts after everything a reader has already passed, so it is never skipped.
 */
export async function readLogBatch(
  db: Executor,
  after: LogPosition,
  options: ConsumerReadOptions,
): Promise<RecordedEvent[]> {
  return (await readConsumerBatch(db, after, options)).events;
}

/**
 * The transactions running now in the cluster's other databases (their 32-bit xids): they never
 * write this log, so the horizon leaves them out and a long transaction elsewhere (another
 * database's test file, a report) does not stall every consumer here.
 *
 * Sampled in a statement BEFORE the one whose snapshot reads the log, never in the same one: a
 * statement's snapshot is taken before it runs, so a list read inside it is later than the
 * snapshot, and a transaction of another database that was running at the snapshot and has ended
 * by the time the list is read is missing from the list yet still in the snapshot: it then held
 * the horizon below events already committed, and a consumer woken for them read nothing (safe,
 * but the wake-up was lost, and a test that drained after a commit saw nothing of it). Read
 * before the snapshot, every transaction of another database that could be in the snapshot and
 * older than an event committed before the list was read is in the list; one that starts after
 * it only lowers the bound (safe), and only below events committed after the list was read.
 */
export type OtherDatabaseXids = readonly string[];

export const otherDatabaseXidsSql = sql<string[]>`(
  select coalesce(array_agg(backend_xid::text), '{}') from pg_stat_activity
  where backend_xid is not null and datname is distinct from current_database())`;

export async function otherDatabaseXids(db: Executor): Promise<OtherDatabaseXids> {
  const { rows } = await sql<{ xids: string[] }>`select ${otherDatabaseXidsSql} as xids`.execute(db);
  return rows[0]?.xids ?? [];
}

/**
 * The reader's horizon, as common table expressions ending in `bound(below)`: every event whose
 * transaction id is below `below` has committed or rolled back, so no event can still appear
 * before it. `others` is otherDatabaseXids read in an earlier statement (see there).
 */
export const horizonCtes = (others: OtherDatabaseXids, readTypes?: readonly string[]) => sql`
    snapshot as (select pg_current_snapshot() as s),
    ${readTypes ? declaredOtherwiseCtes(readTypes) : sql``}
    bound as (
      select coalesce(
        (select min(x) from snapshot, pg_snapshot_xip(snapshot.s) as x
         where (x::text::bigint % 4294967296) <> all(${sql.val([...others])}::bigint[])
         ${readTypes ? sql`and (x::text::bigint % 4294967296) not in (select xid from declared_otherwise)` : sql``}),
        (select pg_snapshot_xmax(s) from snapshot)) as below
    )`;

/**
 * The running transactions that declared what they append (declareAppends) and none of
 * `readTypes`: a reader of those types need not wait for them. One read of pg_locks (materialized:
 * the lock table is read consistently once, so a transaction's xid lock and its declaration are
 * seen together). Read after the statement's snapshot: a transaction of the snapshot that has ended
 * since has no xid lock here, so it is not listed and still holds the horizon (safe; the held loop
 * looks again). A transaction whose xid is listed declared before its first write, so before it had
 * that xid: its declaration is whole. Evaluated only when some transaction of the snapshot is running.
 */
const declaredOtherwiseCtes = (readTypes: readonly string[]) => sql`
    declared_locks as materialized (
      select locktype, transactionid, pid, objid from pg_locks
      where granted and (locktype = 'transactionid' and mode = 'ExclusiveLock'
        or locktype = 'advisory' and classid = ${APPENDS_DECLARED_LOCK_CLASS} and objsubid = 2)),
    declared_otherwise as (
      select t.transactionid::text::bigint as xid from declared_locks t
      where t.locktype = 'transactionid'
        and exists (select 1 from declared_locks d where d.pid = t.pid and d.locktype = 'advisory' and d.objid = 0)
        and not exists (select 1 from declared_locks d where d.pid = t.pid and d.locktype = 'advisory'
          and d.objid = any(array(select hashtext(r) from unnest(${sql.val([...readTypes])}::text[]) r)))),`;

/**
 * Whether every event appended up to now is below the horizon, so a consumer draining now sees
 * all of them. A transaction that began before the newest append and is still running (a mail
 * job, a slow command) holds the horizon back until it ends.
 */
export async function logEndVisible(db: Executor, end: string | null): Promise<boolean> {
  if (end === null) return true;
  const others = await otherDatabaseXids(db);
  const { rows } = await sql<{ visible: boolean }>`
    with ${horizonCtes(others)}
    select ${end}::xid8 < (select below from bound) as visible`.execute(db);
  return rows[0]?.visible ?? false;
}

/** The transaction id of the newest committed event, or null for an empty log. */
export async function logEndTransaction(db: Executor): Promise<string | null> {
  const { rows } = await sql<{ end: string | null }>`select transaction_id::text as end from events order by transaction_id desc limit 1`.execute(db);
  return rows[0]?.end ?? null;
}

/**
 * readLogBatch plus how far the read could see: `scannedTo` is the last event of the whole log
 * (any type) below the horizon, read in the same statement (the same snapshot). When fewer events
 * than the limit match, every event up to `scannedTo` was either returned or is of another type,
 * so a consumer may move its checkpoint there: a consumer of rare events (a monthly run) then
 * starts its next read near the head of the log instead of re-reading the whole log for nothing.
 * `held`: some matching event has committed but is not below the horizon yet (an older transaction
 * of this database is still running); a reader that stops here must look again once it ends, since
 * that transaction's commit may wake nobody (core/wakeups.ts drainWhileHeld).
 */
export async function readConsumerBatch(
  db: Executor,
  after: LogPosition,
  options: ConsumerReadOptions,
): Promise<{ events: RecordedEvent[]; scannedTo: LogPosition | null; held: boolean }> {
  const { rows, scannedTo, held } = await consumerBatchRows<EventRow>(db, after, options, eventColumns);
  return { events: rows.map(toRecorded), scannedTo, held };
}

/**
 * readConsumerBatch's batch as positions alone, without the events' data: for a consumer that
 * reads its events inside PostgreSQL (Consumer.applyAt), so a batch never crosses into the process.
 */
export async function readConsumerPositions(
  db: Executor,
  after: LogPosition,
  options: ConsumerReadOptions,
): Promise<{ events: LogPosition[]; scannedTo: LogPosition | null; held: boolean }> {
  const { rows, scannedTo, held } = await consumerBatchRows<{ global_position: number; transaction_id: string }>(
    db,
    after,
    options,
    sql`global_position, transaction_id::text as transaction_id`,
  );
  return { events: rows.map((row) => ({ transactionId: row.transaction_id, globalPosition: Number(row.global_position) })), scannedTo, held };
}

async function consumerBatchRows<Row>(
  db: Executor,
  after: LogPosition,
  options: ConsumerReadOptions,
  columns: RawBuilder<unknown>,
): Promise<{ rows: Row[]; scannedTo: LogPosition | null; held: boolean }> {
  const typeFilter = options.types ? sql`and type = any(${sql.val(options.types)}::text[])` : sql``;
  const others = options.otherDatabaseXids ?? (await otherDatabaseXids(db));
  const { rows } = await sql<Row & { scanned_tx: string | null; scanned_gp: number | null; matched: boolean | null; held: boolean }>`
    with ${horizonCtes(others, options.types)},
    matched as (
      select ${columns}, events.transaction_id as order_tx, true as matched from events
      where (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition})
        and transaction_id < (select below from bound)
        ${typeFilter}
      -- Qualified: the select list turns transaction_id into text, and ordering by that text
      -- would put xid 1000 before 999 (and skip 999).
      order by events.transaction_id, events.global_position
      limit ${options.limit}
    ),
    scanned as (
      select transaction_id::text as scanned_tx, global_position as scanned_gp from events
      where (transaction_id, global_position) > (${after.transactionId}::xid8, ${after.globalPosition})
        and transaction_id < (select below from bound)
      order by events.transaction_id desc, events.global_position desc
      limit 1
    )
    select matched.*, scanned.scanned_tx, scanned.scanned_gp,
      -- Some matching event at or above the horizon and after the checkpoint: an index scan from the
      -- greater of the two bounds (a row comparison it can start at). Written as two conditions
      -- (transaction_id >= below and the row comparison) PostgreSQL cannot combine them into one
      -- start key and, not knowing below when planning, read the whole log every batch (a
      -- sequential scan: 47 ms a batch at 100,000 events, the most of a rebuild batch's time).
      -- Positions are at least 1 (an identity), so (below, 0) < every event of transaction below.
      coalesce((
        select true from events
        where (transaction_id, global_position) > (
            (select greatest(below, ${after.transactionId}::xid8) from bound),
            (select case when below > ${after.transactionId}::xid8 then 0 else ${after.globalPosition}::bigint end from bound))
          ${typeFilter}
        order by events.transaction_id, events.global_position
        limit 1
      ), false) as held
    from (select 1) as one left join scanned on true left join matched on true
    order by matched.order_tx, matched.global_position`.execute(db);
  const first = rows[0];
  const scannedTo = first?.scanned_tx ? { transactionId: first.scanned_tx, globalPosition: Number(first.scanned_gp) } : null;
  return { rows: rows.filter((row) => row.matched), scannedTo, held: first?.held === true };
}

/**
 * Every committed event (visible to this statement) after a position, in commit order, with no
 * horizon: only for a reader that holds a lock every writer of what it projects also takes, so
 * that nothing it must see can still commit below what it reads (core/rebuild.ts, swapInline).
 */
export async function readCommittedAfter(db: Executor, after: LogPosition, types: readonly string[]): Promise<RecordedEvent[]> {
  const { rows } = await sql<EventRow>`
    select ${eventColumns} from events
    where (events.transaction_id, events.global_position) > (${after.transactionId}::xid8, ${after.globalPosition})
      and type = any(${sql.val(types)}::text[])
    order by events.transaction_id, events.global_position`.execute(db);
  return rows.map(toRecorded);
}

export type VerifyProblem = { streamId: string; streamPosition: number; problem: string };

/**
 * Recomputes every event's hash and checks each links to its predecessor in the stream. An edited
 * event fails its own hash; an edited hash breaks the next link; a removed event leaves a gap.
 */
export async function verifyLog(db: Executor, options: { batchSize?: number } = {}): Promise<{ ok: boolean; checked: number; problems: VerifyProblem[] }> {
  const batchSize = options.batchSize ?? 5000;
  const problems: VerifyProblem[] = [];
  let checked = 0;
  let cursor: { streamId: string; streamPosition: number } = { streamId: '', streamPosition: 0 };
  let previous: { streamId: string; streamPosition: number; hash: string } | null = null;
  for (;;) {
    const { rows } = await sql<EventRow>`
      select ${eventColumns} from events
      where (stream_id, stream_position) > (${cursor.streamId}, ${cursor.streamPosition})
      order by stream_id, stream_position limit ${batchSize}`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) {
      const e = toRecorded(row);
      const prior: { streamId: string; streamPosition: number; hash: string } | null = previous?.streamId === e.streamId ? previous : null;
      const expectedPosition: number = prior ? prior.streamPosition + 1 : 1;
      const expectedPrev: string = prior ? prior.hash : GENESIS_HASH;
      if (e.streamPosition !== expectedPosition) {
        problems.push({ streamId: e.streamId, streamPosition: e.streamPosition, problem: `gap: expected position ${expectedPosition}` });
      }
      if (e.prevHash !== expectedPrev) {
        problems.push({ streamId: e.streamId, streamPosition: e.streamPosition, problem: 'does not link to the previous event' });
      }
      if (eventHash(e) !== e.hash) {
        problems.push({ streamId: e.streamId, streamPosition: e.streamPosition, problem: 'content does not match its hash' });
      }
      previous = { streamId: e.streamId, streamPosition: e.streamPosition, hash: e.hash };
      checked++;
    }
    const last = rows[rows.length - 1]!;
    cursor = { streamId: last.stream_id, streamPosition: last.stream_position };
  }
  return { ok: problems.length === 0, checked, problems };
}
