import { sql } from 'kysely';
import type { Config } from '../core/config';
import { TooManyRequests } from '../core/errors';
import type { Db, Executor } from '../core/db';
import type { AccountKind } from '../database';
import { escapeHtml } from '../notifications/mailer';
import type { MailOutbox } from '../notifications/outbox';

/**
 * Sign-in throttles that no address can dodge (docs/security-auth.md, threats A2–A4):
 * - per account: from the SIGN_IN_FAILURES_BEFORE_LOCK-th consecutive failure, the account is
 *   locked for 1, 2, 4 … 60 minutes after each further failure, and its owner is mailed at the
 *   first lock and every further N failures. A name that matches no account is throttled the same
 *   way under its own key, so a lock never tells which names exist. A success clears it; so does
 *   a password reset.
 * - globally: SIGN_IN_GLOBAL_FAILURES_PER_15_MIN failures across every account in a quarter hour
 *   (password spraying: one guess per account from many addresses) pause password sign-in for
 *   the rest of that quarter hour.
 * The check, the password verification and the count run under one advisory lock per key, so
 * concurrent guesses cannot all slip in before the first failure is counted.
 */
export const throttleMessages = {
  locked: (minutes: number) => `Too many failed sign-ins. Please try again in ${minutes} minute(s), or reset your password.`,
  paused: (minutes: number) => `Sign-in is paused for ${minutes} minute(s) because of unusual activity. Please try again later.`,
} as const;

const GLOBAL_KEY = 'global';
const GLOBAL_WINDOW_MS = 15 * 60_000;
/** Failures older than this no longer count towards a lock. */
const FAILURE_MEMORY_MS = 24 * 60 * 60_000;
const MAX_LOCK_MINUTES = 60;

export type ThrottleTarget = { key: string; owner: { email: string; name: string } | null };

/** The throttle key of a sign-in attempt: the account when it exists, else the name tried. */
export function throttleTarget(kind: AccountKind, name: string, account: { id: string; email: string; name: string } | null | undefined): ThrottleTarget {
  return account ? { key: `${kind}:${account.id}`, owner: { email: account.email, name: account.name } } : { key: `${kind}-name:${name.trim().toLowerCase()}`, owner: null };
}

export function lockMinutes(failures: number, threshold: number): number {
  return failures < threshold ? 0 : Math.min(MAX_LOCK_MINUTES, 2 ** (failures - threshold));
}

const minutesUntil = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

/**
 * Runs one password check under the throttle: refuses (429) while the key is locked or sign-in is
 * paused, else runs `check`; a `false` is counted as a failure (and may lock, mailing the owner),
 * a `true` clears the key's failures.
 */
