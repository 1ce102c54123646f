import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { type Consumer, type DrainResult, drainConsumer, peekConsumer } from './consumers';
import type { Db } from './db';

/**
 * BullMQ is the doorbell, not the transport: the events stay in PostgreSQL. After each commit the
 * api rings the consumers that read what it appended (one deduplicated `drain` job each), as does
 * the worker after a policy's batch; a job scheduler sweeps every few seconds so a lost ring only
 * delays (docs/consumer-runner.md).
 */
export const CONSUMER_QUEUE = 'consumers';

export function redisConnection(url: string): ConnectionOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password || undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
  };
}

/**
 * Calls `ring` at once, or, while a call is still running, once more after it ends however many
 * calls came meanwhile, with every item they named: every caller is followed by a ring that
 * started after it and names its items (nothing is missed), but a busy api rings once per Redis
 * round trip instead of once per command (the deduplicated BullMQ adds were the api's largest
 * cost under load: services/bench/http.bench.ts).
 */
export function coalesced<T = never>(ring: (items: T[]) => Promise<void>): (items?: Iterable<T>) => Promise<void> {
  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  let waiting = new Set<T>();
  const call = (items: Iterable<T> = []): Promise<void> => {
    if (!running) {
      running = ring([...items]).finally(() => {
        running = null;
      });
      return running;
    }
    for (const item of items) waiting.add(item);
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = null;
        const next = waiting;
        waiting = new Set();
        return call(next);
      });
    return again;
  };
  return call;
}

/**
 * The consumers a commit must wake: those reading one of the event types it appended, and those
 * reading every type. `appended` unknown (undefined): all of them. A commit that appended nothing
 * wakes none (a consumer reads events only).
 */
export function consumersReading(consumers: readonly Pick<Consumer, 'name' | 'eventTypes'>[], appended?: ReadonlySet<string> | readonly string[]): string[] {
  if (appended === undefined) return consumers.map((c) => c.name);
  const types = new Set(appended);
  if (types.size === 0) return [];
  return consumers.filter((c) => !c.eventTypes || c.eventTypes.some((type) => types.has(type))).map((c) => c.name);
}

/**
 * Between looks at a held horizon: short first (a command commits in a few ms, and the rings that
 * come meanwhile wait for this job to end), at most 10 ms for the first 250 ms, then 50 ms (a long
 * transaction, a bulk run: a look is a read transaction, so not hundreds a second).
 */
const HELD_FIRST_WAIT_MS = 1;
const HELD_SHORT_MAX_WAIT_MS = 10;
const HELD_SHORT_FOR_MS = 250;
const HELD_LONG_WAIT_MS = 50;
/** Beyond this the sweep takes over (a long transaction, a bulk run): one job does not poll forever. */
const HELD_GIVE_UP_MS = 2_000;

/**
 * Drains the consumer, and again while it is held (DrainResult.held): an event it reads has
 * committed, but an older transaction still running keeps it above the horizon. That transaction
 * may be one whose commit rings nobody for this consumer (another consumer's batch, a command
 * appending other types), so waiting for a ring could leave the event unapplied until the sweep.
 */
export async function drainWhileHeld(
  drain: () => Promise<DrainResult>,
  options: {
    sleep?: (ms: number) => Promise<void>;
    giveUpMs?: number;
    /** A cheap look (core/consumers.ts peekConsumer): drain again only once something is readable. */
    peek?: (last: DrainResult) => Promise<{ readable: boolean; held: boolean; otherDatabaseXids?: readonly string[] }>;
  } = {},
): Promise<DrainResult> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const startedAt = Date.now();
  const giveUpAt = startedAt + (options.giveUpMs ?? HELD_GIVE_UP_MS);
  let result = await drain();
  const appended = new Set(result.appended);
  let applied = result.applied;
  for (let wait = HELD_FIRST_WAIT_MS; result.status === 'caught_up' && result.held && Date.now() < giveUpAt; ) {
    await sleep(wait);
    wait = Date.now() - startedAt < HELD_SHORT_FOR_MS ? Math.min(wait * 2, HELD_SHORT_MAX_WAIT_MS) : HELD_LONG_WAIT_MS;
    if (options.peek) {
      const seen = await options.peek(result);
      // The next look uses the list this one read (fresher than the batch's).
      if (seen.otherDatabaseXids) result = { ...result, otherDatabaseXids: seen.otherDatabaseXids };
      if (!seen.readable) {
        if (seen.held) continue;
        // Nothing readable and nothing held: another runner applied it, or it rolled back.
        return { ...result, held: false, applied, appended: [...appended] };
      }
    }
    result = await drain();
    applied += result.applied;
    for (const type of result.appended) appended.add(type);
  }
  return { ...result, applied, appended: [...appended] };
}

