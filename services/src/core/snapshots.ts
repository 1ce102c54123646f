import { type RawBuilder, sql } from 'kysely';
import { type Executor, PREPARED } from './db';
import type { Decider } from './command';
import type { DomainEvent } from './event-store';

/**
 * Snapshots of long streams (docs/event-store.md "Snapshots"). A wallet stream grows with every
 * bonus and withdrawal, and a command on it used to read and fold the whole stream. A snapshot is
 * the fold of the stream's first `version` events, kept in `stream_snapshots`; a command reads it
 * and only the events after it, in one statement, and folds those on top.
 *
 * Why this is as safe as folding the whole stream:
 * - events are immutable and a stream's positions are dense (an append inserts at head + 1 and the
 *   primary key refuses a second writer there), so "the fold of events 1..version" stays true
 *   forever once written, whoever appends later and whether or not they update the snapshot;
 * - the read happens after the stream's lock, in its own statement (a fresh READ COMMITTED
 *   snapshot), so the tail holds every event committed before the lock was granted; an appender
 *   that does not take the lock (a bulk run over thousands of wallets) makes the command's append
 *   fail on the primary key, and the command re-runs from a fresh read, as without snapshots;
 * - read without the lock (runCommand, core/command.ts), the snapshot and the tail come from one
 *   statement's snapshot, and the append carries the version they reach: a stream that moved since
 *   refuses it (expected version), and the command re-runs from a fresh read;
 * - a snapshot is written in the command's own transaction, after its append: a rolled-back
 *   command leaves none, and it never moves back (`version` only grows);
 * - `kind` names the fold (the decider's evolve and its state's shape): a changed fold gets a new
 *   kind and ignores the old rows, which then fold from the start once and are replaced.
 * The state must be plain JSON (numbers, strings, arrays, objects), as a decider's state is here.
 */
export type SnapshotPolicy = {
  /** The fold's name and version, e.g. 'wallet/1': bump it when evolve or the state's shape changes. */
  kind: string;
  /** Write a new snapshot when a command folded at least this many events past the last one. */
  every: number;
};

/** A stream folded as far as the log goes, from its snapshot: what decideOnStream needs besides the command. */
export type LoadedStream<State> = {
  state: State;
  /** The stream's version: the number of its events folded into `state`. */
  version: number;
  /** Events folded on top of the snapshot (all of them when there was none). */
  sinceSnapshot: number;
  snapshots: SnapshotPolicy;
};

type Row = { part: 'facts' | 'snapshot' | 'event' | 'with'; stream_position: number | null; type: string | null; data: unknown };
/** A stream's read, not yet run (streamRead). */
export type StreamRead = RawBuilder<Row>;

/**
 * A stream's read as loadStream runs it (the snapshot, the events after it, and `facts`, a jsonb
 * expression: what the command needs besides the stream, so reading them costs no extra round
 * trip). `lock`: take the stream's lock first, in the same statement (the lock_and_load_stream
 * function reads after the lock is granted; the facts are read as the statement starts, which is as
 * good: no stream lock guards them).
 */
export function streamRead<Facts = undefined>(streamId: string, snapshots: SnapshotPolicy, options: { facts?: RawBuilder<Facts>; lock?: boolean } = {}): StreamRead {
  const { facts, lock = false } = options;
  const snapshotVersion = sql`(select version from stream_snapshots where stream_id = ${streamId} and kind = ${snapshots.kind})`;
  const stream = lock
    ? sql`select part, stream_position, type, data from lock_and_load_stream(${streamId}, ${snapshots.kind})`
    : sql`select 'snapshot' as part, version as stream_position, null::text as type, state as data
    from stream_snapshots where stream_id = ${streamId} and kind = ${snapshots.kind}
    union all
    select 'event', stream_position, type, data from events
    where stream_id = ${streamId} and stream_position > coalesce(${snapshotVersion}, 0)`;
  return sql<Row>`${stream}
    ${facts ? sql`union all select 'facts', null, null, ${facts}::jsonb` : sql``}`;
}

