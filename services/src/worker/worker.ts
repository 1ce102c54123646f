import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { createRuntime } from '../api/runtime';
import { loadConfig } from '../core/config';
import { migrateToLatest } from '../core/migrate';
import { startConsumerWorker } from '../core/wakeups';
import { mailJobs } from '../mail-jobs';
import { startMailDelivery } from '../notifications/outbox';
import { startOperatorsWorker } from '../operators/worker';
import { startSchedules } from './schedules';
import { startLogVerificationWorker } from '../log-verification/jobs';

/**
 * The worker process: `tsx services/src/worker/worker.ts`. Runs every consumer of the log; start
 * as many as you like (each consumer runs in one place at a time, guarded by an advisory lock).
 */
export async function startWorker(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  const logger = pino({ level: config.LOG_LEVEL, name: 'worker' });
  const runtime = createRuntime(config, logger, { applicationName: 'portal-worker' });
  await migrateToLatest(runtime.db);
  const consumerWorker = await startConsumerWorker({
    db: runtime.db,
    redisUrl: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    consumers: runtime.consumers,
    logger,
  });
  const mailDelivery = await startMailDelivery({ db: runtime.db, redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, transport: runtime.smtp, clock: runtime.clock, logger, handlers: mailJobs(runtime) });
  const schedules = await startSchedules(runtime, logger);
  const operators = await startOperatorsWorker(runtime, { consumerWorker, logger });
  const logVerification = await startLogVerificationWorker({ db: runtime.db, redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, logger });
  logger.info({ consumers: runtime.consumers.map((c) => c.name) }, 'worker started');
  return {
    runtime,
    async close() {
      await operators.close();
      await schedules.close();
      await logVerification.close();
      await consumerWorker.close();
      await mailDelivery.close();
      await runtime.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const worker = await startWorker();
  closeWithGrace({ delay: 10_000 }, async () => worker.close());
}
