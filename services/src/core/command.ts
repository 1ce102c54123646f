import { type Compilable, type OperationNodeSource, type Transaction, sql } from 'kysely';
import type { Database } from '../database';
import { type Db, type Executor, isStalePlan } from './db';
import { ConcurrencyConflict } from './errors';
import {
  type DomainEvent,
  type EventMetadata,
  type PendingEvent,
  type RecordedEvent,
  appendPendingWith,
  appendToStream,
  declareAppendsSql,
  pendingEvent,
  readStream,
  streamLockKey,
  typesAppendedIn,
} from './event-store';
import { type LoadedStream, saveSnapshot, snapshotWrite } from './snapshots';

/**
 * A decider (STYLE.md 3): pure functions from past events and a command to new events.
 * No database, clock or randomness inside; time comes in the command or metadata.
 */
export type Decider<State, Command, Event extends DomainEvent> = {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
};

export function foldEvents<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: readonly DomainEvent[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event as Event), decider.initialState());
}

export type CommandContext = {
  db: Db;
  /**
   * Called after each commit: wakes the consumers that read the event types it appended (BullMQ),
   * every consumer when `appended` is not given (a caller that does not know what it appended);
   * and mail delivery, unless `mail: false` (a unit that wrote no mail to the outbox: runCommand's).
   */
  onCommitted: (appended?: ReadonlySet<string>, options?: { mail?: boolean }) => void;
};

/**
 * Runs one command's unit of work in a transaction: read, decide, append, inline projections.
 * A concurrency conflict re-runs the whole unit from a fresh read a few times before it surfaces
 * as a 409. `appends`: every event type the unit may append, declared in the transaction's first
 * statement so that readers of other types do not wait for it (decision 73; appending another
 * type then throws): only for a unit whose types are few and sure.
 */
