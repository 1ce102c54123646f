/**
 * Start-up check for Redis (BullMQ needs it).
 *
 *   const warning = await ensureRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 *   if (warning) console.warn(warning);
 *
 * Throws an Error that says how to get a Redis when none answers; resolves with a warning string
 * when Redis answers but `maxmemory-policy` is not `noeviction`, else with undefined.
 */
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';

export interface EnsureRedisOptions {
  /** Connect + first reply timeout (default 2000 ms). */
  timeoutMs?: number;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Resolves with a warning message (or undefined when all is well); throws when Redis is unusable. */
export async function ensureRedis(url: string, options: EnsureRedisOptions = {}): Promise<string | undefined> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const shown = redact(url);
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null, // one attempt only
    reconnectOnError: () => false,
  });
  let lastError: Error | undefined;
  client.on('error', (err: Error) => {
    lastError = err; // keep ioredis from printing "Unhandled error event"
  });

  try {
    try {
      await withTimeout(client.connect(), timeoutMs + 500);
      await withTimeout(client.ping(), timeoutMs);
    } catch (err) {
      const e = (lastError ?? err) as NodeJS.ErrnoException;
      const text = `${e.code ?? ''} ${e.message ?? String(e)}`;
      if (/NOAUTH|WRONGPASS|invalid password|invalid username/i.test(text)) {
        throw new Error(
          `Redis at ${shown} refused the credentials (${e.message}). Put the right user/password in REDIS_URL ` +
            `(redis://user:password@host:6379) and try again.`,
        );
      }
      throw new Error(unreachableMessage(shown, e.code ?? e.message ?? String(e)));
    }

    const policy = await maxmemoryPolicy(client);
    if (policy === undefined) {
      return `Could not read maxmemory-policy from Redis at ${shown} (CONFIG and INFO unavailable). BullMQ requires "noeviction"; make sure it is set.`;
    }
    if (policy !== 'noeviction') {
      return (
        `Redis at ${shown} has maxmemory-policy "${policy}"; BullMQ requires "noeviction" (otherwise Redis may evict ` +
        `queue keys under memory pressure and jobs get lost). Fix: redis-cli -u '${shown}' CONFIG SET maxmemory-policy noeviction ` +
        `(and put "maxmemory-policy noeviction" in redis.conf to keep it).`
      );
    }
    return undefined;
  } finally {
    client.disconnect();
  }
}

async function maxmemoryPolicy(client: Redis): Promise<string | undefined> {
  try {
    const reply = (await client.config('GET', 'maxmemory-policy')) as unknown;
    if (Array.isArray(reply) && typeof reply[1] === 'string') return reply[1];
  } catch {
    /* CONFIG is often disabled on managed Redis; fall back to INFO */
  }
  try {
    const info = await client.info('memory');
    return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  } catch {
    return undefined;
  }
}

function unreachableMessage(shown: string, reason: string): string {
  const installed = existsSync('/usr/bin/redis-server') || existsSync('/usr/local/bin/redis-server');
  const local = /^rediss?:\/\/(?:[^@/]*@)?(127\.0\.0\.1|localhost|\[::1\])(?::(\d+))?(?:\/|$)/i.exec(shown);
  const port = local?.[2] ?? '6379';
  return [
    `Redis is not reachable at ${shown} (${reason}). The portal needs Redis for its job queues (BullMQ).`,
    local ? 'Run one on this machine (Debian/Ubuntu, as root):' : 'Check REDIS_URL, or run a Redis on this machine (Debian/Ubuntu, as root):',
    `  apt-get install -y redis-server${installed ? '    # already installed here: skip this step' : ''}`,
    `  redis-server --daemonize yes --bind 127.0.0.1 --port ${port} --save "" --appendonly no`,
    local
      ? 'or set REDIS_URL to a Redis you can reach (redis://[user:password@]host:port; it must use maxmemory-policy noeviction).'
      : `then set REDIS_URL=redis://127.0.0.1:${port}`,
  ].join('\n');
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
