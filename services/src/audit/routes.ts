import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type ResourceColumns, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
import { requireAdmin } from '../auth/guards';
import { type EventRecord, eventRecord } from '../contracts/audit';
import { NotFound } from '../core/errors';

type EventRow = { id: number; stream_id: string; type: string; data: unknown; metadata: unknown; recorded_at: Date };

const toRecord = (row: EventRow): EventRecord => ({ ...row, recorded_at: row.recorded_at.toISOString() });

/**
 * The event log for the back office (API.md §2): who changed what, from what, to what, and when.
 * Filters: id (one or many), type, stream_id, actor_id, actor_type, recorded_at_gte/_lte, and q
 * (part of a stream id or type).
 */
const eventsResource = {
  columns: {
    id: { sql: sql`global_position`, type: 'number' },
    global_position: { sql: sql`global_position`, type: 'number' },
    type: { sql: sql`type`, type: 'text' },
    stream_id: { sql: sql`stream_id`, type: 'text' },
    actor_id: { sql: sql`metadata->'actor'->>'id'`, type: 'text' },
    actor_type: { sql: sql`metadata->'actor'->>'type'`, type: 'text' },
    recorded_at: { sql: sql`recorded_at`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['global_position', 'DESC'] as ['global_position', 'DESC'],
  search: (q: string) => sql<boolean>`(stream_id ilike ${`%${q}%`} or type ilike ${`%${q}%`})`,
};

export const eventLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/events',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(eventRecord) } } },
    async (request, reply) => {
      const list = parseListRequest(request.query, eventsResource);
      const { rows, total } = await selectPage<EventRow>(app.db, {
        columns: sql`global_position as id, stream_id, type, data, metadata, recorded_at`,
        from: sql`from events`,
        tiebreak: sql`global_position desc`,
        list,
      });
      return sendList(reply, 'events', list, rows.map(toRecord), total);
    },
  );

  app.get(
    '/admin/events/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: z.object({ id: z.coerce.number({ error: 'The id must be a number.' }).int('The id must be a whole number.').min(0).max(Number.MAX_SAFE_INTEGER, 'The id is too large.') }), response: { 200: eventRecord } } },
    async (request) => {
      const { rows } = await sql<EventRow>`
        select global_position as id, stream_id, type, data, metadata, recorded_at from events where global_position = ${request.params.id}`.execute(app.db);
      if (!rows[0]) throw new NotFound('Event not found.');
      return toRecord(rows[0]);
    },
  );
};
