import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeMailedTo, createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { demoLogins } from '../seed/demo-company';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

let call: ReturnType<typeof httpHelpers>['call'];
let newMember: ReturnType<typeof httpHelpers>['newMember'];
let registeredMember: ReturnType<typeof httpHelpers>['registeredMember'];
let adminToken: ReturnType<typeof httpHelpers>['adminToken'];
beforeAll(() => {
  ({ call, newMember, registeredMember, adminToken } = httpHelpers(t));
});

describe('registration → confirmation → sign-in (seed 000 §4)', () => {
  it('registers, mails a code, refuses sign-in until the e-mail is confirmed, then signs in to the welcome state', async () => {
    const member = newMember();
    const registered = await call('POST', '/api/auth/register', { body: member });
    expect(registered).toMatchObject({ status: 200, body: { success: true, message: 'Account created successfully and a confirmation code has been sent to your email' } });

    const early = await call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } });
    expect(early.status).toBe(200);
    expect(early.body.data).toMatchObject({ email_verified_at: null, username: member.username });
    expect(early.body.data.access_token).toBeUndefined();

    const code = await codeMailedTo(t.mail, member.email);
    const wrong = await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code: code === '000000' ? '111111' : '000000' } });
    expect(wrong).toMatchObject({ status: 422, body: { message: 'The code is invalid or has expired. Please check it or request a new one.' } });
    const confirmed = await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code } });
    expect(confirmed).toMatchObject({ status: 200, body: { message: 'Email confirmed successfully please login to continue' } });

    const login = await call('POST', '/api/auth/login', { body: { username: member.username.toUpperCase(), password: member.password } });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ payment: null, is_deactivated: true, is_admin: false, enable_2fa: false, package_id: 2 });
    expect(login.body.data.email_verified_at).not.toBeNull();
    const me = await call('GET', '/api/auth/user', { token: login.body.data.access_token });
    expect(me.body.data).toMatchObject({ uuid: registered.body.data.uuid, email: member.email });
    // No placement given: the company's default code (the root) is the placement and the sponsor.
    const root = await t.runtime.db.selectFrom('members').select('id').where('is_root', '=', true).executeTakeFirstOrThrow();
    const row = await t.runtime.db.selectFrom('members').select(['placement_parent_id', 'sponsor_id', 'placement_leg']).where('id', '=', registered.body.data.uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ placement_parent_id: root.id, sponsor_id: root.id, placement_leg: 'left' });
  });

  it('signs the root member in straight to the dashboard state (payment approved)', async () => {
    const login = await call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: demoLogins.root.password } });
    expect(login.body.data).toMatchObject({ payment: 'approved', is_deactivated: false });
    expect(login.body.data.access_token).toEqual(expect.any(String));
  });

  it('answers a wrong password and an unknown name with the same message', async () => {
    const wrongPassword = await call('POST', '/api/auth/login', { body: { username: demoLogins.root.username, password: 'nope-nope' } });
    const unknown = await call('POST', '/api/auth/login', { body: { username: 'nobody-here', password: 'nope-nope' } });
    expect(wrongPassword).toMatchObject({ status: 422, body: { message: 'These credentials do not match our records.' } });
    expect(unknown.body.message).toBe(wrongPassword.body.message);
  });
});

