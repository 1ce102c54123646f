import type { Transaction } from 'kysely';
import type { Database } from '../database';
import type { Db } from './db';
import { ConcurrencyConflict } from './errors';
import { type DomainEvent, type EventMetadata, type RecordedEvent, appendToStream, readStream, typesAppendedIn } from './event-store';
import { type LoadedStream, saveSnapshot } from './snapshots';

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
   * every consumer when `appended` is not given (a caller that does not know what it appended).
   */
  onCommitted: (appended?: ReadonlySet<string>) => void;
};

/**
 * Runs one command's unit of work in a transaction: read, decide, append, inline projections.
 * A concurrency conflict re-runs the whole unit from a fresh read a few times before it surfaces
 * as a 409.
 */
export async function runInTransaction<T>(
  ctx: CommandContext,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: { attempts?: number } = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    try {
      let appended: ReadonlySet<string> = new Set();
      const result = await ctx.db.transaction().execute(async (trx) => {
        const done = await work(trx);
        appended = typesAppendedIn(trx);
        return done;
      });
      ctx.onCommitted(appended);
      return result;
    } catch (error) {
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
