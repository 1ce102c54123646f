import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeMailedTo, createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { creditWallet } from '../../test/wallet';
import { walletStream } from '../wallet/events';
import { profileStream } from '../profile/events';
import { SESSION_ENDED } from './guards';

/**
 * The withdrawal request and the profile update read their stream in the session check's
 * statement (guards.ts `readAhead`). The session is judged exactly as on every other route, first:
 * an ended, idle or missing session gets the same 401 and message, the wrong caller the same 403,
 * whatever the body, and a refused request records nothing. Each member here can withdraw (active,
 * verified bank details, a funded wallet), so a refusal is the guard's and nothing else's.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
});
afterAll(async () => t.close());

type Member = Awaited<ReturnType<typeof h.registeredMember>>;

async function funded(): Promise<Member> {
  const member = await h.registeredMember();
  await h.payByReceipt(member);
  const saved = await h.call('PUT', `/api/users/${member.id}/update-bank-details`, { token: member.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(saved.status, saved.body.message).toBe(200);
  await creditWallet(t.runtime.db, member.id, 50_000_00);
  return member;
}

const withdraw = (id: string, token: string | undefined, body: unknown = { amount: 2_000 }, headers?: Record<string, string>) =>
  h.call('POST', `/api/withdrawals/${id}/initiate`, { token, body, headers });
const updateNames = (id: string, token: string | undefined, body: unknown = { first_name: 'Ada', last_name: 'Lovelace', phone: '08031234567' }) =>
  h.call('PUT', `/api/users/${id}/update`, { token, body });

async function streamTypes(streamId: string): Promise<string[]> {
  return (await t.runtime.db.selectFrom('events').select('type').where('stream_id', '=', streamId).orderBy('stream_position').execute()).map((e) => e.type);
}
/** What a refused request must leave as it was: the wallet's and the profile's events. */
async function recorded(member: Member) {
  return { wallet: await streamTypes(walletStream(member.id)), profile: await streamTypes(profileStream(member.id)) };
}

