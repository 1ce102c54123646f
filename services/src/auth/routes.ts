import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  adminChangeUserPasswordBody,
  adminLoginBody,
  authAdmin,
  authMessages,
  authUser,
  authenticateTwoFactorBody,
  changePasswordBody,
  changePasswordLinkBody,
  emailBody,
  emailConfirmationBody,
  loginBody,
  resetPasswordBody,
  resetPasswordLinkBody,
  sendTwoFactorBody,
  toggleTwoFactorBody,
} from '../contracts/auth';
import { envelope } from '../contracts/http';
import { decideOnStream, runInTransaction } from '../core/command';
import { Forbidden, NotFound, RuleViolation } from '../core/errors';
import { requestMetadata } from '../api/context';
import { memberDecider } from '../membership/decider';
import { memberStream } from '../membership/events';
import { projectMembers } from '../membership/projections';
import { findMember, findMemberByEmail, findMemberByLogin, toAuthUser } from '../membership/queries';
import { adminDecider } from '../staff/decider';
import { adminStream } from '../staff/events';
import { projectAdmins } from '../staff/projections';
import { findAdmin, findAdminByEmail, toAuthAdmin } from '../staff/queries';
import { type Account, findAccountByEmail } from './accounts';
import { type MailedPurpose, requestCodeMail, sendCode as sendCodeMail } from './code-mails';
import { consumeCode, consumeCodeAnonymously, hasRecentPasswordStep, issueCode } from './codes';
import { authenticate, requireAdmin, requireMember, requireSignedIn } from './guards';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { reauthenticate } from './reauthenticate';
import { clearSignInFailures, throttleTarget, throttledSignIn } from './throttle';
import { endAccountSessions, endSession, passwordHashOf, setPassword, startSession } from './sessions';

export const signInMessages = {
  badCredentials: 'These credentials do not match our records.',
  loggedIn: 'Login successful',
  confirmEmailFirst: 'Please confirm your email address to continue; a new code has been sent to your mail',
  twoFactorRequired: 'Enter the code sent to your email address to continue',
  twoFactorCodeSent: 'Two-factor authentication code has been sent to your email address',
  loggedOut: 'Logged out successfully',
  oldPasswordWrong: 'The old password is incorrect.',
  notYourEmail: 'This email address is not the one you are signed in with.',
  signInFirst: 'Please sign in with your password first.',
} as const;

const messageOnly = envelope(z.null());

/**
 * Sign-in attempts: per address and name, so one person's typos do not lock out a whole office.
 * (Per account and globally, whatever the address: throttle.ts.)
 */
