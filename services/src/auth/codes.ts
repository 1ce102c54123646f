import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../core/db';
import { RuleViolation } from '../core/errors';
import type { AccountKind } from '../database';

/**
 * One-time codes (BUSINESS-RULES.md §1): 6 digits, valid 15 minutes, single use, at most 5 wrong
 * tries. Only an HMAC of the code is stored.
 */
export type CodePurpose = 'email_confirmation' | 'two_factor' | 'password_reset' | 'password_change' | 'password_verified';

export const CODE_TTL_MINUTES = 15;
export const MAX_WRONG_TRIES = 5;

export const codeMessages = {
  invalid: 'The code is invalid.',
  expired: 'The code has expired; please request a new one.',
  tooManyTries: 'Too many wrong codes; please request a new one.',
  /** The one answer of the anonymous code checks (e-mail confirmation, password reset): it must not tell a real account from none. */
  rejected: 'The code is invalid or has expired. Please check it or request a new one.',
} as const;

function hashCode(pepper: string, kind: AccountKind, accountId: string, purpose: CodePurpose, code: string): string {
  return createHmac('sha256', pepper).update(`${kind}:${accountId}:${purpose}:${code}`).digest('hex');
}

/** Issues a fresh code; earlier unused codes of the same purpose stop working. */
export async function issueCode(
  db: Executor,
  pepper: string,
  account: { kind: AccountKind; id: string },
  purpose: CodePurpose,
  now: Date,
): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .updateTable('one_time_codes')
    .set({ consumed_at: now })
    .where('account_kind', '=', account.kind)
    .where('account_id', '=', account.id)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .execute();
  await db
    .insertInto('one_time_codes')
    .values({
      account_kind: account.kind,
      account_id: account.id,
      purpose,
      code_hash: hashCode(pepper, account.kind, account.id, purpose, code),
      expires_at: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
    })
    .execute();
  return code;
}

/**
 * Checks and consumes a code. Every try is counted before the comparison, by one statement that
 * refuses a sixth, so concurrent guesses cannot all be compared against the same code. A wrong try
 * stays counted even though the request fails, so the caller must not run this inside a
 * transaction it rolls back on failure. `onWrite` is told when the try was recorded.
 */
export async function consumeCode(
  db: Executor,
  pepper: string,
  account: { kind: AccountKind; id: string },
  purpose: CodePurpose,
  code: string,
  now: Date,
  onWrite?: () => void,
): Promise<void> {
  const latest = await db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('account_kind', '=', account.kind)
    .where('account_id', '=', account.id)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!latest || latest.consumed_at !== null) throw new RuleViolation(codeMessages.invalid, 'code');
  if (latest.attempts >= MAX_WRONG_TRIES) throw new RuleViolation(codeMessages.tooManyTries, 'code');
  if (latest.expires_at.getTime() <= now.getTime()) throw new RuleViolation(codeMessages.expired, 'code');
  const { rows } = await sql<{ attempts: number }>`
    update one_time_codes set attempts = attempts + 1
    where id = ${latest.id} and attempts < ${MAX_WRONG_TRIES} and consumed_at is null returning attempts`.execute(db);
  onWrite?.();
  if (rows.length === 0) throw new RuleViolation(codeMessages.tooManyTries, 'code');
  const expected = Buffer.from(latest.code_hash, 'hex');
  const given = Buffer.from(hashCode(pepper, account.kind, account.id, purpose, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    throw new RuleViolation(rows[0]!.attempts >= MAX_WRONG_TRIES ? codeMessages.tooManyTries : codeMessages.invalid, 'code');
  }
  // Single use, even under two concurrent correct submissions.
  const { numUpdatedRows } = await db
    .updateTable('one_time_codes')
    .set({ consumed_at: now })
    .where('id', '=', latest.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  if (Number(numUpdatedRows) !== 1) throw new RuleViolation(codeMessages.invalid, 'code');
}

/** A password step that a second factor must follow within the code's lifetime. */
export async function hasRecentPasswordStep(db: Executor, account: { kind: AccountKind; id: string }, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('account_kind', '=', account.kind)
    .where('account_id', '=', account.id)
    .where('purpose', '=', 'password_verified')
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The anonymous flows' code check: the same work and the same answer whether the account exists,
 * its code was wrong, expired, used up or never sent (docs/security-auth.md, threat A6).
 */
export async function consumeCodeAnonymously(
  db: Executor,
  pepper: string,
  account: { kind: AccountKind; id: string } | null,
  purpose: CodePurpose,
  code: string,
  now: Date,
): Promise<void> {
  // An account that does not exist is looked up like one that does (a nil id finds no code).
  const target = account ?? { kind: 'member' as const, id: '00000000-0000-0000-0000-000000000000' };
  let wrote = false;
  try {
    await consumeCode(db, pepper, target, purpose, code, now, () => {
      wrote = true;
    });
  } catch (error) {
    // A refusal that recorded no try (no account, no live code) writes once all the same, so a
    // refused check costs one commit whatever the account's state.
    if (!wrote) await recordDecoyTry(db, purpose, now);
    if (error instanceof RuleViolation) throw new RuleViolation(codeMessages.rejected, 'code');
    throw error;
  }
  if (!account) throw new RuleViolation(codeMessages.rejected, 'code');
}

/** The write a refused anonymous check makes when it recorded no try (spread over 64 rows). */
async function recordDecoyTry(db: Executor, purpose: CodePurpose, now: Date): Promise<void> {
  const key = `code-check:${purpose}:${randomInt(0, 64)}`;
  await sql`
    insert into sign_in_throttles (key, failures, window_started_at, last_failure_at) values (${key}, 1, ${now}, ${now})
    on conflict (key) do update set failures = sign_in_throttles.failures + 1, last_failure_at = ${now}`.execute(db);
}