export async function runInTransaction<T>(
  ctx: CommandContext,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: { attempts?: number; appends?: readonly string[] } = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  let staleRetried = false;
  for (let attempt = 1; ; attempt++) {
    try {
      let appended: ReadonlySet<string> = new Set();
      const result = await ctx.db.transaction().execute(async (trx) => {
        if (options.appends) await sql`select ${declareAppendsSql(trx, options.appends)}`.execute(trx);
        const done = await work(trx);
        appended = typesAppendedIn(trx);
        return done;
      });
      ctx.onCommitted(appended);
      return result;
    } catch (error) {
      // A prepared statement went stale in the transaction (core/db.ts isStalePlan): it rolled back, the statement is prepared anew at its next use.
      if (isStalePlan(error) && !staleRetried) {
        staleRetried = true;
        continue;
      }
      if (error instanceof ConcurrencyConflict && attempt < attempts) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/**
 * Reads a stream, folds it, decides, and appends at the version read: the body of most commands.
 * `loaded`: the stream already folded from its snapshot (core/snapshots.ts loadStream); a new
 * snapshot is then written after the append once enough events were folded past the last one.
 */
export async function decideOnStream<State, Command, Event extends DomainEvent>(
  trx: Transaction<Database>,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
  loaded?: LoadedStream<State>,
): Promise<{ state: State; events: RecordedEvent<Event>[] }> {
  let state: State;
  let version: number;
  if (loaded) {
    ({ state, version } = loaded);
  } else {
    const past = await readStream(trx, streamId);
    state = foldEvents(decider, past);
    version = past.length;
  }
  const newEvents = decider.decide(command, state);
  const recorded = (await appendToStream(trx, streamId, newEvents, {
    expectedVersion: version,
    metadata,
  })) as RecordedEvent<Event>[];
  const newState = newEvents.reduce(decider.evolve, state);
  if (loaded && loaded.sinceSnapshot + newEvents.length >= loaded.snapshots.every) {
    await saveSnapshot(trx, streamId, loaded.snapshots.kind, version + newEvents.length, newState);
  }
  return { state: newState, events: recorded };
}

/** A write of an inline projection, as a query not yet run: run alone, or alongside an append in one statement. */
export type ProjectionWrite = Compilable & OperationNodeSource;

/** Runs an inline projection's writes one after the other (inside a command's transaction, or a rebuild's batch). */
export async function runWrites(db: Executor, writes: readonly ProjectionWrite[]): Promise<void> {
  for (const write of writes) await db.executeQuery(write.compile());
}

/**
 * What runCommand hands its work: where to read and write (the pool, or a transaction on a
 * retry with `lockOnRetry`), whether the stream's lock is to be taken with the read (`locked`), and
 * the event types the unit appended.
 */
export type CommandRun = { db: Executor; locked: boolean; appended: Set<string> };

/**
 * Runs a command without an explicit transaction (issue 13 item 2): `work` reads its stream and
 * facts in one statement (loadStream on `run.db`), decides, and writes the decision with
 * writeDecision: the append at the version read and the inline projection, all or nothing. That is
 * optimistic concurrency, as event stores do it: the append refuses a stream that moved since the
 * read (expected version), and the unit then re-runs from a fresh read a few times before the
 * conflict surfaces as a 409, as runInTransaction does. Rings the doorbell after the write.
 *
 * `lockOnRetry` (streams whose writers queue on the stream's lock: wallets): after a conflict the
 * unit re-runs in a transaction with `run.locked`, taking the lock with its read as before, so
 * writers of one busy wallet wait their turn instead of failing on each other's appends.
 */
export async function runCommand<T>(
  ctx: CommandContext,
  work: (run: CommandRun) => Promise<T>,
  options: { attempts?: number; lockOnRetry?: boolean; stream?: string } = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  let staleRetried = false;
  for (let attempt = 1; ; attempt++) {
    const appended = new Set<string>();
    const locked = options.lockOnRetry === true && (attempt > 1 || recentlyContended(options.stream));
    try {
      const result = locked
        ? await ctx.db.transaction().execute((trx) => work({ db: trx, locked: true, appended }))
        : await work({ db: ctx.db, locked: false, appended });
      // A runCommand unit writes its decision only (writeDecision), never mail: no delivery to ring.
      ctx.onCommitted(appended, { mail: false });
      return result;
    } catch (error) {
      // A prepared statement went stale in a locked retry's transaction (core/db.ts isStalePlan): nothing was written; once more.
      if (isStalePlan(error) && !staleRetried) {
        staleRetried = true;
        continue;
      }
      if (error instanceof ConcurrencyConflict) noteContention(options.stream);
      if (error instanceof ConcurrencyConflict && attempt < attempts) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/**
 * Streams that lost an append in the last few seconds (this process): their next commands take the
 * lock with their read from the first attempt (`lockOnRetry` units naming their `stream`). Under
 * contention the optimistic attempt is wasted work that makes more contention: in the lag bench
 * (200 commands a second on 32 wallets) commands went from 57 ms p50 to seconds once a queue formed,
 * each conflict re-running behind the lock. A quiet stream keeps the two-statement path.
 */
const CONTENTION_MEMORY_MS = 5_000;
const CONTENDED_STREAMS_KEPT = 10_000;
const contended = new Map<string, number>();

function noteContention(stream: string | undefined): void {
  if (stream === undefined) return;
  contended.delete(stream);
  contended.set(stream, Date.now());
  if (contended.size > CONTENDED_STREAMS_KEPT) contended.delete(contended.keys().next().value!);
}

export function recentlyContended(stream: string | undefined): boolean {
  if (stream === undefined) return false;
  const at = contended.get(stream);
  return at !== undefined && Date.now() - at < CONTENTION_MEMORY_MS;
}

/**
 * The write half of a runCommand unit: appends `decided` to the stream at `loaded.version` and
 * makes the inline projection's writes (`project`), and every `snapshots.every` events a snapshot.
 *  - one event (nearly every command): ONE statement (appendPendingWith), its own transaction;
 *  - several: a transaction (the stream's lock when `lock`, the append, the writes one by one),
 *    since two writes of one statement may not change the same row.
 * `lock`: the stream's writers decide under its lock (wallets: streamLockKey); it is taken before
 * the head is read, so a writer holding it is waited for and then seen (a conflict, re-read); in
 * a locked retry (runCommand `lockOnRetry`) it is already held, and taking it again changes nothing.
 * A stale version throws ConcurrencyConflict (runCommand re-runs the unit).
 */
export async function writeDecision<State, Event extends DomainEvent>(
  run: CommandRun,
  streamId: string,
  decider: Pick<Decider<State, unknown, Event>, 'evolve'>,
  loaded: LoadedStream<State>,
  decided: readonly Event[],
  metadata: EventMetadata,
  options: { lock?: boolean; project: (db: Executor, events: readonly PendingEvent[]) => ProjectionWrite[] },
): Promise<{ state: State; events: RecordedEvent<Event>[] }> {
  if (decided.length === 0) return { state: loaded.state, events: [] };
  const lock = options.lock ?? false;
  const newState = decided.reduce(decider.evolve, loaded.state);
  const version = loaded.version + decided.length;
  const snapshot = loaded.sinceSnapshot + decided.length >= loaded.snapshots.every ? snapshotWrite(streamId, loaded.snapshots.kind, version, newState) : null;
  let events: RecordedEvent[];
  if (decided.length === 1) {
    const pending = pendingEvent(streamId, decided[0]!, loaded.version, metadata);
    const writes: OperationNodeSource[] = [...options.project(run.db, [pending]), ...(snapshot ? [snapshot] : [])];
    events = [await appendPendingWith(run.db, pending, { lock }, writes)];
  } else {
    const write = async (trx: Executor) => {
      if (lock) await sql`select pg_advisory_xact_lock(hashtextextended(${streamLockKey(streamId)}, 0))`.execute(trx);
      const recorded = await appendToStream(trx, streamId, decided, { expectedVersion: loaded.version, metadata });
      await runWrites(trx, options.project(trx, recorded));
      if (snapshot) await snapshot.execute(trx);
      return recorded;
    };
    events = run.db.isTransaction ? await write(run.db) : await (run.db as Db).transaction().execute(write);
  }
  for (const event of decided) run.appended.add(event.type);
  return { state: newState, events: events as RecordedEvent<Event>[] };
}
