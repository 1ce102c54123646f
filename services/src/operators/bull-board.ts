import { createHmac, timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { requestMetadata } from '../api/context';
import { authenticate } from '../auth/guards';
import { runInTransaction } from '../core/command';
import { DomainError, Forbidden, Unauthenticated } from '../core/errors';
import { appendToStream } from '../core/event-store';
import { redisConnection } from '../core/wakeups';
import { QUEUES_STREAM, type QueueActionTaken } from './events';

/**
 * Bull Board at /admin/queues for administrators (docs/operations.md). Its api answers an admin's
 * bearer token like every other admin call. A page load carries no bearer header, so the back
 * office first asks POST /api/admin/queues/session for a cookie: signed, HttpOnly, SameSite=Strict,
 * Path=/admin/queues, valid for QUEUES_COOKIE_MINUTES and only while the admin's session lives.
 * Members, finance staff and anonymous visitors are refused; every write made here is recorded as
 * a QueueActionTaken event with the admin.
 */
export const QUEUES_PATH = '/admin/queues';
export const QUEUES_COOKIE = 'portal_queues';
export const QUEUES_COOKIE_MINUTES = 30;

type QueuesAccount = { adminId: string };
declare module 'fastify' {
  interface FastifyRequest {
    queuesAccount?: QueuesAccount;
  }
}

/** The cookie's value: the session id and when it ends, HMAC-signed with a key of its own. */
function cookieKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('bull-board-cookie').digest();
}

export function queuesCookieValue(jwtSecret: string, sessionId: string, expiresAt: Date): string {
  const payload = `${sessionId}.${expiresAt.getTime()}`;
  return `${payload}.${createHmac('sha256', cookieKey(jwtSecret)).update(payload).digest('base64url')}`;
}

