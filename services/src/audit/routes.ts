import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { listExportBatch, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin, requireSelfOrAdmin } from '../auth/guards';
import { eventDetail as eventDetailSchema, eventRecord, eventTrace, statement, statementQuery } from '../contracts/audit';
import { envelope } from '../contracts/http';
import { eventDetail, listEvents } from './explorer';
import { memberStatement, statementCsv, statementPeriod } from './statement';
import { traceEvent } from './trace';

const eventParams = z.object({
  id: z.coerce.number({ error: 'The id must be a number.' }).int('The id must be a whole number.').min(0).max(Number.MAX_SAFE_INTEGER, 'The id is too large.'),
});
const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });

/**
 * The event log explorer and the naira trace for the back office (docs/audit.md), read by admins
 * and finance staff; and a member's wallet statement, read by the member or the back office.
 */
export const eventLogRoutes: FastifyPluginAsyncZod = async (app) => {
  // ra-data-simple-rest's list, paged by position: `Content-Range: events 0-24/*` (the log is never
  // counted) and `X-Next-Cursor` (the id to send as filter id_lt, or id_gt ascending) while more remain.
  app.get(
    '/admin/events',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(eventRecord) } } },
    async (request, reply) => {
      const page = await listEvents(app.db, request.query);
      // A CSV export (api/list-export.ts, Accept: text/csv) pages itself by keyset and wants the rows only.
      if (listExportBatch.getStore()) return page.rows;
      const range = page.rows.length === 0 ? '*' : `${page.offset}-${page.offset + page.rows.length - 1}`;
      reply.header('Content-Range', `events ${range}/*`);
      if (page.nextCursor !== null) reply.header('X-Next-Cursor', String(page.nextCursor));
      return page.rows;
    },
  );

  app.get(
    '/admin/events/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: eventParams, response: { 200: eventDetailSchema } } },
    async (request) => eventDetail(app.db, request.params.id),
  );

  app.get(
    '/admin/events/:id/trace',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: eventParams, response: { 200: envelope(eventTrace) } } },
    async (request) => ({ success: true, message: 'Trace', data: await traceEvent(app.db, request.params.id) }),
  );

  // The admins who may act, for the explorer's "acting admin" filter.
  app.get(
    '/admin/event-actors',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], response: { 200: envelope(z.array(z.object({ id: z.string(), name: z.string(), email: z.string(), role: z.string() }))) } } },
    async () => ({ success: true, message: 'Administrators', data: await app.db.selectFrom('admins').select(['id', 'name', 'email', 'role']).orderBy('name').execute() }),
  );

  app.get(
    '/wallet/:id/statement',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['bonuses'], params: memberParams, querystring: statementQuery, response: { 200: z.union([envelope(statement), z.string()]) } } },
    async (request, reply) => {
      const { from, to, format } = request.query;
      const result = await memberStatement(app.db, request.params.id, statementPeriod(app.clock(), from, to));
      if (format === 'csv') {
        reply.header('Content-Type', 'text/csv; charset=utf-8');
        reply.header('Content-Disposition', `attachment; filename="statement-${result.username.replace(/[^\w-]/g, '_')}-${result.from}-${result.to}.csv"`);
        return statementCsv(result);
      }
      return { success: true, message: 'Wallet statement', data: result };
    },
  );
};
