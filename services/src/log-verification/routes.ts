import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { envelope } from '../contracts/http';
import { type LogVerification, latestLogVerifications, logVerification } from '../contracts/log-verification';
import { NotFound } from '../core/errors';
import { createVerificationQueue } from './jobs';
import { type VerificationRow, findVerification, latestVerifications, requestVerification } from './verification';

export const toLogVerification = (row: VerificationRow): LogVerification => ({
  id: row.id,
  trigger: row.trigger,
  requested_by: row.requested_by,
  status: row.status,
  events_total: Number(row.events_total),
  events_checked: Number(row.events_checked),
  percent: row.status === 'intact' || row.status === 'broken' ? 100 : Number(row.events_total) > 0 ? Math.min(100, Math.floor((Number(row.events_checked) / Number(row.events_total)) * 100)) : 0,
  streams_checked: Number(row.streams_checked),
  problems_count: row.problems_count,
  first_problem: row.first_problem,
  problems: row.problems,
  heads_digest: row.heads_digest,
  error: row.error,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
});

const runsResource = {
  columns: {
    id: { sql: sql`id::text`, type: 'text' },
    status: { sql: sql`status`, type: 'text' },
    trigger: { sql: sql`trigger`, type: 'text' },
    created_at: { sql: sql`created_at`, type: 'timestamp' },
    finished_at: { sql: sql`finished_at`, type: 'timestamp' },
    events_checked: { sql: sql`events_checked`, type: 'number' },
    problems_count: { sql: sql`problems_count`, type: 'number' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
};

const runId = z.object({ id: z.uuid({ error: 'The id must be a verification run id.' }) });

/**
 * The tamper check from the back office (docs/tamper-check.md). Finance staff and admins may run
 * it: it only reads the log (the run's own record is its only write). The work is a job in the
 * worker (log-verification/jobs.ts); these paths queue it and read its progress.
 */
export const logVerificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const queue = createVerificationQueue(app.config.REDIS_URL, app.config.QUEUE_PREFIX);
  app.addHook('onClose', async () => queue.close());

  app.post(
    '/admin/log-verifications',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], response: { 202: envelope(logVerification) } } },
    async (request, reply) => {
      const { run, created } = await requestVerification(app.db, { trigger: 'admin', requestedBy: request.account?.id ?? null, now: new Date() });
      if (created) await queue.enqueue(run.id);
      return reply.status(202).send({ success: true, message: created ? 'The tamper check has started.' : 'A tamper check is already running.', data: toLogVerification(run) });
    },
  );

  app.get(
    '/admin/log-verifications/latest',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], response: { 200: envelope(latestLogVerifications) } } },
    async () => {
      const { latest, lastFinished } = await latestVerifications(app.db);
      return { success: true, message: 'Tamper check', data: { latest: latest && toLogVerification(latest), last_finished: lastFinished && toLogVerification(lastFinished) } };
    },
  );

  app.get(
    '/admin/log-verifications',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(logVerification) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, runsResource);
      const { rows, total } = await selectPage<VerificationRow>(app.db, { columns: sql`*`, from: sql`from log_verifications`, tiebreak: sql`id`, list });
      return sendList(reply, 'log-verifications', list, rows.map(toLogVerification), total);
    },
  );

  app.get(
    '/admin/log-verifications/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: runId, response: { 200: logVerification } } },
    async (request) => {
      const run = await findVerification(app.db, request.params.id);
      if (!run) throw new NotFound('No such tamper check.');
      return toLogVerification(run);
    },
  );
};