describe('registration rules (BUSINESS-RULES.md §1)', () => {
  it('answers missing fields with 422 and the first message, naming each field', async () => {
    const response = await call('POST', '/api/auth/register', { body: { username: 'x' } });
    expect(response.status).toBe(422);
    expect(response.body.success).toBe(false);
    expect(response.body.errors).toHaveProperty('first_name');
    expect(response.body.errors).toHaveProperty('email');
    expect(response.body.message).toBe(Object.values(response.body.errors!)[0]![0]);
  });

  it('refuses a username already taken, whatever its case (user names are public: sponsors are named by them)', async () => {
    const first = newMember();
    expect((await call('POST', '/api/auth/register', { body: first })).status).toBe(200);
    const sameName = await call('POST', '/api/auth/register', { body: newMember({ username: first.username.toUpperCase() }) });
    expect(sameName).toMatchObject({ status: 422, body: { message: 'The username has already been taken.', errors: { username: ['The username has already been taken.'] } } });
  });

  it('answers an e-mail already registered exactly like a new one, registers nothing and tells the owner by mail (docs/security-auth.md A6)', async () => {
    const owner = await registeredMember();
    const fresh = newMember();
    const attempt = newMember({ email: owner.email.toUpperCase() });
    const [forFresh, forTaken] = [await call('POST', '/api/auth/register', { body: fresh }), await call('POST', '/api/auth/register', { body: attempt })];

    // Same status, message and shape; the id is a fresh one that names no member.
    expect(forTaken.status).toBe(forFresh.status);
    expect(forTaken.body.message).toBe(forFresh.body.message);
    expect(Object.keys(forTaken.body.data).sort()).toEqual(Object.keys(forFresh.body.data).sort());
    expect(forTaken.body.data).toMatchObject({ email: attempt.email, username: attempt.username, uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const members = t.runtime.db.selectFrom('members').select('id');
    expect(await members.where('id', '=', forTaken.body.data.uuid).executeTakeFirst()).toBeUndefined();
    expect(await members.where('username', '=', attempt.username).executeTakeFirst()).toBeUndefined();
    expect(await t.runtime.db.selectFrom('events').select('event_id').where('stream_id', '=', `member-${forTaken.body.data.uuid}`).executeTakeFirst()).toBeUndefined();

    // The owner learns of it (no code in it); the one who tried, nothing more.
    const notice = await t.mail.waitFor((m) => m.to.some((to) => to.toLowerCase() === owner.email.toLowerCase()) && m.subject === 'You already have an account');
    expect(notice.text).toContain(`user name ${owner.username}`);
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    // Signing in with what was sent opens nothing.
    expect((await call('POST', '/api/auth/login', { body: { username: attempt.username, password: attempt.password } })).status).toBe(422);
  });

  it('counts the owner notices with code mails: registrations cannot flood a registered mailbox', async () => {
    const owner = await registeredMember();
    const before = t.mail.messages().filter((m) => m.to.includes(owner.email)).length;
    for (let i = 0; i < 7; i += 1) expect((await call('POST', '/api/auth/register', { body: newMember({ email: owner.email }) })).status).toBe(200);
    await t.mailDelivery.settled();
    const sent = await t.runtime.db.selectFrom('mail_outbox').select('category').where('recipient', '=', owner.email).where('category', 'in', ['code', 'registration-attempt']).execute();
    // The owner's own confirmation code counts too: at most five in the hour, whoever asks.
    expect(sent.length).toBe(5);
    expect(t.mail.messages().filter((m) => m.to.includes(owner.email)).length - before).toBe(sent.filter((m) => m.category === 'registration-attempt').length);
  });

  it('refuses an unknown package, placement or sponsor', async () => {
    expect((await call('POST', '/api/auth/register', { body: newMember({ package_id: 99 }) })).body.message).toBe('The selected package is invalid.');
    expect((await call('POST', '/api/auth/register', { body: newMember({ referrer: 'ghost' }) })).body.message).toBe('The placement (referrer) does not exist.');
    expect((await call('POST', '/api/auth/register', { body: newMember({ referrer: demoLogins.root.username, placer: 'ghost' }) })).body.message).toBe('The sponsor does not exist.');
  });

  it('places left then right under a placement, and spills a third below it (docs/placement.md)', async () => {
    const parent = await registeredMember({}, { asParent: true });
    const left = await registeredMember({ referrer: parent.username });
    const right = await registeredMember({ referrer: parent.username });
    const third = await call('POST', '/api/auth/register', { body: newMember({ referrer: parent.username, placer: parent.username }) });
    expect(third.status, third.body.message).toBe(200);
    const rows = await t.runtime.db.selectFrom('members').select(['id', 'placement_leg', 'sponsor_id']).where('placement_parent_id', '=', parent.id).orderBy('created_at').execute();
    expect(rows.map((r) => [r.id, r.placement_leg, r.sponsor_id])).toEqual([
      [left.id, 'left', parent.id],
      [right.id, 'right', parent.id],
    ]);
    // The company default (first free place, level by level): under the left child, on its left leg; the sponsor stays the parent.
    const spilled = await t.runtime.db.selectFrom('members').select(['placement_parent_id', 'placement_leg', 'sponsor_id']).where('id', '=', third.body.data.uuid).executeTakeFirstOrThrow();
    expect(spilled).toEqual({ placement_parent_id: left.id, placement_leg: 'left', sponsor_id: parent.id });
  });

  it('accepts a placement inside the sponsor downline and refuses one outside it', async () => {
    const sponsor = await registeredMember({}, { asParent: true });
    const child = await registeredMember({ referrer: sponsor.username }, { asParent: true });
    const outsider = await registeredMember();
    const inside = await call('POST', '/api/auth/register', { body: newMember({ referrer: child.username, placer: sponsor.username }) });
    expect(inside.status).toBe(200);
    const row = await t.runtime.db.selectFrom('members').select(['sponsor_id', 'placement_parent_id']).where('id', '=', inside.body.data.uuid).executeTakeFirstOrThrow();
    expect(row).toEqual({ sponsor_id: sponsor.id, placement_parent_id: child.id });
    const outside = await call('POST', '/api/auth/register', { body: newMember({ referrer: outsider.username, placer: sponsor.username }) });
    expect(outside.status).toBe(422);
    expect(outside.body.message).toBe(`The placement must be ${sponsor.username} or a member of ${sponsor.username}'s downline.`);
  });

  it('places five simultaneous registrations under one placement in five different slots of its team', async () => {
    const parent = await registeredMember({}, { asParent: true });
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/api/auth/register', { body: newMember({ referrer: parent.username }) })));
    for (const result of results) expect(result.status, result.body.message).toBe(200);
    const direct = await t.runtime.db.selectFrom('members').select('placement_leg').where('placement_parent_id', '=', parent.id).execute();
    expect(direct.map((l) => l.placement_leg).sort()).toEqual(['left', 'right']);
    const placed = await t.runtime.db.selectFrom('members').select(['placement_parent_id', 'placement_leg']).where('id', 'in', results.map((r) => r.body.data.uuid as string)).execute();
    expect(new Set(placed.map((p) => `${p.placement_parent_id}:${p.placement_leg}`)).size).toBe(5);
  });

  it('records one member for a repeated request with the same Idempotency-Key', async () => {
    // A fixed placement: the helper's "oldest member with a free leg" may change between the two sends.
    const member = newMember({ referrer: demoLogins.root.username });
    const headers = { 'idempotency-key': `register-${member.username}` };
    const first = await call('POST', '/api/auth/register', { body: member, headers });
    const again = await call('POST', '/api/auth/register', { body: member, headers });
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    const count = await t.runtime.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('username', '=', member.username).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});

describe('one-time codes', () => {
  it('allows five wrong tries, then refuses even the right code until a new one is sent', async () => {
    const member = newMember();
    await call('POST', '/api/auth/register', { body: member });
    const code = await codeMailedTo(t.mail, member.email);
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code: wrong } });
    const locked = await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code } });
    // The anonymous flows answer every refused code alike (an unknown address must not answer otherwise).
    expect(locked).toMatchObject({ status: 422, body: { message: 'The code is invalid or has expired. Please check it or request a new one.' } });
    t.mail.clear();
    expect((await call('POST', '/api/auth/resend-email-confirmation', { body: { email: member.email } })).body.message).toBe('Email confirmation code resent successfully');
    const fresh = await codeMailedTo(t.mail, member.email);
    expect((await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code: fresh } })).status).toBe(200);
  });

  it('expires a code after 15 minutes', async () => {
    const member = newMember();
    await call('POST', '/api/auth/register', { body: member });
    const code = await codeMailedTo(t.mail, member.email);
    t.clock.advanceMinutes(16);
    const late = await call('POST', '/api/auth/email-confirmation', { body: { email: member.email, code } });
    expect(late).toMatchObject({ status: 422, body: { message: 'The code is invalid or has expired. Please check it or request a new one.' } });
  });

  it('answers a reset request for an unknown address exactly like a known one, and mails nothing', async () => {
    t.mail.clear();
    const unknown = await call('POST', '/api/auth/reset-password-link', { body: { email: 'nobody@example.test', user_type: 'user' } });
    expect(unknown).toMatchObject({ status: 200, body: { message: 'Reset password code has been sent to your email address' } });
    await t.mailDelivery.settled();
    expect(t.mail.messages()).toHaveLength(0);
  });
});

