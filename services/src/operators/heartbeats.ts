import os from 'node:os';
import type { Redis } from 'ioredis';

/**
 * Which worker processes are running and what each holds (docs/operations.md). Each worker writes
 * a heartbeat to Redis every few seconds with a time to live of three beats, so a killed worker
 * drops off the list by itself; a worker that stops cleanly removes its own at once.
 */
export type WorkerHeartbeat = {
  id: string;
  host: string;
  pid: number;
  started_at: string;
  beat_at: string;
  /** The consumers it runs (any of them, whichever worker's turn it is). */
  consumers: string[];
  /** The consumers it is applying a batch to right now: it holds their advisory locks. */
  draining: string[];
  /** The rebuild it is running, if any (it holds `<name>#rebuild`'s lock while it applies). */
  rebuilding: { consumer: string; rebuild_id: string } | null;
  queues: string[];
  rss_bytes: number;
};

const indexKey = (prefix: string) => `${prefix}:operators:workers`;
const beatKey = (prefix: string, id: string) => `${prefix}:operators:worker:${id}`;

export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

export function startHeartbeat(options: {
  redis: Redis;
  prefix: string;
  id: string;
  everyMs?: number;
  snapshot: () => Pick<WorkerHeartbeat, 'consumers' | 'draining' | 'rebuilding' | 'queues'>;
  /** Runs after each beat (the worker reconciles queued rebuilds and trims old throughput). */
  onBeat?: () => Promise<void>;
  onError?: (error: unknown) => void;
}): { beat: () => Promise<void>; close: () => Promise<void> } {
  const everyMs = options.everyMs ?? 5_000;
  const startedAt = new Date().toISOString();
  let closed = false;
  async function beat(): Promise<void> {
    const heartbeat: WorkerHeartbeat = {
      id: options.id,
      host: os.hostname(),
      pid: process.pid,
      started_at: startedAt,
      beat_at: new Date().toISOString(),
      ...options.snapshot(),
      rss_bytes: process.memoryUsage().rss,
    };
    await options.redis
      .multi()
      .set(beatKey(options.prefix, options.id), JSON.stringify(heartbeat), 'PX', everyMs * 3)
      .zadd(indexKey(options.prefix), Date.now(), options.id)
      .exec();
    await options.onBeat?.();
  }
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = beat().catch((error) => options.onError?.(error));
  }, everyMs);
  timer.unref();
  running = beat().catch((error) => options.onError?.(error));
  return {
    beat,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await running;
      await options.redis.multi().del(beatKey(options.prefix, options.id)).zrem(indexKey(options.prefix), options.id).exec().catch(() => {});
    },
  };
}

/** The workers whose heartbeat has not expired, oldest first. */
export async function liveWorkers(redis: Redis, prefix: string): Promise<WorkerHeartbeat[]> {
  // Forget ids that have not beaten for an hour (their keys expired long ago).
  await redis.zremrangebyscore(indexKey(prefix), '-inf', String(Date.now() - 3_600_000));
  const ids = await redis.zrange(indexKey(prefix), '0', '-1');
  if (ids.length === 0) return [];
  const values = await redis.mget(...ids.map((id) => beatKey(prefix, id)));
  return values
    .filter((value): value is string => value !== null)
    .map((value) => JSON.parse(value) as WorkerHeartbeat)
    .sort((a, b) => a.started_at.localeCompare(b.started_at));
}
