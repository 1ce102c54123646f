import { Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { Runtime } from '../api/runtime';
import { pruneSignInThrottles } from '../auth/throttle';
import { redisConnection } from '../core/wakeups';
import { pruneSentMail } from '../notifications/outbox';
import { runMatchingSchedule } from '../matching/commands';
import { runScheduledVerification } from '../log-verification/verification';
import { expireOverdueRegistrations } from '../membership/expiry';
import { runGlobalProfitShare, runProfitPoolShare } from '../profit-sharing/commands';
import { runPayouts } from '../wallet/commands';

/**
 * Jobs that run on the calendar, as BullMQ job schedulers: each scheduler exists once in Redis
 * however many workers start, and each run is a job one worker takes. The jobs themselves are
 * idempotent (decided on their streams), so a repeated run changes nothing.
 */
export const SCHEDULE_QUEUE = 'schedules';

type ScheduledJob = { name: string; everyMs: number; run: (runtime: Runtime) => Promise<unknown> };

export const scheduledJobs: readonly ScheduledJob[] = [
  { name: 'expire-registrations', everyMs: 10 * 60_000, run: (runtime) => expireOverdueRegistrations(runtime.commands, runtime.clock()) },
  { name: 'payout-run', everyMs: 15 * 60_000, run: (runtime) => runPayouts({ commands: runtime.commands, gateway: runtime.gateway, log: runtime.logger }, runtime.clock()) },
  // Each checks whether its period is due (Lagos date ≥ the share date; the previous month's pool on/after the 1st) and runs it once.
  { name: 'global-profit-share', everyMs: 60 * 60_000, run: (runtime) => runGlobalProfitShare(runtime.commands, runtime.clock()) },
  { name: 'profit-pool-share', everyMs: 60 * 60_000, run: (runtime) => runProfitPoolShare(runtime.commands, runtime.clock()) },
  // Closes every matching cycle that ended (the midnight after its last day, Lagos) since the last one closed; each once.
  { name: 'matching-cycles', everyMs: 60 * 60_000, run: (runtime) => runMatchingSchedule(runtime.commands, runtime.clock()) },
  // Sign-in throttles that no longer count, and sent mail past SENT_MAIL_RETENTION_DAYS (docs/security-auth.md A8).
  { name: 'prune-throttles-and-sent-mail', everyMs: 60 * 60_000, run: (runtime) => pruneThrottlesAndSentMail(runtime, runtime.clock()) },
  // The tamper check over the whole log, nightly (docs/tamper-check.md); joins a run an operator started.
  { name: 'log-verification', everyMs: 24 * 60 * 60_000, run: (runtime) => runScheduledVerification(runtime.db) },
];

export async function pruneThrottlesAndSentMail(runtime: Pick<Runtime, 'db' | 'config'>, now: Date): Promise<{ throttles: number; sentMails: number }> {
  return {
    throttles: await pruneSignInThrottles(runtime.db, now),
    sentMails: await pruneSentMail(runtime.db, now, runtime.config.SENT_MAIL_RETENTION_DAYS),
  };
}

export async function startSchedules(runtime: Runtime, logger: Logger, jobs: readonly ScheduledJob[] = scheduledJobs) {
  const connection = redisConnection(runtime.config.REDIS_URL);
  const queue = new Queue(SCHEDULE_QUEUE, { connection, prefix: runtime.config.QUEUE_PREFIX });
  for (const job of jobs) {
    await queue.upsertJobScheduler(job.name, { every: job.everyMs }, { name: job.name, opts: { removeOnComplete: 100, removeOnFail: 100 } });
  }
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const worker = new Worker(
    SCHEDULE_QUEUE,
    async (job) => {
      const scheduled = byName.get(job.name);
      if (!scheduled) return null;
      const result = await scheduled.run(runtime);
      logger.info({ job: job.name, result }, 'scheduled job ran');
      return result;
    },
    { connection: { ...connection, maxRetriesPerRequest: null }, prefix: runtime.config.QUEUE_PREFIX, concurrency: 1 },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'schedule worker error'));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