describe('sessions', () => {
  it('ends a session after 15 minutes without a request, and keeps it alive with requests', async () => {
    const member = await registeredMember();
    t.clock.advanceMinutes(14);
    expect((await call('GET', '/api/auth/user', { token: member.token })).status).toBe(200);
    t.clock.advanceMinutes(14);
    expect((await call('GET', '/api/auth/user', { token: member.token })).status).toBe(200);
    t.clock.advanceMinutes(16);
    expect(await call('GET', '/api/auth/user', { token: member.token })).toMatchObject({ status: 401, body: { message: 'Your session has ended. Please sign in again.' } });
  });

  it('ends the session on logout', async () => {
    const member = await registeredMember();
    expect((await call('POST', '/api/auth/logout', { token: member.token })).body.message).toBe('Logged out successfully');
    expect((await call('GET', '/api/auth/user', { token: member.token })).status).toBe(401);
  });

  it('resets a forgotten password with the mailed code and ends every session', async () => {
    const member = await registeredMember();
    t.mail.clear();
    await call('POST', '/api/auth/reset-password-link', { body: { email: member.email, user_type: 'user' } });
    const code = await codeMailedTo(t.mail, member.email, /Reset/);
    const reset = await call('POST', '/api/auth/reset-password', { body: { email: member.email, code, password: 'a brand new secret', user_type: 'user' } });
    expect(reset.body.message).toBe('Password has been reset successfully please login to continue');
    expect((await call('GET', '/api/auth/user', { token: member.token })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } })).status).toBe(422);
    expect((await call('POST', '/api/auth/login', { body: { username: member.username, password: 'a brand new secret' } })).status).toBe(200);
  });

  it('changes a password in two steps (old password + mailed code), keeping only the current session', async () => {
    const member = await registeredMember();
    const otherSession = (await call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } })).body.data.access_token;
    const wrongOld = await call('POST', '/api/auth/change-password-link', { token: member.token, body: { email: member.email, old_password: 'not it', user_type: 'user' } });
    expect(wrongOld).toMatchObject({ status: 422, body: { message: 'The old password is incorrect.' } });
    t.mail.clear();
    const link = await call('POST', '/api/auth/change-password-link', { token: member.token, body: { email: member.email, old_password: member.password, user_type: 'user' } });
    expect(link.body.message).toBe('Change password code has been sent to your email address');
    const code = await codeMailedTo(t.mail, member.email, /password change/);
    const changed = await call('POST', '/api/auth/change-password', { token: member.token, body: { email: member.email, code, password: 'changed secret 123', user_type: 'user' } });
    expect(changed.body.message).toBe('Password has been changed successfully');
    expect((await call('GET', '/api/auth/user', { token: member.token })).status).toBe(200);
    expect((await call('GET', '/api/auth/user', { token: otherSession })).status).toBe(401);
  });

  it('refuses a change-password code request for someone else’s e-mail', async () => {
    const a = await registeredMember();
    const b = await registeredMember();
    const response = await call('POST', '/api/auth/change-password-link', { token: a.token, body: { email: b.email, old_password: b.password, user_type: 'user' } });
    expect(response.status).toBe(403);
  });
});

