import type { Config } from '../core/config';
import type { Db } from '../core/db';
import type { MailOutbox } from '../notifications/outbox';
import type { Account } from './accounts';
import { verifyPassword } from './passwords';
import { passwordHashOf } from './sessions';
import { throttleTarget, throttledSignIn } from './throttle';

/**
 * A signed-in account asked for its password again (to change it, to reveal an order's pick-up
 * code). Each answer is a password guess like a sign-in, so it runs under the same per-account
 * back-off and lock (throttle.ts): a stolen session is no way round the lock, and a lock set by
 * sign-in guesses refuses these too. Refuses with 429 while locked; false for a wrong password.
 */
export async function reauthenticate(
  deps: { db: Db; config: Config; clock: () => Date; outbox: MailOutbox },
  account: Pick<Account, 'kind' | 'id' | 'email' | 'name'>,
  password: string,
): Promise<boolean> {
  const hash = await passwordHashOf(deps.db, account);
  const target = throttleTarget(account.kind, account.email, { id: account.id, email: account.email, name: account.name });
  return throttledSignIn(deps, target, async () => hash !== null && (await verifyPassword(hash, password)));
}
