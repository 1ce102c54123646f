import { sql } from 'kysely';
import { z } from 'zod';
import { type CommandContext, runInTransaction } from '../core/command';
import type { Config } from '../core/config';
import type { Db, Executor } from '../core/db';
import { codeMail } from '../notifications/mailer';
import { type MailOutbox, mailsTo } from '../notifications/outbox';
import { type Account, findAccountByEmail } from './accounts';
import { type CodePurpose, hasRecentPasswordStep, issueCode } from './codes';

/**
 * Code mails (docs/security-auth.md, threats A5–A7). Every one-time-code mail is issued and written
 * to the mail outbox in one transaction, at most CODE_MAILS_PER_EMAIL_PER_HOUR to one address
 * whoever asks and from wherever; beyond that the request is answered the same and nothing is sent.
 *
 * Anonymous requests (reset link, resend confirmation, 2FA code) do not look the account up while
 * the caller waits: the route hands a `code-request` job to the mail worker and answers. The answer
 * and its time are then the same whether the address belongs to an account or not.
 */
export type CodeMailDeps = { db: Db; commands: CommandContext; config: Config; clock: () => Date; outbox: MailOutbox };
export type MailedPurpose = Exclude<CodePurpose, 'password_verified'>;

export const CODE_REQUEST_JOB = 'code-request';

/**
 * The mails anyone can cause to be sent to an address without signing in (codes, and the notice of a
 * registration with an address already registered) share one cap per address and hour.
 */
const ANONYMOUSLY_CAUSED = ['code', 'registration-attempt'];

/** Takes the address's mail lock (one sender at a time, so two racing requests cannot both pass the cap) and says whether one more mail fits. */
export async function anotherCodeMailFits(trx: Executor, config: Config, email: string, now: Date): Promise<boolean> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`code-mail:${email.toLowerCase()}`}, 0))`.execute(trx);
  const lastHour = new Date(now.getTime() - 60 * 60_000);
  return (await mailsTo(trx, email, ANONYMOUSLY_CAUSED, lastHour)) < config.CODE_MAILS_PER_EMAIL_PER_HOUR;
}

export async function sendCode(deps: CodeMailDeps, account: Pick<Account, 'kind' | 'id' | 'email' | 'name'>, purpose: MailedPurpose): Promise<boolean> {
  const now = deps.clock();
  return runInTransaction(deps.commands, async (trx) => {
    if (!(await anotherCodeMailFits(trx, deps.config, account.email, now))) return false;
    const code = await issueCode(trx, deps.config.CODE_PEPPER, account, purpose, now);
    await deps.outbox.enqueue(trx, codeMail(account.email, account.name, purpose, code), now);
    return true;
  });
}

const codeRequest = z.object({
  purpose: z.enum(['password_reset', 'email_confirmation', 'two_factor']),
  email: z.string(),
  user_type: z.enum(['user', 'admin']),
});
export type CodeRequest = z.infer<typeof codeRequest>;

/** Asks for a code mail without learning whether it goes out (the route's side). */
export async function requestCodeMail(outbox: MailOutbox, request: CodeRequest): Promise<void> {
  await outbox.request(CODE_REQUEST_JOB, request);
}

/** The worker's side of a `code-request` job: mails a code only when the account exists and the purpose applies. */
export function codeRequestHandler(deps: CodeMailDeps) {
  return async (data: unknown): Promise<void> => {
    const request = codeRequest.parse(data);
    const account = await findAccountByEmail(deps.db, request.user_type, request.email);
    if (!account) return;
    if (request.purpose === 'email_confirmation' && account.emailConfirmed) return;
    // A 2FA code goes out only after the password step, so knowing an address is not enough to get one.
    if (request.purpose === 'two_factor' && !(account.enableTwoFactor && (await hasRecentPasswordStep(deps.db, account, deps.clock())))) return;
    await sendCode(deps, account, request.purpose);
  };
}

/** Every mail job handler of the auth capability, for the mail worker. */
export function authMailJobs(deps: CodeMailDeps): Record<string, (data: unknown) => Promise<void>> {
  return { [CODE_REQUEST_JOB]: codeRequestHandler(deps) };
}
