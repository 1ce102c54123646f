import { Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { Db } from '../core/db';
import { redisConnection } from '../core/wakeups';
import { runVerification } from './verification';

/**
 * The tamper check runs as a BullMQ job in the worker process, never inside a request: a log of
 * 10 million events takes minutes. The job's id is the run's, so a run is queued once.
 */
export const LOG_VERIFICATION_QUEUE = 'log-verification';

export type VerificationQueue = { enqueue: (runId: string) => Promise<void>; close: () => Promise<void> };

export function createVerificationQueue(redisUrl: string, prefix: string): VerificationQueue {
  let queue: Queue | null = null;
  return {
    async enqueue(runId) {
      queue ??= new Queue(LOG_VERIFICATION_QUEUE, { connection: redisConnection(redisUrl), prefix });
      await queue.add('verify', { runId }, { jobId: `verify-${runId}`, removeOnComplete: 100, removeOnFail: 100 });
    },
    async close() {
      await queue?.close();
    },
  };
}

/** One run at a time per worker; the table's unique index keeps it to one at a time overall. */
export async function startLogVerificationWorker(options: { db: Db; redisUrl: string; prefix: string; logger: Logger }) {
  const connection = redisConnection(options.redisUrl);
  const worker = new Worker(
    LOG_VERIFICATION_QUEUE,
    async (job) => {
      const run = await runVerification(options.db, (job.data as { runId: string }).runId);
      options.logger.info({ run: run.id, status: run.status, checked: run.events_checked, problems: run.problems_count }, 'log verification finished');
      return { status: run.status };
    },
    { connection: { ...connection, maxRetriesPerRequest: null }, prefix: options.prefix, concurrency: 1 },
  );
  worker.on('error', (error) => options.logger.warn({ err: error }, 'log verification worker error'));
  await worker.waitUntilReady();
  return { worker, close: () => worker.close() };
}
