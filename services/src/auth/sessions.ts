import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
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
export async function touchSession(db: Executor, sessionId: string, now: Date, idleMinutes: number): Promise<(Session & { adminRole: AdminsTable['role'] | null }) | null> {
  // An admin's role rides in the same statement (every admin request needs it: guards.ts).
  // Every authenticated request runs it: a prepared statement (core/db.ts PREPARED), parsed and planned once a connection.
  const { rows } = await sql<Selectable<SessionsTable> & { admin_role: AdminsTable['role'] | null }>`${sql.raw(PREPARED)}
    select s.*, a.role as admin_role from sessions s left join admins a on s.account_kind = 'admin' and a.id = s.account_id
    where s.id = ${sessionId}`.execute(db);
  const row = rows[0];
  if (!row || row.ended_at !== null) return null;
  const idleFor = now.getTime() - row.last_seen_at.getTime();
  if (idleFor > idleMinutes * 60_000) {
    await endSession(db, sessionId, 'idle', now);
    return null;
  }
  // Writing on every request would make reads write; a few seconds of slack is harmless.
  if (idleFor > 5_000) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
  }
  return { id: row.id, kind: row.account_kind, accountId: row.account_id, adminRole: row.admin_role };
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