describe('two-factor sign-in', () => {
  it('asks for a mailed code after the password, and only then issues a token', async () => {
    const member = await registeredMember();
    expect((await call('PUT', `/api/users/${member.id}/toggle-2fa`, { token: member.token, body: { enable_2fa: true } })).body.message).toBe('Two-factor sign-in is on: a code is mailed at each sign-in.');
    t.mail.clear();
    // Knowing the address is not enough: no password step yet, so no code is sent.
    await call('POST', '/api/auth/send-2fa-verification-email', { body: { email: member.email, user_type: 'user' } });
    await t.mailDelivery.settled();
    expect(t.mail.messages()).toHaveLength(0);

    const login = await call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } });
    expect(login.body.data).toMatchObject({ enable_2fa: true });
    expect(login.body.data.access_token).toBeUndefined();
    await call('POST', '/api/auth/send-2fa-verification-email', { body: { email: member.email, user_type: 'user' } });
    const code = await codeMailedTo(t.mail, member.email, /sign-in code/);
    const verified = await call('POST', '/api/auth/authenticate-2fa', { body: { email: member.email, code, user_type: 'user' } });
    expect(verified.status).toBe(200);
    expect((await call('GET', '/api/auth/user', { token: verified.body.data.access_token })).status).toBe(200);
  });

  it('does the same for an admin, with the admin user type', async () => {
    const token = await adminToken();
    await call('PUT', '/api/auth/toggle-admin-2fa', { token, body: { enable_2fa: true } });
    const login = await call('POST', '/api/auth/admin-login', { body: { email: demoLogins.admin.email, password: demoLogins.admin.password } });
    expect(login.body.data.access_token).toBeUndefined();
    t.mail.clear();
    await call('POST', '/api/auth/send-2fa-verification-email', { body: { email: demoLogins.admin.email, user_type: 'admin' } });
    const code = await codeMailedTo(t.mail, demoLogins.admin.email);
    const verified = await call('POST', '/api/auth/authenticate-2fa', { body: { email: demoLogins.admin.email, code, user_type: 'admin' } });
    expect(verified.body.data).toMatchObject({ is_admin: true, role: 'admin' });
    const adminNow = verified.body.data.access_token as string;
    await call('PUT', '/api/auth/toggle-admin-2fa', { token: adminNow, body: { enable_2fa: false } });
    expect((await call('GET', '/api/auth/admin', { token: adminNow })).body.data.enable_2fa).toBe(false);
  });
});

