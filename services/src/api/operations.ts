import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import client from 'prom-client';
import type { Redis } from 'ioredis';
import { type Consumer, consumerLag } from '../core/consumers';
import { operatorMetrics } from '../operators/metrics';
import { latestVerifications } from '../log-verification/verification';

/**
 * /api/health, /api/ready and /metrics (API.md §3). /api/health is public. /metrics and the
 * details of /api/ready (consumer lag, database errors) need OPERATIONS_TOKEN as a bearer token
 * when one is set, and are closed in production without one: anyone else gets /metrics 404 or
 * 401 and /api/ready's status alone.
 */
export function operationsAccess(request: FastifyRequest): 'open' | 'allowed' | 'refused' | 'closed' {
  const { OPERATIONS_TOKEN: token, NODE_ENV } = request.server.config;
  if (!token) return NODE_ENV === 'production' ? 'closed' : 'open';
  const given = Buffer.from(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'allowed' : 'refused';
}
const mayReadOperations = (request: FastifyRequest) => ['open', 'allowed'].includes(operationsAccess(request));

export function operationsRoutes(options: { redis: Redis; consumers: readonly Consumer[] }): FastifyPluginAsync {
  return async (app) => {
    const registry = new client.Registry();
    client.collectDefaultMetrics({ register: registry });
    const requestDuration = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Request durations by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    const consumerBehind = new client.Gauge({ name: 'consumer_events_behind', help: 'Events a consumer has not applied yet', labelNames: ['consumer'], registers: [registry] });
    const consumerFailed = new client.Gauge({ name: 'consumer_failed', help: '1 when a consumer stopped on an event', labelNames: ['consumer'], registers: [registry] });
    const queueDepth = new client.Gauge({ name: 'queue_jobs_waiting', help: 'BullMQ jobs waiting in the consumer queue', registers: [registry] });
    const verificationOk = new client.Gauge({ name: 'portal_log_verification_ok', help: '1 when the last finished tamper check found every hash chain intact, 0 when it found a broken link (absent before the first)', labelNames: ['check'], registers: [registry] });
    const verificationTime = new client.Gauge({ name: 'portal_log_verification_timestamp_seconds', help: 'When the last tamper check finished (Unix seconds)', labelNames: ['check'], registers: [registry] });
    const oldestTransaction = new client.Gauge({ name: 'postgres_oldest_xid_transaction_seconds', help: 'Age of the oldest open transaction holding an xid (holds back every log reader)', registers: [registry] });
    // Events per type, consumer throughput and lag, rebuilds, jobs by queue and state, workers (docs/operations.md).
    const operators = operatorMetrics(registry, { redisUrl: app.config.REDIS_URL, prefix: app.config.QUEUE_PREFIX });
    app.addHook('onClose', () => operators.close());

    app.addHook('onResponse', async (request, reply) => {
      requestDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unknown', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });

    async function oldestXidTransactionSeconds(): Promise<number> {
      const { rows } = await sql<{ age: number | null }>`
        select extract(epoch from max(now() - xact_start))::float8 as age from pg_stat_activity
        where backend_xid is not null and pid <> pg_backend_pid()`.execute(app.db);
      return rows[0]?.age ?? 0;
    }

    app.get('/api/health', { schema: { hide: true } }, async () => ({ success: true, message: 'up', data: { uptime_seconds: Math.round(process.uptime()) } }));

    app.get('/api/ready', { schema: { hide: true } }, async (request, reply) => {
      const checks: Record<string, unknown> = {};
      let ready = true;
      try {
        await sql`select 1`.execute(app.db);
        checks.database = 'ok';
        checks.oldest_open_transaction_seconds = await oldestXidTransactionSeconds();
        checks.consumers = await consumerLag(app.db, options.consumers);
      } catch (error) {
        ready = false;
        checks.database = error instanceof Error ? error.message : 'unreachable';
      }
      try {
        await options.redis.ping();
        checks.redis = 'ok';
      } catch (error) {
        ready = false;
        checks.redis = error instanceof Error ? error.message : 'unreachable';
      }
      const answer = { success: ready, message: ready ? 'ready' : 'not ready' };
      return reply.status(ready ? 200 : 503).send(mayReadOperations(request) ? { ...answer, data: checks } : answer);
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const access = operationsAccess(request);
      if (access === 'closed') return reply.status(404).send({ success: false, message: 'No such path: GET /metrics' });
      if (access === 'refused') return reply.status(401).send({ success: false, message: 'The operations token is required.' });
      for (const lag of await consumerLag(app.db, options.consumers)) {
        consumerBehind.set({ consumer: lag.name }, lag.behind);
        consumerFailed.set({ consumer: lag.name }, lag.status === 'failed' ? 1 : 0);
      }
      oldestTransaction.set(await oldestXidTransactionSeconds());
      const { lastFinished } = await latestVerifications(app.db);
      if (lastFinished?.finished_at) {
        // Labelled, so that before the first check the series is absent rather than a misleading 0.
        verificationOk.set({ check: 'hash_chains' }, lastFinished.status === 'intact' ? 1 : 0);
        verificationTime.set({ check: 'hash_chains' }, Math.floor(lastFinished.finished_at.getTime() / 1000));
      }
      const waiting = await options.redis.llen(`${app.config.QUEUE_PREFIX}:consumers:wait`).catch(() => 0);
      queueDepth.set(waiting);
      await operators.collect(app.db, options.redis, options.consumers);
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  };
}
