import { runInTransaction } from '../core/command';
import { type CodeMailDeps, anotherCodeMailFits } from '../auth/code-mails';
import { escapeHtml } from '../notifications/mailer';
import { findMemberByEmail } from './queries';

/**
 * A registration with an address that already has an account is answered like any other
 * (docs/security-auth.md A6); instead of a confirmation code, the owner is told by mail. Counted
 * with code mails under the per-address cap, so registrations cannot be used to flood a mailbox.
 */
export async function sendRegistrationAttemptNotice(deps: CodeMailDeps, email: string): Promise<boolean> {
  const now = deps.clock();
  return runInTransaction(deps.commands, async (trx) => {
    const owner = await findMemberByEmail(trx, email);
    if (!owner) return false;
    if (!(await anotherCodeMailFits(trx, deps.config, owner.email, now))) return false;
    await deps.outbox.enqueue(trx, registrationAttemptMail(deps.config.publicUrl, { email: owner.email, name: owner.first_name, username: owner.username }), now);
    return true;
  });
}

export function registrationAttemptMail(publicUrl: string, owner: { email: string; name: string; username: string }) {
  const signIn = `${publicUrl}/login`;
  const text = `Hello ${owner.name},\n\nSomeone tried to register a new Herbal Life Network account with this e-mail address. It already belongs to your account (user name ${owner.username}), so no new account was made.\n\nIf it was you, sign in with your user name at ${signIn}; if you have forgotten your password, choose "Forgot your password?" there to reset it.\n\nIf it was not you, you can ignore this e-mail; nothing has changed on your account.\n\nHerbal Life Network`;
  const html = `<p>Hello ${escapeHtml(owner.name)},</p><p>Someone tried to register a new Herbal Life Network account with this e-mail address. It already belongs to your account (user name <b>${escapeHtml(owner.username)}</b>), so no new account was made.</p><p>If it was you, <a href="${escapeHtml(signIn)}">sign in with your user name</a>; if you have forgotten your password, choose “Forgot your password?” there to reset it.</p><p>If it was not you, you can ignore this e-mail; nothing has changed on your account.</p><p>Herbal Life Network</p>`;
  return { to: owner.email, subject: 'You already have an account', text, html, category: 'registration-attempt' };
}
