import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from 'pino';
import { type Consumer, drainConsumer } from './consumers';
import type { Db } from './db';

/**
 * BullMQ is the doorbell, not the transport: the events stay in PostgreSQL. After each commit the
 * api rings (one deduplicated `drain` job per consumer); a job scheduler sweeps every few seconds
 * so a lost ring only delays (docs/consumer-runner.md).
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
 * calls came meanwhile: every caller is followed by a ring that started after it (nothing is
 * missed), but a busy api rings once per Redis round trip instead of once per command (the
 * deduplicated BullMQ adds were the api's largest cost under load: services/bench/http.bench.ts).
 */
export function coalesced(ring: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  const call = (): Promise<void> => {
    if (!running) {
      running = ring().finally(() => {
        running = null;
      });
      return running;
    }
    again ??= running
      .catch(() => undefined)
      .then(() => {
        again = null;
        return call();
      });
    return again;
  };
  return call;
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
      const result = await drainConsumer(options.db, consumer).finally(() => draining.delete(consumer.name));
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
