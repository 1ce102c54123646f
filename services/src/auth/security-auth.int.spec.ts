import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeMailedTo, createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { deliverDueMails, enqueueMail, retryDelayMs } from '../notifications/outbox';
import { demoLogins } from '../seed/demo-company';
import { codeMessages } from './codes';

/**
 * Issue 9, items 1–3 (docs/security-auth.md): limits no header can dodge, per-account and global
 * sign-in throttles, code mails capped per address, answers that never tell whether an account
 * exists, and mail through the outbox.
 */

const base64url = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
function forgeToken(alg: 'HS512' | 'none', secret: string, sid: string): string {
  const head = `${base64url({ alg, typ: 'JWT' })}.${base64url({ sid, iat: Math.floor(Date.now() / 1000) })}`;
  if (alg === 'none') return `${head}.`;
  return `${head}.${createHmac('sha512', secret).update(head).digest('base64url')}`;
}

let addressCounter = 0;
/** A fresh client address, as a trusted proxy would forward it. */
const nextAddress = () => `198.51.${100 + (Math.floor(++addressCounter / 250) % 50)}.${(addressCounter % 250) + 1}`;

describe('default configuration (no proxy trusted)', () => {
  let t: TestApp;
  let http: ReturnType<typeof httpHelpers>;
  beforeAll(async () => {
    t = await createTestApp();
    http = httpHelpers(t);
  });
  afterAll(async () => t.close());

  it('ignores a forged X-Forwarded-For: the caller cannot pick its address', async () => {
    const login = await http.call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: demoLogins.root.password }, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(login.status).toBe(200);
    const session = await t.runtime.db.selectFrom('sessions').select('ip').where('id', '=', sidOf(login.body.data.access_token)).executeTakeFirstOrThrow();
    expect(session.ip).toBe('127.0.0.1');
  });

  it('keeps counting a per-address limit however the X-Forwarded-For header rotates', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await http.call('POST', '/api/auth/reset-password-link', { body: { email: 'rotating@example.test', user_type: 'user' }, headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('refuses a token signed with another algorithm, even with the right secret, and an unsigned one', async () => {
    const login = await http.call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: demoLogins.root.password } });
    const sid = sidOf(login.body.data.access_token);
    expect((await http.call('GET', '/api/auth/user', { token: login.body.data.access_token })).status).toBe(200);
    for (const forged of [forgeToken('HS512', t.runtime.config.JWT_SECRET, sid), forgeToken('none', '', sid)]) {
      expect(await http.call('GET', '/api/auth/user', { token: forged })).toMatchObject({ status: 401, body: { message: 'Your session has ended. Please sign in again.' } });
    }
  });

  it('checks the code on a confirmed account too: any code no longer answers "confirmed"', async () => {
    const member = await http.registeredMember();
    const answer = await http.call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code: '123456' } });
    expect(answer).toMatchObject({ status: 422, body: { success: false, message: codeMessages.rejected } });
  });

  it('answers a code for an unknown address, a confirmed account and a wrong code alike, before and after five tries', async () => {
    const confirmed = await http.registeredMember();
    const pending = http.newMember();
    expect((await http.call('POST', '/api/auth/register', { body: pending })).status).toBe(200);
    const code = await codeMailedTo(t.mail, pending.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = (email: string) => http.call('POST', '/api/auth/email-confirmation', { body: { email, code: wrong } });
    for (let i = 0; i < 7; i++) {
      const [unknown, known, waiting] = await Promise.all([answers(`nobody${i}@example.test`), answers(confirmed.email), answers(pending.email)]);
      expect(known).toEqual({ ...unknown, headers: known.headers });
      expect(waiting).toEqual({ ...unknown, headers: waiting.headers });
      expect(unknown).toMatchObject({ status: 422, body: { message: codeMessages.rejected } });
    }
    const reset = (email: string) => http.call('POST', '/api/auth/reset-password', { body: { email, code: wrong, password: 'a new long password', user_type: 'user' } });
    const [unknownReset, knownReset] = await Promise.all([reset('nobody-else@example.test'), reset(confirmed.email)]);
    expect(knownReset).toEqual({ ...unknownReset, headers: knownReset.headers });
  });

  it('answers a reset request before any mail is sent: the mail waits in the outbox while delivery is down', async () => {
    const member = await http.registeredMember();
    await t.mailDelivery.stop();
    try {
      t.mail.clear();
      const answer = await http.call('POST', '/api/auth/reset-password-link', { body: { email: member.email, user_type: 'user' } });
      expect(answer).toMatchObject({ status: 200, body: { message: 'Reset password code has been sent to your email address' } });
      expect(t.mail.messages()).toHaveLength(0);
    } finally {
      await t.mailDelivery.start();
    }
    const code = await codeMailedTo(t.mail, member.email, /Reset/);
    const reset = await http.call('POST', '/api/auth/reset-password', { body: { email: member.email, code, password: 'after the outage', user_type: 'user' } });
    expect(reset.status).toBe(200);
  });

  it('keeps a mail the server refused, retries it with back-off and sends it exactly once', async () => {
    const now = () => t.clock.now;
    await t.mailDelivery.stop();
    try {
      const id = await enqueueMail(t.runtime.db, { to: 'outbox@example.test', subject: 'Withdrawal paid', text: 'Paid.', key: 'test-withdrawal-paid-1' }, now());
      expect(await enqueueMail(t.runtime.db, { to: 'outbox@example.test', subject: 'Withdrawal paid', text: 'Paid.', key: 'test-withdrawal-paid-1' }, now())).toBeNull();
      const delivered: string[] = [];
      let serverUp = false;
      const transport = {
        async send(mail: { subject: string }) {
          if (!serverUp) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
          delivered.push(mail.subject);
        },
      };
      expect(await deliverDueMails(t.runtime.db, transport, now)).toEqual({ sent: 0, failed: 1 });
      const row = await t.runtime.db.selectFrom('mail_outbox').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 1, sent_at: null, gave_up_at: null, last_error: 'connect ECONNREFUSED 127.0.0.1:25' });
      expect(row.next_attempt_at.getTime() - now().getTime()).toBe(retryDelayMs(1));
      // Not due yet: nothing is tried.
      expect(await deliverDueMails(t.runtime.db, transport, now)).toEqual({ sent: 0, failed: 0 });
      serverUp = true;
      t.clock.advanceMinutes(1);
      expect(await deliverDueMails(t.runtime.db, transport, now)).toEqual({ sent: 1, failed: 0 });
      expect(await deliverDueMails(t.runtime.db, transport, now)).toEqual({ sent: 0, failed: 0 });
      expect(delivered).toEqual(['Withdrawal paid']);
    } finally {
      await t.mailDelivery.start();
    }
  });

  it('erases a code from the outbox once it is sent', async () => {
    const member = await http.registeredMember();
    const rows = await t.runtime.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', member.email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ category: 'code', subject: '(erased after sending)', body_text: null, body_html: null });
    expect(rows[0]!.sent_at).not.toBeNull();
  });
});

