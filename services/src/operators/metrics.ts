import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import client from 'prom-client';
import type { Consumer } from '../core/consumers';
import type { Db } from '../core/db';
import { redisConnection } from '../core/wakeups';
import { countAppendedEvents } from './event-counts';
import { liveWorkers } from './heartbeats';
import { consumerRecords } from './queries';
import { workerQueueNames } from './queues';

/**
 * What an operator graphs (issue 12 item 7, docs/operations.md), read at each scrape from
 * PostgreSQL and Redis, so every api process reports the whole system, whichever process
 * appended or applied. Counters grow by what changed since the last scrape.
 */
export function operatorMetrics(registry: client.Registry, options: { redisUrl: string; prefix: string }) {
  const eventsAppended = new client.Counter({ name: 'events_appended_total', help: 'Events appended to the log, by type', labelNames: ['type'], registers: [registry] });
  const applied = new client.Counter({ name: 'consumer_events_applied_total', help: 'Events a consumer applied (rate() is its throughput)', labelNames: ['consumer'], registers: [registry] });
  const perMinute = new client.Gauge({ name: 'consumer_throughput_events_per_minute', help: 'Events a consumer applied per minute over the last five minutes', labelNames: ['consumer'], registers: [registry] });
  const lagSeconds = new client.Gauge({ name: 'consumer_lag_seconds', help: 'Age of the oldest event a consumer has not applied yet (0 when caught up)', labelNames: ['consumer'], registers: [registry] });
  const paused = new client.Gauge({ name: 'consumer_paused', help: '1 when an admin paused the consumer', labelNames: ['consumer'], registers: [registry] });
  const rebuildProgress = new client.Gauge({ name: 'rebuild_progress_ratio', help: "Progress of a projection's latest rebuild, 0 to 1 (1 once swapped in)", labelNames: ['consumer'], registers: [registry] });
  const rebuildRunning = new client.Gauge({ name: 'rebuild_running', help: '1 while a rebuild of the projection is queued or running', labelNames: ['consumer'], registers: [registry] });
  const jobs = new client.Gauge({ name: 'queue_jobs', help: 'BullMQ jobs by queue and state (failed: failed jobs kept for inspection, the last 100 of each kind)', labelNames: ['queue', 'state'], registers: [registry] });
  const workers = new client.Gauge({ name: 'worker_processes', help: 'Worker processes whose heartbeat is live', registers: [registry] });
  // The tamper check (issue 12 item 3) sets its own log_verification_* gauges on this registry.

  const queues = workerQueueNames.map((name) => {
    const queue = new Queue(name, { connection: { ...redisConnection(options.redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1 }, prefix: options.prefix });
    queue.on('error', () => {});
    return queue;
  });
  const seen = new Map<string, number>();
  /** Adds to a counter what its source grew by since the last scrape (a source that shrank, e.g. a rebuilt checkpoint, restarts the count). */
  const grow = (counter: client.Counter<string>, key: string, labels: Record<string, string>, value: number) => {
    const before = seen.get(key);
    seen.set(key, value);
    const delta = before === undefined || value < before ? value : value - before;
    if (delta > 0 || before === undefined) counter.inc(labels, delta);
  };

  return {
    async collect(db: Db, redis: Redis, consumers: readonly Consumer[]): Promise<void> {
      for (const [type, appended] of await countAppendedEvents(db)) grow(eventsAppended, `type:${type}`, { type }, appended);
      for (const record of await consumerRecords(db, consumers)) {
        const labels = { consumer: record.name };
        grow(applied, `consumer:${record.name}`, labels, record.checkpoint.events_applied);
        perMinute.set(labels, record.events_per_minute);
        lagSeconds.set(labels, record.seconds_behind);
        paused.set(labels, record.paused ? 1 : 0);
        if (record.rebuild) {
          rebuildProgress.set(labels, record.rebuild.percent / 100);
          rebuildRunning.set(labels, ['queued', 'running'].includes(record.rebuild.status) ? 1 : 0);
        }
      }
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => null);
        if (!counts) continue;
        for (const [state, n] of Object.entries(counts)) jobs.set({ queue: queue.name, state }, n);
      }
      workers.set((await liveWorkers(redis, options.prefix).catch(() => [])).length);
    },
    async close() {
      await Promise.all(queues.map((queue) => queue.close().catch(() => {})));
    },
  };
}
