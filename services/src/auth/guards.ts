import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../core/errors';
import { type ReadAhead, type StreamRead, readAheadWith } from '../core/snapshots';
import type { AccountKind } from '../database';
import { judgeSession, sessionCheckJson, touchSession } from './sessions';

/**
 * Who is calling, and what they may do (BUSINESS-RULES.md §1, §6). Used as route preHandlers:
 *   { preHandler: requireMember }, { preHandler: requireAdmin('write') }, { preHandler: requireSelfOrAdmin('id') }
 */
export type SignedInAccount = { kind: AccountKind; id: string; sessionId: string; role: 'admin' | 'finance' | null };

declare module 'fastify' {
  interface FastifyRequest {
    account: SignedInAccount | null;
    /** The route's command read, made with the session check (`readAhead` below); null when none was. */
    readAhead: ReadAhead | null;
  }
  interface FastifyContextConfig {
    /**
     * The read the route's command will make first (core/snapshots.ts streamRead, unlocked; null: none
     * for this request), run in the session check's statement: one round trip a request less. The
     * guards judge the session exactly as without it, before anything else of the request is looked
     * at, and a refused request never reaches the handler that would use the read.
     */
    readAhead?: (request: FastifyRequest) => StreamRead | null;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sid: string };
    user: { sid: string };
  }
}

export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

export async function authenticate(request: FastifyRequest): Promise<SignedInAccount> {
  if (request.account) return request.account;
  if (!request.headers.authorization?.startsWith('Bearer ')) throw new Unauthenticated('Please sign in to continue.');
  let sid: string;
  try {
    sid = (await request.jwtVerify<{ sid: string }>()).sid;
  } catch {
    throw new Unauthenticated(SESSION_ENDED);
  }
  const app = request.server;
  const read = request.routeOptions.config.readAhead?.(request) ?? null;
  let session;
  if (read) {
    const { also, ahead } = await readAheadWith(app.db, read, sessionCheckJson(sid));
    session = await judgeSession(app.db, also, app.clock(), app.config.SESSION_IDLE_MINUTES);
    if (session) request.readAhead = ahead;
  } else {
    session = await touchSession(app.db, sid, app.clock(), app.config.SESSION_IDLE_MINUTES);
  }
  if (!session) throw new Unauthenticated(SESSION_ENDED);
  let role: SignedInAccount['role'] = null;
  if (session.kind === 'admin') {
    if (!session.adminRole) throw new Unauthenticated(SESSION_ENDED);
    role = session.adminRole;
  }
  request.account = { kind: session.kind, id: session.accountId, sessionId: session.id, role };
  return request.account;
}

export async function requireSignedIn(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await authenticate(request);
}

export async function requireMember(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const account = await authenticate(request);
  if (account.kind !== 'member') throw new Forbidden('This is for members only.');
}

/** `read`: admin and finance roles; `write`: admins only (finance staff read and audit). */
export function requireAdmin(access: 'read' | 'write') {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const account = await authenticate(request);
    if (account.kind !== 'admin') throw new Forbidden('This is for administrators only.');
    if (access === 'write' && account.role !== 'admin') throw new Forbidden('Finance staff may read but not change this.');
  };
}

/**
 * A member may read and change only their own `/users/{id}/...` and the like; admins may read
 * every member, and change them when their role allows writes.
 */
export function requireSelfOrAdmin(param = 'id') {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const account = await authenticate(request);
    const target = (request.params as Record<string, string | undefined>)[param];
    if (account.kind === 'member') {
      if (target !== account.id) throw new Forbidden('You may only see and change your own account.');
      return;
    }
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (!isRead && account.role !== 'admin') throw new Forbidden('Finance staff may read but not change this.');
  };
}