/** Runs `work`, counting the statements pg sends meanwhile. */
async function statementsOf(work: () => Promise<unknown>): Promise<number> {
  let statements = 0;
  const original = pg.Client.prototype.query;
  (pg.Client.prototype as unknown as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return statements;
}

const ended = { status: 401, body: { success: false, message: SESSION_ENDED } };

describe('a command whose read rides in the session check', () => {
  it('records a withdrawal and a profile update in two statements each: the session with the read, then the write', async () => {
    const member = await funded();
    // The first request of a session more than 5 s old also records the activity; advance past it once.
    t.clock.advanceMinutes(1);
    await h.call('GET', '/api/auth/user', { token: member.token });
    // The count is of every pg client in this process; the mail worker's sweep (every second) would be counted too.
    await t.mailDelivery.stop();
    expect(await statementsOf(async () => expect((await withdraw(member.id, member.token)).status).toBe(200))).toBe(2);
    expect(await statementsOf(async () => expect((await updateNames(member.id, member.token)).status).toBe(200))).toBe(2);
    await t.mailDelivery.start();
    expect((await recorded(member)).wallet.at(-1)).toBe('WithdrawalRequested');
  });

  it('refuses a signed-out session with the same 401, whatever the body, and records nothing', async () => {
    const member = await funded();
    const before = await recorded(member);
    expect((await h.call('POST', '/api/auth/logout', { token: member.token })).status).toBe(200);
    for (const answer of [
      await withdraw(member.id, member.token),
      await withdraw(member.id, member.token, { amount: 'not a number' }),
      await withdraw('not-a-uuid', member.token),
      await withdraw(member.id, member.token, { amount: 2_000 }, { 'Idempotency-Key': 'after-logout' }),
      await updateNames(member.id, member.token),
      await updateNames(member.id, member.token, { first_name: '' }),
      // A route without the read ahead answers the same.
      await h.call('GET', '/api/auth/user', { token: member.token }),
    ]) {
      expect(answer).toMatchObject(ended);
    }
    expect(await recorded(member)).toEqual(before);
  });

  it('never replays a stored answer to a session that has ended since (Idempotency-Key)', async () => {
    const member = await funded();
    const first = await withdraw(member.id, member.token, { amount: 2_000 }, { 'Idempotency-Key': 'once' });
    expect(first.status).toBe(200);
    const again = await withdraw(member.id, member.token, { amount: 2_000 }, { 'Idempotency-Key': 'once' });
    expect(again).toMatchObject({ status: 200, body: { data: { id: first.body.data.id } } });
    await h.call('POST', '/api/auth/logout', { token: member.token });
    expect(await withdraw(member.id, member.token, { amount: 2_000 }, { 'Idempotency-Key': 'once' })).toMatchObject(ended);
    expect(await withdraw(member.id, member.token, { amount: 3_000 }, { 'Idempotency-Key': 'once' })).toMatchObject(ended);
  });

  it('refuses the other sessions at once after a password change, and every session after an admin sets the password', async () => {
    const member = await funded();
    const other = (await h.call('POST', '/api/auth/login', { body: { username: member.username, password: member.password } })).body.data.access_token as string;
    expect((await withdraw(member.id, other)).status).toBe(200);
    t.mail.clear();
    await h.call('POST', '/api/auth/change-password-link', { token: member.token, body: { email: member.email, old_password: member.password, user_type: 'user' } });
    const code = await codeMailedTo(t.mail, member.email, /password change/);
    expect((await h.call('POST', '/api/auth/change-password', { token: member.token, body: { email: member.email, code, password: 'changed secret 123', user_type: 'user' } })).status).toBe(200);
    const before = await recorded(member);
    expect(await withdraw(member.id, other)).toMatchObject(ended);
    expect(await updateNames(member.id, other)).toMatchObject(ended);
    expect(await recorded(member)).toEqual(before);
    expect((await withdraw(member.id, member.token)).status).toBe(200);

    const admin = await h.adminToken();
    expect((await h.call('PUT', `/api/auth/${member.id}/change-user-password`, { token: admin, body: { password: 'set by the admin' } })).status).toBe(200);
    const afterAdmin = await recorded(member);
    expect(await withdraw(member.id, member.token)).toMatchObject(ended);
    expect(await updateNames(member.id, member.token)).toMatchObject(ended);
    expect(await recorded(member)).toEqual(afterAdmin);
  });

  it('answers no sign-in, a forged token, the wrong member and finance staff as before, and records nothing', async () => {
    const one = await funded();
    const other = await funded();
    const finance = await h.adminToken('finance');
    const before = await recorded(one);
    expect(await withdraw(one.id, undefined)).toMatchObject({ status: 401, body: { message: 'Please sign in to continue.' } });
    expect(await withdraw(one.id, `${one.token.slice(0, -2)}xx`)).toMatchObject(ended);
    expect(await withdraw(one.id, other.token)).toMatchObject({ status: 403, body: { message: 'You may only see and change your own account.' } });
    expect(await withdraw(one.id, finance)).toMatchObject({ status: 403, body: { message: 'This is for members only.' } });
    expect(await updateNames(one.id, other.token)).toMatchObject({ status: 403, body: { message: 'You may only see and change your own account.' } });
    expect(await updateNames(one.id, finance)).toMatchObject({ status: 403, body: { message: 'Finance staff may read but not change this.' } });
    expect(await recorded(one)).toEqual(before);
    // A live session: a malformed id is another member's to the guard (403, before the schema), no read is made of it; a bad body gets the schema's answer.
    expect((await withdraw('not-a-uuid', one.token)).status).toBe(403);
    expect((await updateNames('not-a-uuid', await h.adminToken())).status).toBe(422);
    expect((await withdraw(one.id, one.token, { amount: 'not a number' })).status).toBe(422);
    expect((await updateNames(one.id, one.token, { first_name: '' })).status).toBe(422);
    // An admin may still change a member's names.
    expect((await updateNames(one.id, await h.adminToken())).status).toBe(200);
  });

  // Last: it moves the clock past the idle time of every session the helpers keep (the approving admin's).
  it('ends an idle session as every route does (marked idle), and keeps a busy one alive', async () => {
    const member = await funded();
    t.clock.advanceMinutes(14);
    expect((await withdraw(member.id, member.token)).status).toBe(200);
    t.clock.advanceMinutes(14);
    expect((await updateNames(member.id, member.token)).status).toBe(200);
    t.clock.advanceMinutes(16);
    const before = await recorded(member);
    expect(await withdraw(member.id, member.token)).toMatchObject(ended);
    expect(await recorded(member)).toEqual(before);
    const sid = JSON.parse(Buffer.from(member.token.split('.')[1]!, 'base64url').toString()).sid as string;
    expect(await t.runtime.db.selectFrom('sessions').select('end_reason').where('id', '=', sid).executeTakeFirstOrThrow()).toEqual({ end_reason: 'idle' });
    expect(await updateNames(member.id, member.token)).toMatchObject(ended);
  });
});