const loginRateLimit = {
  max: 10,
  timeWindow: '15 minutes',
  keyGenerator: (request: FastifyRequest) => `${request.ip}:${String((request.body as { username?: string; email?: string } | undefined)?.username ?? (request.body as { email?: string } | undefined)?.email ?? '').toLowerCase()}`,
};
/** Code mail requests: a few per address per quarter hour (and per e-mail per hour, whoever asks: code-mails.ts). */
const codeMailRateLimit = {
  max: 5,
  timeWindow: '15 minutes',
  keyGenerator: (request: FastifyRequest) => `${request.ip}:${String((request.body as { email?: string } | undefined)?.email ?? '').toLowerCase()}`,
};

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const pepper = app.config.CODE_PEPPER;

  async function sendCode(account: Account, purpose: MailedPurpose): Promise<void> {
    await sendCodeMail(app, account, purpose);
  }

  async function signIn(request: FastifyRequest, account: { kind: 'member' | 'admin'; id: string }): Promise<string> {
    const session = await startSession(app.db, account, { now: app.clock(), ip: request.ip, userAgent: request.headers['user-agent'] });
    return app.jwt.sign({ sid: session.id }, { expiresIn: '12h' });
  }

  async function recordPasswordChange(account: { kind: 'member' | 'admin'; id: string }, request: FastifyRequest, reason: 'reset' | 'change' | 'admin', passwordHash: string, keepSession?: string) {
    const now = app.clock();
    await runInTransaction(app.commands, async (trx) => {
      const metadata = requestMetadata(request, now);
      if (account.kind === 'member') {
        const { events } = await decideOnStream(trx, memberStream(account.id), memberDecider, { type: 'RecordPasswordChange', data: { member_id: account.id, reason } }, metadata);
        await projectMembers(trx, events);
      } else {
        const { events } = await decideOnStream(trx, adminStream(account.id), adminDecider, { type: 'RecordAdminPasswordChange', data: { admin_id: account.id, reason: reason === 'admin' ? 'change' : reason } }, metadata);
        await projectAdmins(trx, events);
      }
      await setPassword(trx, account, passwordHash, now);
      await endAccountSessions(trx, account, `password ${reason}`, now, { except: keepSession });
    });
  }

  app.post('/auth/login', { config: { rateLimit: loginRateLimit }, schema: { tags: ['auth'], body: loginBody, response: { 200: envelope(authUser) } } }, async (request) => {
    const member = await findMemberByLogin(app.db, request.body.username);
    const hash = member ? await passwordHashOf(app.db, { kind: 'member', id: member.id }) : null;
    const target = throttleTarget('member', request.body.username, member && { id: member.id, email: member.email, name: member.first_name });
    const valid = await throttledSignIn(app, target, async () => (await verifyPassword(hash ?? (await decoyPasswordHash()), request.body.password)) && member !== undefined && hash !== null);
    if (!member || !hash || !valid) throw new RuleViolation(signInMessages.badCredentials, 'username');
    const account = { kind: 'member' as const, id: member.id };
    if (!member.email_verified_at) {
      await sendCode({ ...account, name: member.first_name, email: member.email, enableTwoFactor: member.enable_2fa, emailConfirmed: false }, 'email_confirmation');
      return { success: true, message: signInMessages.confirmEmailFirst, data: toAuthUser(member) };
    }
    if (member.enable_2fa) {
      await issueCode(app.db, pepper, account, 'password_verified', app.clock());
      return { success: true, message: signInMessages.twoFactorRequired, data: toAuthUser(member) };
    }
    return { success: true, message: signInMessages.loggedIn, data: { ...toAuthUser(member), access_token: await signIn(request, account) } };
  });

  app.post('/auth/admin-login', { config: { rateLimit: loginRateLimit }, schema: { tags: ['auth'], body: adminLoginBody, response: { 200: envelope(authAdmin) } } }, async (request) => {
    const admin = await findAdminByEmail(app.db, request.body.email);
    const hash = admin ? await passwordHashOf(app.db, { kind: 'admin', id: admin.id }) : null;
    const target = throttleTarget('admin', request.body.email, admin && { id: admin.id, email: admin.email, name: admin.name });
    const valid = await throttledSignIn(app, target, async () => (await verifyPassword(hash ?? (await decoyPasswordHash()), request.body.password)) && admin !== undefined && hash !== null);
    if (!admin || !hash || !valid) throw new RuleViolation(signInMessages.badCredentials, 'email');
    const account = { kind: 'admin' as const, id: admin.id };
    if (admin.enable_2fa) {
      await issueCode(app.db, pepper, account, 'password_verified', app.clock());
      return { success: true, message: signInMessages.twoFactorRequired, data: toAuthAdmin(admin) };
    }
    return { success: true, message: signInMessages.loggedIn, data: { ...toAuthAdmin(admin), access_token: await signIn(request, account) } };
  });

  app.post('/auth/logout', { preHandler: requireSignedIn, schema: { tags: ['auth'], response: { 200: messageOnly } } }, async (request) => {
    await endSession(app.db, request.account!.sessionId, 'logout', app.clock());
    return { success: true, message: signInMessages.loggedOut, data: null };
  });

  app.post('/auth/send-2fa-verification-email', { config: { rateLimit: codeMailRateLimit }, schema: { tags: ['auth'], body: sendTwoFactorBody, response: { 200: messageOnly } } }, async (request) => {
    // Decided by the mail worker (code-mails.ts): a code goes out only after the password step.
    await requestCodeMail(app.outbox, { purpose: 'two_factor', email: request.body.email, user_type: request.body.user_type });
    return { success: true, message: signInMessages.twoFactorCodeSent, data: null };
  });

  app.post('/auth/authenticate-2fa', { config: { rateLimit: loginRateLimit }, schema: { tags: ['auth'], body: authenticateTwoFactorBody, response: { 200: envelope(z.union([authUser, authAdmin])) } } }, async (request) => {
    const { email, code, user_type } = request.body;
    const account = await findAccountByEmail(app.db, user_type, email);
    const now = app.clock();
    if (!account || !(await hasRecentPasswordStep(app.db, account, now))) throw new RuleViolation(signInMessages.signInFirst, 'code');
    await consumeCode(app.db, pepper, account, 'two_factor', code, now);
    await app.db.updateTable('one_time_codes').set({ consumed_at: now }).where('account_kind', '=', account.kind).where('account_id', '=', account.id).where('purpose', '=', 'password_verified').where('consumed_at', 'is', null).execute();
    const token = await signIn(request, account);
    if (account.kind === 'admin') {
      const admin = await findAdmin(app.db, account.id);
      return { success: true, message: signInMessages.loggedIn, data: { ...toAuthAdmin(admin!), access_token: token } };
    }
    const member = await findMember(app.db, account.id);
    return { success: true, message: signInMessages.loggedIn, data: { ...toAuthUser(member!), access_token: token } };
  });

  app.post('/auth/email-confirmation', { config: { rateLimit: loginRateLimit }, schema: { tags: ['auth'], body: emailConfirmationBody, response: { 200: messageOnly } } }, async (request) => {
    const member = await findMemberByEmail(app.db, request.body.email);
    // The code is checked whatever the account's state: a confirmed account has no live code, so
    // it answers like an unknown address or a wrong code.
    await consumeCodeAnonymously(app.db, pepper, member ? { kind: 'member', id: member.id } : null, 'email_confirmation', request.body.code, app.clock());
    if (member && !member.email_verified_at) {
      await runInTransaction(app.commands, async (trx) => {
        const { events } = await decideOnStream(trx, memberStream(member.id), memberDecider, { type: 'ConfirmEmail', data: { member_id: member.id } }, requestMetadata(request, app.clock(), { type: 'member', id: member.id }));
        await projectMembers(trx, events);
      });
    }
    return { success: true, message: authMessages.emailConfirmed, data: null };
  });

  app.post('/auth/resend-email-confirmation', { config: { rateLimit: codeMailRateLimit }, schema: { tags: ['auth'], body: emailBody, response: { 200: messageOnly } } }, async (request) => {
    await requestCodeMail(app.outbox, { purpose: 'email_confirmation', email: request.body.email, user_type: 'user' });
    return { success: true, message: authMessages.confirmationResent, data: null };
  });

  app.post('/auth/reset-password-link', { config: { rateLimit: codeMailRateLimit }, schema: { tags: ['auth'], body: resetPasswordLinkBody, response: { 200: messageOnly } } }, async (request) => {
    await requestCodeMail(app.outbox, { purpose: 'password_reset', email: request.body.email, user_type: request.body.user_type });
    return { success: true, message: authMessages.resetCodeSent, data: null };
  });

  app.post('/auth/reset-password', { config: { rateLimit: loginRateLimit }, schema: { tags: ['auth'], body: resetPasswordBody, response: { 200: messageOnly } } }, async (request) => {
    const account = await findAccountByEmail(app.db, request.body.user_type, request.body.email);
    await consumeCodeAnonymously(app.db, pepper, account, 'password_reset', request.body.code, app.clock());
    await recordPasswordChange(account!, request, 'reset', await hashPassword(request.body.password));
    // The owner proved they hold the mailbox: a lock from someone else's guesses ends.
    await clearSignInFailures(app.db, account!.kind, account!.id);
    return { success: true, message: authMessages.passwordReset, data: null };
  });

  app.post('/auth/change-password-link', { preHandler: requireSignedIn, config: { rateLimit: codeMailRateLimit }, schema: { tags: ['auth'], body: changePasswordLinkBody, response: { 200: messageOnly } } }, async (request) => {
    const account = await signedInAccountFor(request, request.body.email, request.body.user_type);
    // Under the sign-in lock: a stolen session is no way round it (reauthenticate.ts).
    if (!(await reauthenticate(app, account, request.body.old_password))) throw new RuleViolation(signInMessages.oldPasswordWrong, 'old_password');
    await sendCode(account, 'password_change');
    return { success: true, message: authMessages.changeCodeSent, data: null };
  });

  app.post('/auth/change-password', { preHandler: requireSignedIn, config: { rateLimit: loginRateLimit }, schema: { tags: ['auth'], body: changePasswordBody, response: { 200: messageOnly } } }, async (request) => {
    const account = await signedInAccountFor(request, request.body.email, request.body.user_type);
    await consumeCode(app.db, pepper, account, 'password_change', request.body.code, app.clock());
    await recordPasswordChange(account, request, 'change', await hashPassword(request.body.password), request.account!.sessionId);
    return { success: true, message: authMessages.passwordChanged, data: null };
  });

  app.get('/auth/user', { preHandler: requireMember, schema: { tags: ['auth'], response: { 200: envelope(authUser) } } }, async (request) => {
    const member = await findMember(app.db, request.account!.id);
    if (!member) throw new NotFound('Member not found.');
    return { success: true, message: 'User', data: toAuthUser(member) };
  });

  app.get('/auth/admin', { preHandler: requireAdmin('read'), schema: { tags: ['auth'], response: { 200: envelope(authAdmin) } } }, async (request) => {
    const admin = await findAdmin(app.db, request.account!.id);
    if (!admin) throw new NotFound('Admin not found.');
    return { success: true, message: 'Admin', data: toAuthAdmin(admin) };
  });

  app.put('/auth/:id/change-user-password', { preHandler: requireAdmin('write'), schema: { tags: ['auth'], params: z.object({ id: z.uuid('Member not found.') }), body: adminChangeUserPasswordBody, response: { 200: messageOnly } } }, async (request) => {
    const member = await findMember(app.db, request.params.id);
    if (!member) throw new NotFound('Member not found.');
    await recordPasswordChange({ kind: 'member', id: member.id }, request, 'admin', await hashPassword(request.body.password));
    return { success: true, message: authMessages.userPasswordChanged, data: null };
  });

  app.put('/auth/toggle-admin-2fa', { preHandler: requireAdmin('read'), schema: { tags: ['auth'], body: toggleTwoFactorBody, response: { 200: messageOnly } } }, async (request) => {
    const adminId = request.account!.id;
    await runInTransaction(app.commands, async (trx) => {
      const { events } = await decideOnStream(trx, adminStream(adminId), adminDecider, { type: 'ChangeAdminTwoFactor', data: { admin_id: adminId, enabled: request.body.enable_2fa } }, requestMetadata(request, app.clock()));
      await projectAdmins(trx, events);
    });
    return { success: true, message: request.body.enable_2fa ? authMessages.twoFactorOn : authMessages.twoFactorOff, data: null };
  });

  /** The change-password flow names an e-mail; it must be the signed-in account's own. */
  async function signedInAccountFor(request: FastifyRequest, email: string, userType: 'user' | 'admin'): Promise<Account> {
    const signedIn = await authenticate(request);
    const account = await findAccountByEmail(app.db, userType, email);
    if (!account || account.kind !== signedIn.kind || account.id !== signedIn.id) throw new Forbidden(signInMessages.notYourEmail);
    return account;
  }
};