describe('who may do what', () => {
  it('lets a member change only their own account; 403 for anyone else’s', async () => {
    const a = await registeredMember();
    const b = await registeredMember();
    expect((await call('PUT', `/api/users/${b.id}/toggle-2fa`, { token: a.token, body: { enable_2fa: true } })).status).toBe(403);
    expect((await call('PUT', `/api/users/${a.id}/toggle-2fa`, { token: a.token, body: { enable_2fa: false } })).status).toBe(200);
  });

  it('keeps members out of admin calls and admins out of member-only calls', async () => {
    const member = await registeredMember();
    expect((await call('GET', '/api/auth/admin', { token: member.token })).status).toBe(403);
    expect((await call('GET', '/api/auth/user', { token: await adminToken() })).status).toBe(403);
    expect((await call('GET', '/api/auth/user')).status).toBe(401);
  });

  it('lets an admin reset a member’s password (ending their sessions) but not finance staff', async () => {
    const member = await registeredMember();
    const finance = await call('PUT', `/api/auth/${member.id}/change-user-password`, { token: await adminToken('finance'), body: { password: 'set by finance' } });
    expect(finance.status).toBe(403);
    const admin = await call('PUT', `/api/auth/${member.id}/change-user-password`, { token: await adminToken(), body: { password: 'set by the admin' } });
    expect(admin.body.message).toBe('user password has been changed successfully');
    expect((await call('GET', '/api/auth/user', { token: member.token })).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { body: { username: member.username, password: 'set by the admin' } })).status).toBe(200);
  });

  it('records each account change as an event naming the actor', async () => {
    const member = await registeredMember();
    const events = await t.runtime.db.selectFrom('events').select(['type', 'metadata']).where('stream_id', '=', `member-${member.id}`).orderBy('stream_position').execute();
    expect(events.map((e) => e.type)).toEqual(['MemberRegistered', 'MemberEmailConfirmed']);
    expect(events[1]!.metadata).toMatchObject({ actor: { type: 'member', id: member.id } });
  });
});

describe('rate limits and errors', () => {
  it('slows down repeated sign-in attempts for one name with 429 (the name is locked after five failures)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('POST', '/api/auth/login', { body: { username: 'brute-force-target', password: `guess-${i}` } })).status);
    expect(statuses.slice(0, 5).every((s) => s === 422)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it('answers bad JSON and unknown paths with a readable message, never a stack trace', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: 'The request body is not valid JSON.' });
    const missing = await call('GET', '/api/nothing-here');
    expect(missing).toMatchObject({ status: 404, body: { success: false } });
  });
});

describe('operations', () => {
  it('serves health, readiness, metrics and the OpenAPI description', async () => {
    expect((await call('GET', '/api/health')).status).toBe(200);
    const ready = await call('GET', '/api/ready');
    expect(ready.body.data).toMatchObject({ database: 'ok', redis: 'ok' });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('http_request_duration_seconds');
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(docs.json().paths)).toContain('/api/auth/login');
  });
});
