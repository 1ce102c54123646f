import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Runtime } from '../api/runtime';
import { CONSUMER_QUEUE, type ConsumerWorker } from '../core/wakeups';
import { MAIL_QUEUE } from '../notifications/outbox';
import { SCHEDULE_QUEUE } from '../worker/schedules';
import { newWorkerId, startHeartbeat } from './heartbeats';
import { operationsQueue, OPERATIONS_QUEUE, requeueUnfinishedRebuilds, startRebuildWorker } from './rebuild-jobs';

/**
 * The worker process's part of the operators' console: rebuild jobs, and a heartbeat saying what
 * this process runs and holds. At each beat it also re-queues unfinished rebuilds and drops
 * throughput older than a day.
 */
export async function startOperatorsWorker(
  runtime: Pick<Runtime, 'db' | 'redis' | 'commands' | 'consumers' | 'clock' | 'config'>,
  options: { consumerWorker: Pick<ConsumerWorker, 'draining'> | null; logger: Logger; heartbeatEveryMs?: number; queues?: string[] },
) {
  const workerId = newWorkerId();
  const { REDIS_URL: redisUrl, QUEUE_PREFIX: prefix } = runtime.config;
  const queue = operationsQueue(redisUrl, prefix);
  const rebuilds = await startRebuildWorker({ ...runtime, workerId, redisUrl, prefix, logger: options.logger });
  const heartbeat = startHeartbeat({
    redis: runtime.redis,
    prefix,
    id: workerId,
    everyMs: options.heartbeatEveryMs,
    snapshot: () => ({
      consumers: runtime.consumers.map((c) => c.name),
      draining: options.consumerWorker?.draining() ?? [],
      rebuilding: rebuilds.rebuilding(),
      queues: options.queues ?? [CONSUMER_QUEUE, MAIL_QUEUE, SCHEDULE_QUEUE, OPERATIONS_QUEUE],
    }),
    onBeat: async () => {
      await requeueUnfinishedRebuilds(runtime.db, queue);
      await sql`delete from consumer_throughput where minute < now() - interval '1 day'`.execute(runtime.db);
    },
    onError: (error) => options.logger.warn({ err: error }, 'operators heartbeat failed'),
  });
  return {
    workerId,
    heartbeat,
    async close() {
      await heartbeat.close();
      await rebuilds.close();
      await queue.close();
    },
  };
}