function readCookieValue(jwtSecret: string, value: string, now: Date): string | null {
  const [sessionId, expires, signature] = value.split('.');
  if (!sessionId || !expires || !signature) return null;
  const expected = createHmac('sha256', cookieKey(jwtSecret)).update(`${sessionId}.${expires}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!(Number(expires) > now.getTime())) return null;
  return sessionId;
}

/** The session behind a cookie, if it is still live (read only: Bull Board's polling is not activity). */
async function liveAdminSession(app: FastifyInstance, sessionId: string, now: Date): Promise<{ adminId: string; role: string } | null> {
  const { rows } = await sql<{ account_id: string; last_seen_at: Date; role: string }>`
    select s.account_id, s.last_seen_at, a.role from sessions s join admins a on a.id::text = s.account_id::text
    where s.id::text = ${sessionId} and s.ended_at is null and s.account_kind = 'admin'`.execute(app.db);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.last_seen_at.getTime() > app.config.SESSION_IDLE_MINUTES * 60_000) return null;
  return { adminId: row.account_id, role: row.role };
}

const ONLY_ADMINS = 'The queues are for administrators only.';

async function queuesAccess(request: FastifyRequest): Promise<QueuesAccount> {
  const app = request.server;
  if (request.headers.authorization) {
    const account = await authenticate(request);
    if (account.kind !== 'admin' || account.role !== 'admin') throw new Forbidden(ONLY_ADMINS);
    return { adminId: account.id };
  }
  const raw = request.cookies[QUEUES_COOKIE];
  const sessionId = raw ? readCookieValue(app.config.JWT_SECRET, raw, app.clock()) : null;
  if (!sessionId) throw new Unauthenticated('Please sign in to the back office and open the queues from its Consumers page.');
  const session = await liveAdminSession(app, sessionId, app.clock());
  if (!session) throw new Unauthenticated('Your session has ended. Please sign in to the back office again.');
  if (session.role !== 'admin') throw new Forbidden(ONLY_ADMINS);
  // A cookie rides along on any request the browser makes: writes must come from this origin's page.
  if (!['GET', 'HEAD'].includes(request.method) && request.headers['sec-fetch-site'] !== undefined && request.headers['sec-fetch-site'] !== 'same-origin') {
    throw new Forbidden('Queue actions must come from the queues page itself.');
  }
  return { adminId: session.adminId };
}

const refusalPage = (message: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Queues</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #1f2933">
<h1 style="font-size: 1.25rem">Queues</h1><p>${message}</p><p><a href="/admin/consumers">Go to the Consumers page</a></p></body></html>`;

async function refuse(request: FastifyRequest, reply: FastifyReply, error: DomainError): Promise<void> {
  const status = error instanceof Forbidden ? 403 : 401;
  const isPage = request.method === 'GET' && !request.url.startsWith(`${QUEUES_PATH}/api/`) && !request.url.startsWith(`${QUEUES_PATH}/static/`);
  if (isPage) {
    await reply.status(status).type('text/html; charset=utf-8').send(refusalPage(error.message.replace(/[<>&]/g, '')));
    return;
  }
  await reply.status(status).send({ success: false, message: error.message });
}

export async function registerBullBoard(app: FastifyInstance, options: { queueNames: readonly string[] }): Promise<void> {
  const { REDIS_URL, QUEUE_PREFIX } = app.config;
  const queues = options.queueNames.map((name) => {
    const queue = new Queue(name, { connection: { ...redisConnection(REDIS_URL), enableOfflineQueue: false, maxRetriesPerRequest: 1 }, prefix: QUEUE_PREFIX });
    queue.on('error', () => {});
    return queue;
  });
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((queue) => queue.close().catch(() => {})));
  });

  await app.register(cookie);

  // The cookie that lets a page load in: asked by the back office with the admin's bearer token.
  app.post('/api/admin/queues/session', { schema: { tags: ['admin'] } }, async (request, reply) => {
    const account = await authenticate(request);
    if (account.kind !== 'admin') throw new Forbidden('This is for administrators only.');
    if (account.role !== 'admin') throw new Forbidden(ONLY_ADMINS);
    const expiresAt = new Date(app.clock().getTime() + QUEUES_COOKIE_MINUTES * 60_000);
    reply.setCookie(QUEUES_COOKIE, queuesCookieValue(app.config.JWT_SECRET, account.sessionId, expiresAt), {
      path: QUEUES_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: app.config.publicUrl.startsWith('https://'),
      expires: expiresAt,
    });
    return { success: true, message: 'The queues are open for you in this browser.', data: { path: `${QUEUES_PATH}/`, expires_at: expiresAt.toISOString() } };
  });

  await app.register(
    async (board) => {
      board.addHook('onRequest', async (request, reply) => {
        try {
          request.queuesAccount = await queuesAccess(request);
        } catch (error) {
          if (error instanceof DomainError) return refuse(request, reply, error);
          throw error;
        }
      });
      // Bull Board's page asks Google for a font; under the portal's Content-Security-Policy that
      // request is refused anyway, so it is taken out rather than left to fail in the console.
      board.addHook('onSend', async (_request, reply, payload) => {
        if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
        return payload.replace(/<link[^>]+fonts\.googleapis\.com[^>]*>/g, '');
      });
      // Recorded before the answer leaves: a write the admin saw succeed is in the log.
      board.addHook('onSend', async (request, reply, payload) => {
        if (['GET', 'HEAD'].includes(request.method) || reply.statusCode >= 400 || !request.queuesAccount) return payload;
        const event: QueueActionTaken = { type: 'QueueActionTaken', data: { method: request.method, path: request.url.split('?')[0]!.slice(0, 300), status: reply.statusCode } };
        const metadata = requestMetadata(request, app.clock(), { type: 'admin', id: request.queuesAccount.adminId });
        await runInTransaction(app.commands, (trx) => appendToStream(trx, QUEUES_STREAM, [event], { expectedVersion: 'any', metadata })).catch((error) =>
          request.log.error({ err: error }, 'could not record a queue action'),
        );
        return payload;
      });
      const serverAdapter = new FastifyAdapter();
      serverAdapter.setBasePath(QUEUES_PATH);
      createBullBoard({
        queues: queues.map((queue) => new BullMQAdapter(queue)),
        serverAdapter,
        options: { uiConfig: { boardTitle: 'Portal queues' } },
      });
      await board.register(serverAdapter.registerPlugin());
    },
    { prefix: QUEUES_PATH },
  );
}