export type Doorbell = { ring: (consumerNames: readonly string[]) => Promise<void>; close: () => Promise<void> };

export function createDoorbell(redisUrl: string, prefix: string): Doorbell {
  const queue = new Queue(CONSUMER_QUEUE, {
    connection: { ...redisConnection(redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    prefix,
  });
  queue.on('error', () => {});
  return {
    async ring(consumerNames) {
      if (consumerNames.length === 0) return;
      await queue.addBulk(
        consumerNames.map((name) => ({
          name: 'drain',
          data: { consumer: name },
          opts: {
            deduplication: { id: `drain-${name}`, keepLastIfActive: true },
            removeOnComplete: true,
            removeOnFail: 100,
          },
        })),
      );
    },
    close: () => queue.close(),
  };
}

/** `draining()`: the consumers this process is applying batches to right now (the operators' console shows them). */
export type ConsumerWorker = { close: () => Promise<void>; worker: Worker; draining: () => string[] };

export async function startConsumerWorker(options: {
  db: Db;
  redisUrl: string;
  prefix: string;
  consumers: readonly Consumer[];
  logger: Logger;
  sweepEveryMs?: number;
}): Promise<ConsumerWorker> {
  const byName = new Map(options.consumers.map((c) => [c.name, c]));
  const draining = new Set<string>();
  const doorbell = createDoorbell(options.redisUrl, options.prefix);
  const queue = new Queue(CONSUMER_QUEUE, { connection: redisConnection(options.redisUrl), prefix: options.prefix });
  await queue.upsertJobScheduler('sweep', { every: options.sweepEveryMs ?? 2000 }, { name: 'sweep', opts: { removeOnComplete: true, removeOnFail: 100 } });

  const worker = new Worker(
    CONSUMER_QUEUE,
    async (job) => {
      if (job.name === 'sweep') {
        await doorbell.ring([...byName.keys()]);
        return;
      }
      const consumer = byName.get(job.data.consumer as string);
      if (!consumer) return;
      draining.add(consumer.name);
      const result = await drainWhileHeld(() => drainConsumer(options.db, consumer), {
        peek: (last) => peekConsumer(options.db, consumer, last.otherDatabaseXids ?? []),
      }).finally(() => draining.delete(consumer.name));
      // A policy's events are read by other consumers: its commit rings them, as a command's does.
      if (result.appended.length > 0) {
        await doorbell.ring(consumersReading(options.consumers, result.appended)).catch((error: unknown) => options.logger.warn({ err: error }, 'could not wake consumers'));
      }
      if (result.status === 'failed') {
        options.logger.error({ consumer: consumer.name, error: result.error }, 'consumer stopped on an event it cannot apply');
      }
      return result;
    },
    {
      connection: { ...redisConnection(options.redisUrl), maxRetriesPerRequest: null },
      prefix: options.prefix,
      concurrency: Math.max(2, options.consumers.length),
    },
  );
  worker.on('error', (error) => options.logger.warn({ err: error }, 'consumer worker error'));
  await worker.waitUntilReady();
  return {
    worker,
    draining: () => [...draining],
    async close() {
      await worker.close();
      await queue.close();
      await doorbell.close();
    },
  };
}