/**
 * A command's read made ahead of the command, in the statement of something the request needed
 * first (the session check: auth/guards.ts `readAhead`), so the request costs one round trip less.
 * The command's first loadStream takes it if it would run the very same read (same statement
 * text and parameters) without the lock; once: a re-run after a conflict reads afresh. Read without
 * the lock, it is as good as the command's own unlocked read: the append carries the version it
 * reached, and a stream that moved since refuses it (runCommand re-runs the unit).
 */
export class ReadAhead {
  #rows: Row[] | null;
  constructor(
    private readonly key: string,
    rows: Row[],
  ) {
    this.#rows = rows;
  }
  take(key: string): Row[] | null {
    if (this.#rows === null || key !== this.key) return null;
    const rows = this.#rows;
    this.#rows = null;
    return rows;
  }
}

const readKey = (db: Executor, read: StreamRead) => {
  const compiled = read.compile(db);
  return `${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
};

/**
 * Runs `read` (streamRead, unlocked) and `also` (a jsonb expression) in one statement: `also`'s
 * value, and the read kept for the command (ReadAhead).
 */
export async function readAheadWith<Also>(db: Executor, read: StreamRead, also: RawBuilder<Also>): Promise<{ also: Also | null; ahead: ReadAhead }> {
  const { rows } = await sql<Row>`${sql.raw(PREPARED)}
    ${read}
    union all select 'with', null, null, ${also}::jsonb`.execute(db);
  const withRow = rows.find((row) => row.part === 'with');
  return { also: (withRow?.data ?? null) as Also | null, ahead: new ReadAhead(readKey(db, read), rows.filter((row) => row !== withRow)) };
}

/**
 * Loads a stream from its snapshot and the events after it, in one statement, with `facts`
 * (streamRead). `ahead`: the same read made ahead of the command (ReadAhead), used instead once.
 */
export async function loadStream<State, Event extends DomainEvent, Facts = undefined>(
  trx: Executor,
  streamId: string,
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  snapshots: SnapshotPolicy,
  options: { facts?: RawBuilder<Facts>; lock?: boolean; ahead?: ReadAhead | null } = {},
): Promise<LoadedStream<State> & { facts: Facts | undefined }> {
  const read = streamRead(streamId, snapshots, options);
  const ahead = options.ahead && !options.lock ? options.ahead.take(readKey(trx, read)) : null;
  const rows = ahead ?? (await sql<Row>`${sql.raw(PREPARED)}
    ${read}`.execute(trx)).rows;
  const snapshot = rows.find((row) => row.part === 'snapshot');
  const tail = rows.filter((row) => row.part === 'event').sort((a, b) => a.stream_position! - b.stream_position!);
  let state = snapshot ? (snapshot.data as State) : decider.initialState();
  for (const row of tail) state = decider.evolve(state, { type: row.type!, data: row.data } as Event);
  const version = tail.at(-1)?.stream_position ?? snapshot?.stream_position ?? 0;
  return { state, version, sinceSnapshot: tail.length, snapshots, facts: rows.find((row) => row.part === 'facts')?.data as Facts | undefined };
}

/** Records the fold of a stream's first `version` events; an older one never replaces a newer one. */
export async function saveSnapshot(trx: Executor, streamId: string, kind: string, version: number, state: unknown): Promise<void> {
  await snapshotWrite(streamId, kind, version, state).execute(trx);
}

/** saveSnapshot's statement, to run alongside an append (core/command.ts writeDecision). */
export function snapshotWrite(streamId: string, kind: string, version: number, state: unknown): RawBuilder<unknown> {
  return sql`
    insert into stream_snapshots (stream_id, kind, version, state, updated_at)
    values (${streamId}, ${kind}, ${version}, ${JSON.stringify(state)}::jsonb, now())
    on conflict (stream_id) do update set kind = excluded.kind, version = excluded.version, state = excluded.state, updated_at = excluded.updated_at
    where stream_snapshots.kind <> excluded.kind or stream_snapshots.version < excluded.version`;
}