export async function throttledSignIn(
  deps: { db: Db; config: Config; clock: () => Date; outbox: MailOutbox },
  target: ThrottleTarget,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const { config } = deps;
  const threshold = config.SIGN_IN_FAILURES_BEFORE_LOCK;
  let mailed = false;
  const outcome = await deps.db.transaction().execute(async (trx): Promise<{ refused: string } | { valid: boolean }> => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${target.key}`}, 0))`.execute(trx);
    const now = deps.clock();
    const rows = await trx.selectFrom('sign_in_throttles').selectAll().where('key', 'in', [target.key, GLOBAL_KEY]).execute();
    const global = rows.find((r) => r.key === GLOBAL_KEY);
    const globalEnds = global ? new Date(global.window_started_at.getTime() + GLOBAL_WINDOW_MS) : null;
    if (global && globalEnds && globalEnds > now && global.failures >= config.SIGN_IN_GLOBAL_FAILURES_PER_15_MIN) {
      return { refused: throttleMessages.paused(minutesUntil(globalEnds, now)) };
    }
    const own = rows.find((r) => r.key === target.key);
    if (own?.locked_until && own.locked_until > now) return { refused: throttleMessages.locked(minutesUntil(own.locked_until, now)) };

    const valid = await check();
    if (valid) {
      await trx.deleteFrom('sign_in_throttles').where('key', '=', target.key).execute();
      return { valid };
    }
    const failures = own && own.last_failure_at && now.getTime() - own.last_failure_at.getTime() < FAILURE_MEMORY_MS ? own.failures + 1 : 1;
    const minutes = lockMinutes(failures, threshold);
    const lockedUntil = minutes > 0 ? new Date(now.getTime() + minutes * 60_000) : null;
    await trx
      .insertInto('sign_in_throttles')
      .values({ key: target.key, failures, window_started_at: now, last_failure_at: now, locked_until: lockedUntil })
      .onConflict((oc) => oc.column('key').doUpdateSet({ failures, last_failure_at: now, locked_until: lockedUntil }))
      .execute();
    const windowStart = new Date(now.getTime() - GLOBAL_WINDOW_MS);
    await sql`
      insert into sign_in_throttles (key, failures, window_started_at) values (${GLOBAL_KEY}, 1, ${now})
      on conflict (key) do update set
        failures = case when sign_in_throttles.window_started_at <= ${windowStart} then 1 else sign_in_throttles.failures + 1 end,
        window_started_at = case when sign_in_throttles.window_started_at <= ${windowStart} then ${now} else sign_in_throttles.window_started_at end`.execute(trx);
    if (target.owner && failures >= threshold && (failures - threshold) % threshold === 0) {
      await deps.outbox.enqueue(trx, lockMail(target.owner, failures, minutes), now);
      mailed = true;
    }
    return { valid };
  });
  if (mailed) await deps.outbox.wake().catch(() => {});
  if ('refused' in outcome) throw new TooManyRequests(outcome.refused);
  return outcome.valid;
}

/**
 * Deletes the rows that no longer count (the worker's hourly clean-up): a name's failures once the
 * last is older than the failure memory and no lock is running, and a global window long ended.
 * Every name tried makes a row (unknown names too), so without this the table only grows.
 */
export async function pruneSignInThrottles(db: Executor, now: Date): Promise<number> {
  const forgotten = new Date(now.getTime() - FAILURE_MEMORY_MS);
  const globalEnded = new Date(now.getTime() - GLOBAL_WINDOW_MS);
  const result = await db
    .deleteFrom('sign_in_throttles')
    .where((eb) =>
      eb.or([
        eb.and([eb('key', '<>', GLOBAL_KEY), eb('last_failure_at', '<', forgotten), eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)])]),
        eb.and([eb('key', '=', GLOBAL_KEY), eb('window_started_at', '<=', globalEnded)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Clears an account's failures (after a password reset: the owner proved they hold the mailbox). */
export async function clearSignInFailures(db: Executor, kind: AccountKind, accountId: string): Promise<void> {
  await db.deleteFrom('sign_in_throttles').where('key', '=', `${kind}:${accountId}`).execute();
}

function lockMail(owner: { email: string; name: string }, failures: number, minutes: number) {
  const text = `Hello ${owner.name},\n\nSomeone has tried to sign in to your Herbal Life Network account ${failures} times with a wrong password. To protect it, sign-in is paused for ${minutes} minute(s).\n\nIf this was you, wait and try again, or reset your password. If it was not you, your password held; consider changing it to a long one you use nowhere else.\n\nHerbal Life Network`;
  const html = `<p>Hello ${escapeHtml(owner.name)},</p><p>Someone has tried to sign in to your Herbal Life Network account ${failures} times with a wrong password. To protect it, sign-in is paused for ${minutes} minute(s).</p><p>If this was you, wait and try again, or reset your password. If it was not you, your password held; consider changing it to a long one you use nowhere else.</p><p>Herbal Life Network</p>`;
  return { to: owner.email, subject: 'Failed sign-in attempts on your account', text, html, category: 'sign-in-lock' };
}
