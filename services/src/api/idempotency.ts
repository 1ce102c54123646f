import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * `Idempotency-Key` (API.md §1): a repeated command with the same key, by the same caller, to the
 * same path, gets the first answer again instead of running twice. Answers of 5xx are not kept,
 * so a failure can be retried.
 */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

function storageKey(request: FastifyRequest, key: string): string {
  const caller = request.headers.authorization ?? `ip:${request.ip}`;
  return createHash('sha256').update(`${caller}\n${request.method}\n${request.url}\n${key}`).digest('hex');
}

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256').update(JSON.stringify(request.body ?? null)).digest('hex');
}

export const idempotency = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('idempotencyKey', null);

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers['idempotency-key'];
      if (!WRITE_METHODS.has(request.method) || typeof header !== 'string' || header.length === 0) return;
      if (header.length > 200) {
        return reply.status(422).send({ success: false, message: 'The Idempotency-Key header is too long.' });
      }
      request.idempotencyKey = storageKey(request, header);
      const previous = await app.db.selectFrom('idempotent_requests').selectAll().where('key', '=', request.idempotencyKey).executeTakeFirst();
      if (!previous) return;
      if (previous.fingerprint !== fingerprint(request)) {
        return reply.status(422).send({ success: false, message: 'This Idempotency-Key was already used for a different request.' });
      }
      reply.header('idempotent-replayed', 'true');
      return reply.status(previous.status_code).send(previous.body);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.idempotencyKey || reply.getHeader('idempotent-replayed') || reply.statusCode >= 500) return payload;
      if (typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      await app.db
        .insertInto('idempotent_requests')
        .values({ key: request.idempotencyKey, fingerprint: fingerprint(request), status_code: reply.statusCode, body: JSON.stringify(body) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return payload;
    });
  },
  { name: 'idempotency' },
);