describe('behind one trusted proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  let http: ReturnType<typeof httpHelpers>;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    http = httpHelpers(t);
  });
  afterAll(async () => t.close());

  const login = (username: string, password: string, address = nextAddress()) => http.call('POST', '/api/auth/login', { body: { username, password }, headers: { 'x-forwarded-for': address } });

  it('takes the address the proxy saw, not one the caller prepended', async () => {
    const answer = await login(demoLogins.root.username, demoLogins.root.password, '203.0.113.7, 192.0.2.44');
    const session = await t.runtime.db.selectFrom('sessions').select('ip').where('id', '=', sidOf(answer.body.data.access_token)).executeTakeFirstOrThrow();
    expect(session.ip).toBe('192.0.2.44');
  });

  it('compares at most five guesses of one code, even when twenty arrive at once', async () => {
    const member = http.newMember();
    expect((await http.call('POST', '/api/auth/register', { body: member })).status).toBe(200);
    const code = await codeMailedTo(t.mail, member.email);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(guesses.map((guess) => http.call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code: guess }, headers: { 'x-forwarded-for': nextAddress() } })));
    expect(answers.every((a) => a.status === 422 && a.body.message === codeMessages.rejected)).toBe(true);
    const row = await t.runtime.db.selectFrom('one_time_codes').innerJoin('members', 'members.id', 'one_time_codes.account_id').select('one_time_codes.attempts').where('members.email', '=', member.email).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect((await http.call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code }, headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(422);
  });

  it('locks an account after five wrong passwords from forty addresses, refuses even the right one meanwhile, and mails the owner once', async () => {
    const member = await http.registeredMember();
    t.mail.clear();
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await login(member.username, `wrong guess ${i}`));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([422, 422, 422, 422, 422]);
    expect(answers.slice(5).every((a) => a.status === 429 && a.body.message === 'Too many failed sign-ins. Please try again in 1 minute(s), or reset your password.')).toBe(true);
    expect((await login(member.username, member.password)).status).toBe(429);

    const warning = await t.mail.waitFor((m) => m.to.includes(member.email) && m.subject === 'Failed sign-in attempts on your account');
    expect(warning.text).toContain('5 times');
    await t.mailDelivery.settled();
    expect(t.mail.messages().filter((m) => m.to.includes(member.email))).toHaveLength(1);

    t.clock.advanceMinutes(2);
    expect((await login(member.username, member.password)).status).toBe(200);
    // A success clears the count: five more tries before the next lock.
    for (let i = 0; i < 4; i++) expect((await login(member.username, `again ${i}`)).status).toBe(422);
  }, 120_000);

  it('backs off longer after each further failure', async () => {
    const member = await http.registeredMember();
    for (let i = 0; i < 5; i++) await login(member.username, `wrong ${i}`);
    t.clock.advanceMinutes(2);
    expect((await login(member.username, 'wrong 6')).status).toBe(422);
    expect((await login(member.username, member.password)).body.message).toBe('Too many failed sign-ins. Please try again in 2 minute(s), or reset your password.');
  }, 120_000);

  it('counts concurrent guesses one by one: twenty at once get exactly five password checks', async () => {
    const member = await http.registeredMember();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(member.email, `parallel guess ${i}`)));
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
  }, 120_000);

  it('locks a name that matches no account exactly like a real one', async () => {
    const member = await http.registeredMember();
    const real = [];
    const ghost = [];
    for (let i = 0; i < 7; i++) {
      real.push(await login(member.username, `nope ${i}`));
      ghost.push(await login(`ghost${member.username}`, `nope ${i}`));
    }
    expect(ghost.map((a) => [a.status, a.body.message])).toEqual(real.map((a) => [a.status, a.body.message]));
  }, 120_000);

  it('locks admin and finance sign-ins the same way', async () => {
    for (const who of ['admin', 'finance'] as const) {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await http.call('POST', '/api/auth/admin-login', { body: { email: demoLogins[who].email, password: `wrong ${i}` }, headers: { 'x-forwarded-for': nextAddress() } })).status);
      expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
      expect((await http.call('POST', '/api/auth/admin-login', { body: demoLogins[who], headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(429);
    }
    t.clock.advanceMinutes(2);
    expect((await http.call('POST', '/api/auth/admin-login', { body: demoLogins.admin, headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(200);
  }, 120_000);

  it('counts a wrong old password in a password change towards the sign-in lock, and refuses it while locked (members)', async () => {
    const member = await http.registeredMember();
    const changeLink = (oldPassword: string) =>
      http.call('POST', '/api/auth/change-password-link', { token: member.token, body: { email: member.email, old_password: oldPassword, user_type: 'user' }, headers: { 'x-forwarded-for': nextAddress() } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await changeLink(`stolen session guess ${i}`)).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422]);
    // Locked: the right old password is not even checked, and sign-in is locked too.
    expect((await changeLink(member.password)).body.message).toBe('Too many failed sign-ins. Please try again in 1 minute(s), or reset your password.');
    expect((await login(member.username, member.password)).status).toBe(429);
    await t.mail.waitFor((m) => m.to.includes(member.email) && m.subject === 'Failed sign-in attempts on your account');

    // And the other way round: a lock set by sign-in guesses refuses the password change.
    t.clock.advanceMinutes(2);
    expect((await login(member.username, member.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) await login(member.username, `wrong ${i}`);
    expect((await changeLink(member.password)).status).toBe(429);
  }, 120_000);

  it('counts a wrong old password of finance and admin staff towards their sign-in lock', async () => {
    t.clock.advanceMinutes(120); // any earlier lock of these demo accounts has ended
    for (const who of ['finance', 'admin'] as const) {
      const signedIn = await http.call('POST', '/api/auth/admin-login', { body: demoLogins[who], headers: { 'x-forwarded-for': nextAddress() } });
      expect(signedIn.status).toBe(200);
      const token = signedIn.body.data.access_token as string;
      const changeLink = (oldPassword: string) =>
        http.call('POST', '/api/auth/change-password-link', { token, body: { email: demoLogins[who].email, old_password: oldPassword, user_type: 'admin' }, headers: { 'x-forwarded-for': nextAddress() } });
      for (let i = 0; i < 5; i++) expect((await changeLink(`guess ${i}`)).status).toBe(422);
      expect((await changeLink(demoLogins[who].password)).status).toBe(429);
      expect((await http.call('POST', '/api/auth/admin-login', { body: demoLogins[who], headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(429);
    }
    t.clock.advanceMinutes(2);
    for (const who of ['finance', 'admin'] as const) expect((await http.call('POST', '/api/auth/admin-login', { body: demoLogins[who], headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(200);
  }, 120_000);

  it('counts a wrong password when revealing an order code towards the sign-in lock', async () => {
    const member = await http.registeredMember();
    const reveal = (password: string) =>
      http.call('POST', '/api/product-purchases/order-code', { token: member.token, body: { password, order_id: '00000000-0000-4000-8000-000000000000' }, headers: { 'x-forwarded-for': nextAddress() } });
    for (let i = 0; i < 5; i++) expect((await reveal(`guess ${i}`)).body.message).toBe('The password is incorrect.');
    expect((await reveal(member.password)).status).toBe(429);
    expect((await login(member.username, member.password)).status).toBe(429);
  }, 120_000);

  it('a password reset ends a lock set by someone else’s guesses', async () => {
    const member = await http.registeredMember();
    for (let i = 0; i < 5; i++) await login(member.username, `wrong ${i}`);
    expect((await login(member.username, member.password)).status).toBe(429);
    t.mail.clear();
    await http.call('POST', '/api/auth/reset-password-link', { body: { email: member.email, user_type: 'user' }, headers: { 'x-forwarded-for': nextAddress() } });
    const code = await codeMailedTo(t.mail, member.email, /Reset/);
    expect((await http.call('POST', '/api/auth/reset-password', { body: { email: member.email, code, password: 'my fresh password', user_type: 'user' } })).status).toBe(200);
    expect((await login(member.username, 'my fresh password')).status).toBe(200);
  }, 120_000);

  it('sends at most five code mails an hour to one address, however many addresses ask', async () => {
    const member = await http.registeredMember();
    t.mail.clear();
    t.clock.advanceMinutes(61);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await http.call('POST', '/api/auth/reset-password-link', { body: { email: member.email, user_type: 'user' }, headers: { 'x-forwarded-for': nextAddress() } }));
    expect(answers.every((a) => a.status === 200 && a.body.message === 'Reset password code has been sent to your email address')).toBe(true);
    await t.mailDelivery.settled();
    expect(t.mail.messages().filter((m) => m.to.includes(member.email))).toHaveLength(5);
    // An hour later the address may receive codes again.
    t.clock.advanceMinutes(61);
    await http.call('POST', '/api/auth/reset-password-link', { body: { email: member.email, user_type: 'user' }, headers: { 'x-forwarded-for': nextAddress() } });
    await t.mailDelivery.settled();
    expect(t.mail.messages().filter((m) => m.to.includes(member.email))).toHaveLength(6);
  });

  it('takes the same time to answer a reset or resend request for a real account and for none', async () => {
    const real = await http.registeredMember();
    const pending = http.newMember();
    expect((await http.call('POST', '/api/auth/register', { body: pending })).status).toBe(200);
    const timed = async (url: string, email: string) => {
      const started = performance.now();
      const answer = await http.call('POST', url, { body: { email, user_type: 'user' }, headers: { 'x-forwarded-for': nextAddress() } });
      return { ms: performance.now() - started, answer: { status: answer.status, body: answer.body } };
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (const [url, email] of [['/api/auth/reset-password-link', real.email], ['/api/auth/resend-email-confirmation', pending.email]] as const) {
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 21; i++) {
        const a = await timed(url, email);
        const b = await timed(url, `nobody-${i}-${email}`);
        expect(a.answer).toEqual(b.answer);
        known.push(a.ms);
        unknown.push(b.ms);
      }
      // Before the outbox the real account's answer waited ~100 ms for the mail server; both now
      // make one Redis write, so only scheduling noise separates them.
      expect(Math.abs(median(known) - median(unknown))).toBeLessThan(25);
    }
  });
});

describe('password spraying (a low global cap for the test)', () => {
  let t: TestApp;
  let http: ReturnType<typeof httpHelpers>;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1', SIGN_IN_GLOBAL_FAILURES_PER_15_MIN: '8' } });
    http = httpHelpers(t);
  });
  afterAll(async () => t.close());

  it('pauses password sign-in for every account once failures across accounts pass the cap, then resumes', async () => {
    for (let i = 0; i < 8; i++) {
      const answer = await http.call('POST', '/api/auth/login', { body: { username: `sprayed${i}`, password: 'Summer2026!' }, headers: { 'x-forwarded-for': nextAddress() } });
      expect(answer.status).toBe(422);
    }
    const paused = await http.call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: demoLogins.root.password }, headers: { 'x-forwarded-for': nextAddress() } });
    expect(paused).toMatchObject({ status: 429, body: { message: 'Sign-in is paused for 15 minute(s) because of unusual activity. Please try again later.' } });
    expect((await http.call('POST', '/api/auth/admin-login', { body: demoLogins.admin, headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(429);
    t.clock.advanceMinutes(16);
    expect((await http.call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: demoLogins.root.password }, headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(200);
  }, 120_000);
});
