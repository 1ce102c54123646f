import { Queue, Worker } from 'bullmq';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { CommandContext } from '../core/command';
import type { Consumer } from '../core/consumers';
import type { Db } from '../core/db';
import { type RebuildProgress, rebuildProjection } from '../core/rebuild';
import { readModels, rebuildReadModel } from '../read-models';
import { consumerStream, readModelStream } from './events';
import { redisConnection } from '../core/wakeups';
import { finishRebuild } from './commands';

/**
 * Rebuilds run as BullMQ jobs in a worker (docs/operations.md): the api records the request and a
 * row in projection_rebuilds, and queues `rebuild` on the `operations` queue with the row's id as
 * the job id. PostgreSQL is the truth: every worker re-queues unfinished rows at each heartbeat
 * (BullMQ ignores a job id it already has), so a request survives a lost job or a Redis restart.
 */
export const OPERATIONS_QUEUE = 'operations';

export type RebuildJob = { rebuildId: string; consumer: string };

export function operationsQueue(redisUrl: string, prefix: string): Queue<RebuildJob> {
  const queue = new Queue<RebuildJob>(OPERATIONS_QUEUE, { connection: { ...redisConnection(redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1 }, prefix });
  queue.on('error', () => {});
  return queue;
}

export async function enqueueRebuild(queue: Queue<RebuildJob>, run: RebuildJob): Promise<void> {
  await queue.add('rebuild', run, { jobId: `rebuild-${run.rebuildId}`, attempts: 1, removeOnComplete: 100, removeOnFail: 100 });
}

/** Queues every unfinished rebuild again; a job already queued or running is left as it is. */
export async function requeueUnfinishedRebuilds(db: Db, queue: Queue<RebuildJob>): Promise<void> {
  const { rows } = await sql<{ id: string; consumer: string }>`select id, consumer from projection_rebuilds where finished_at is null`.execute(db);
  for (const row of rows) {
    const job = await queue.getJob(`rebuild-${row.id}`);
    // A job that failed or completed without finishing its row (a crash between the two) runs again.
    if (job && ['failed', 'completed'].includes(await job.getState())) await job.remove();
    await enqueueRebuild(queue, { rebuildId: row.id, consumer: row.consumer });
  }
}

type RebuildContext = { db: Db; commands: CommandContext; consumers: readonly Consumer[]; clock: () => Date; workerId: string };

/**
 * What a rebuild job names: a projection this worker runs (by its consumer), or an inline read model
 * of the registry (read-models.ts), rebuilt by rebuildInline and recorded on its own stream.
 */
function rebuildPlan(ctx: RebuildContext, name: string) {
  const consumer = ctx.consumers.find((c) => c.name === name);
  if (consumer) return { eventTypes: consumer.eventTypes, stream: consumerStream(name), run: (onProgress: (p: RebuildProgress) => void) => rebuildProjection(ctx.db, consumer, { onProgress }) };
  const model = readModels.find((m) => m.name === name && !m.consumer);
  if (model) return { eventTypes: model.eventTypes, stream: readModelStream(name), run: (onProgress: (p: RebuildProgress) => void) => rebuildReadModel(ctx.db, model, { onProgress }) };
  return null;
}

/**
 * Runs one requested rebuild: rebuildProjection or rebuildInline (core/rebuild.ts) into fresh
 * tables beside the live ones and the swap, writing progress to the row the Consumers page polls
 * (a few times a second at most), then records the outcome.
 */
export async function runRebuild(ctx: RebuildContext, job: RebuildJob, onStart?: () => void): Promise<'succeeded' | 'failed' | 'not-found'> {
  const plan = rebuildPlan(ctx, job.consumer);
  const filter = plan?.eventTypes ? sql`where type = any(${sql.val(plan.eventTypes)}::text[])` : sql``;
  const { rows } = await sql<{ requested_event_id: string | null }>`
    update projection_rebuilds set status = 'running', started_at = coalesce(started_at, now()), worker = ${ctx.workerId}, applied = 0,
      total = (select count(*) from events ${filter})
    where id = ${job.rebuildId} and finished_at is null
    returning requested_event_id`.execute(ctx.db);
  if (!rows[0]) return 'not-found';
  const run = { consumer: job.consumer, rebuildId: job.rebuildId, requestEventId: rows[0].requested_event_id, stream: plan?.stream };
  if (!plan) {
    await finishRebuild(ctx.commands, run, { error: `This worker does not run ${job.consumer}.` }, ctx.clock());
    return 'failed';
  }
  onStart?.();
  let written = Promise.resolve();
  let lastWrite = 0;
  const writeProgress = (applied: number, total: number) => {
    written = written.then(async () => {
      await sql`update projection_rebuilds set applied = ${applied}, total = greatest(total, ${total}) where id = ${job.rebuildId} and finished_at is null`.execute(ctx.db);
    });
  };
  try {
    const { applied } = await plan.run((progress) => {
      if (Date.now() - lastWrite < 200) return;
      lastWrite = Date.now();
      writeProgress(progress.applied, progress.total);
    });
    await written;
    await finishRebuild(ctx.commands, run, { applied }, ctx.clock());
    return 'succeeded';
  } catch (error) {
    await written.catch(() => {});
    await finishRebuild(ctx.commands, run, { error: error instanceof Error ? error.message : String(error) }, ctx.clock());
    return 'failed';
  }
}

/** The worker side: one rebuild at a time per worker process. */
export async function startRebuildWorker(options: RebuildContext & { redisUrl: string; prefix: string; logger: Logger }) {
  let current: RebuildJob | null = null;
  const worker = new Worker<RebuildJob>(
    OPERATIONS_QUEUE,
    async (job) => {
      if (job.name !== 'rebuild') return null;
      current = job.data;
      try {
        const outcome = await runRebuild(options, job.data);
        options.logger.info({ consumer: job.data.consumer, rebuild: job.data.rebuildId, outcome }, 'rebuild finished');
        if (outcome === 'failed') throw new Error(`rebuild of ${job.data.consumer} failed (see the Consumers page)`);
        return outcome;
      } finally {
        current = null;
      }
    },
    // A rebuild may hold the job for minutes: lock renewal keeps it ours while the process lives.
    { connection: { ...redisConnection(options.redisUrl), maxRetriesPerRequest: null }, prefix: options.prefix, concurrency: 1, lockDuration: 60_000 },
  );
  worker.on('error', (error) => options.logger.warn({ err: error }, 'operations worker error'));
  await worker.waitUntilReady();
  return {
    worker,
    rebuilding: () => (current ? { consumer: current.consumer, rebuild_id: current.rebuildId } : null),
    close: () => worker.close(),
  };
}
