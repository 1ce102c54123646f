import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { consumers as allConsumers } from '../consumers';
import type { CommandContext } from '../core/command';
import type { Config } from '../core/config';
import type { Consumer } from '../core/consumers';
import { type Db, createDb } from '../core/db';
import { type Doorbell, coalesced, consumersReading, createDoorbell } from '../core/wakeups';
import { type PaystackClient, createPaystackClient } from '../gateway/paystack';
import { type Mailer, createSmtpTransport } from '../notifications/mailer';
import { type MailOutbox, type MailTransport, createMailOutbox } from '../notifications/outbox';

/** The long-lived connections a process (api, worker, test) holds, built once and closed once. */
export type Runtime = {
  config: Config;
  logger: Logger;
  db: Db;
  redis: Redis;
  doorbell: Doorbell;
  /** Writes mails to the outbox (never waits for SMTP); `outbox.enqueue` inside a transaction. */
  mailer: Mailer;
  outbox: MailOutbox;
  /** The SMTP side, used only by the outbox's delivery job (worker, tests). */
  smtp: MailTransport;
  gateway: PaystackClient;
  commands: CommandContext;
  consumers: readonly Consumer[];
  clock: () => Date;
  close: () => Promise<void>;
};

export function createRuntime(config: Config, logger: Logger, options: { consumers?: readonly Consumer[]; clock?: () => Date; applicationName?: string } = {}): Runtime {
  const consumers = options.consumers ?? allConsumers;
  // pg_stat_activity tells the api's connections from the worker's by this name.
  const db = createDb(config.DATABASE_URL, { applicationName: options.applicationName ?? 'portal', preparedStatements: config.PG_PREPARED_STATEMENTS === '1' });
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  const doorbell = createDoorbell(config.REDIS_URL, config.QUEUE_PREFIX);
  const clock = options.clock ?? (() => new Date());
  const outbox = createMailOutbox({ db, redisUrl: config.REDIS_URL, prefix: config.QUEUE_PREFIX, clock, logger });
  const smtp = createSmtpTransport(config);
  const gateway = createPaystackClient({ baseUrl: config.PAYSTACK_BASE_URL, secretKey: config.PAYSTACK_SECRET_KEY });
  // One ring in flight at a time, and one more after it for the commits that came meanwhile.
  const wakeMail = coalesced(() => outbox.wake());
  const ringConsumers = coalesced<string>((names) => doorbell.ring(names));
  const commands: CommandContext = {
    db,
    onCommitted: (appended, options = {}) => {
      // A command may have written mail to the outbox: ask for delivery (deduplicated, coalesced),
      // unless it says it wrote none (runCommand units: a Redis call less per command).
      if (options.mail !== false) wakeMail().catch((error) => logger.warn({ err: error }, 'could not wake mail delivery'));
      // Only the consumers that read what was appended: waking all ten for every command kept the
      // worker busy with empty batches (services/bench/lag.bench.ts, README "Projection lag").
      const names = consumersReading(consumers, appended);
      if (names.length === 0) return;
      // Losing a ring only delays consumers until the next sweep.
      ringConsumers(names).catch((error) => logger.warn({ err: error }, 'could not wake consumers'));
    },
  };
  return {
    config,
    logger,
    db,
    redis,
    doorbell,
    mailer: outbox.mailer,
    outbox,
    smtp,
    gateway,
    commands,
    consumers,
    clock,
    async close() {
      await doorbell.close().catch(() => {});
      redis.disconnect();
      await outbox.close().catch(() => {});
      smtp.close();
      await db.destroy();
    },
  };
}
