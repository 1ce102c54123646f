import { randomUUID } from 'node:crypto';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import { type Executor, PREPARED } from '../core/db';
import type { AccountKind, AdminsTable, SessionsTable } from '../database';

/**
 * Server-side sessions: the bearer JWT only names a session. A session ends on logout, on a
 * password change or reset, and after the idle time without a request (15 minutes).
 */
export type Session = { id: string; kind: AccountKind; accountId: string };

export async function startSession(
  db: Executor,
  account: { kind: AccountKind; id: string },
  context: { now: Date; ip?: string; userAgent?: string },
): Promise<Session> {
  const id = randomUUID();
  await db
    .insertInto('sessions')
    .values({
      id,
      account_kind: account.kind,
      account_id: account.id,
      created_at: context.now,
      last_seen_at: context.now,
      ended_at: null,
      end_reason: null,
      ip: context.ip ?? null,
      user_agent: context.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return { id, kind: account.kind, accountId: account.id };
}

/**
 * Returns the live session and records this request as activity, or null when the session has
 * ended (then it is marked ended for idleness if that is why). `adminRole`: an admin session's
 * admin's role (null when that admin is gone, or for a member).
 */
export async function touchSession(db: Executor, sessionId: string, now: Date, idleMinutes: number): Promise<LiveSession | null> {
  // An admin's role rides in the same statement (every admin request needs it: guards.ts).
  // Every authenticated request runs it: a prepared statement (core/db.ts PREPARED), parsed and planned once a connection.
  const { rows } = await sql<Selectable<SessionsTable> & { admin_role: AdminsTable['role'] | null }>`${sql.raw(PREPARED)}
    select s.*, a.role as admin_role from sessions s left join admins a on s.account_kind = 'admin' and a.id = s.account_id
    where s.id = ${sessionId}`.execute(db);
  const row = rows[0];
  return judgeSession(db, row ? { id: row.id, account_kind: row.account_kind, account_id: row.account_id, ended: row.ended_at !== null, last_seen_ms: row.last_seen_at.getTime(), admin_role: row.admin_role } : null, now, idleMinutes);
}

export type LiveSession = Session & { adminRole: AdminsTable['role'] | null };

/** What the session check reads of a session: touchSession's row, or sessionCheckJson's value. */
export type SessionSeen = { id: string; account_kind: AccountKind; account_id: string; ended: boolean; last_seen_ms: number; admin_role: AdminsTable['role'] | null };

/**
 * touchSession's read as one jsonb value (null when there is no such session), to ride in another
 * statement: a command's read of its stream (guards.ts `readAhead`), so the request costs one round
 * trip less. The last request's time in whole milliseconds, as pg reads a timestamptz.
 */
export function sessionCheckJson(sessionId: string): RawBuilder<SessionSeen | null> {
  return sql<SessionSeen | null>`(select jsonb_build_object('id', s.id, 'account_kind', s.account_kind, 'account_id', s.account_id,
      'ended', s.ended_at is not null, 'last_seen_ms', floor(extract(epoch from s.last_seen_at) * 1000), 'admin_role', a.role)
    from sessions s left join admins a on s.account_kind = 'admin' and a.id = s.account_id where s.id = ${sessionId})`;
}

/**
 * The session check's verdict on what was read (`seen`, null when no such session): the live
 * session, recording this request as activity; or null when it has ended, marking it ended for
 * idleness if that is why.
 */
export async function judgeSession(db: Executor, seen: SessionSeen | null, now: Date, idleMinutes: number): Promise<LiveSession | null> {
  if (!seen || seen.ended) return null;
  const idleFor = now.getTime() - seen.last_seen_ms;
  if (idleFor > idleMinutes * 60_000) {
    await endSession(db, seen.id, 'idle', now);
    return null;
  }
  // Writing on every request would make reads write; a few seconds of slack is harmless.
  if (idleFor > 5_000) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', seen.id).where('ended_at', 'is', null).execute();
  }
  return { id: seen.id, kind: seen.account_kind, accountId: seen.account_id, adminRole: seen.admin_role };
}

export async function endSession(db: Executor, sessionId: string, reason: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ ended_at: now, end_reason: reason }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
}

export async function endAccountSessions(
  db: Executor,
  account: { kind: AccountKind; id: string },
  reason: string,
  now: Date,
  options: { except?: string } = {},
): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: now, end_reason: reason })
    .where('account_kind', '=', account.kind)
    .where('account_id', '=', account.id)
    .where('ended_at', 'is', null);
  if (options.except) query = query.where('id', '<>', options.except);
  await query.execute();
}

export async function setPassword(db: Executor, account: { kind: AccountKind; id: string }, passwordHash: string, now: Date): Promise<void> {
  await db
    .insertInto('credentials')
    .values({ account_kind: account.kind, account_id: account.id, password_hash: passwordHash, changed_at: now })
    .onConflict((oc) => oc.columns(['account_kind', 'account_id']).doUpdateSet({ password_hash: passwordHash, changed_at: now }))
    .execute();
}

export async function passwordHashOf(db: Executor, account: { kind: AccountKind; id: string }): Promise<string | null> {
  const row = await db
    .selectFrom('credentials')
    .select('password_hash')
    .where('account_kind', '=', account.kind)
    .where('account_id', '=', account.id)
    .executeTakeFirst();
  return row?.password_hash ?? null;
}
