import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { creditWallet } from '../../test/wallet';
import { transferReference } from './events';

/**
 * The back office's `withdrawals` resource (GET /api/admin/withdrawals, ra-data-simple-rest) and the
 * company finance figures, over withdrawals made the way members and admins make them: queued
 * under the payout schedule, sent and paid, failed, reversed, and an admin payout.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
type Member = Awaited<ReturnType<typeof h.registeredMember>>;

const ids: Record<'queued' | 'paid' | 'failed' | 'reversed' | 'payout' | 'other', string> = { queued: '', paid: '', failed: '', reversed: '', payout: '', other: '' };
let alice: Member;
let bayo: Member;
let startedAt: Date;
let companyBefore: { total_company_wallet: number; total_withdrawals: number; balance: number };

async function settings(body: Record<string, unknown>) {
  const updated = await h.call('PUT', '/api/settings/update', { token: admin, body });
  expect(updated.status, updated.body.message).toBe(200);
}

/** An active member with verified bank details and `kobo` in the wallet. */
async function walletHolder(overrides: Record<string, unknown>, kobo: number) {
  const member = await h.registeredMember(overrides);
  await h.payByReceipt(member);
  const saved = await h.call('PUT', `/api/users/${member.id}/update-bank-details`, { token: member.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(saved.status, saved.body.message).toBe(200);
  await creditWallet(t.runtime.db, member.id, kobo, t.clock.now);
  return member;
}

const initiate = (member: Member, amount: number) => h.call('POST', `/api/withdrawals/${member.id}/initiate`, { token: member.token, body: { amount } });

async function statusOf(id: string) {
  return (await h.call('GET', `/api/admin/withdrawals/${id}`, { token: admin })).body as unknown as { status: string };
}

/** Webhooks go out after the provider's answer: wait for them, then for the status they bring. */
async function eventuallyStatus(id: string, expected: string) {
  await t.paystack.whenIdle();
  for (let i = 0; i < 50 && (await statusOf(id)).status !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.paystack.whenIdle();
  }
  expect((await statusOf(id)).status).toBe(expected);
}

/** A simple-rest list call: the query's three JSON parameters. */
function list(query: { sort?: unknown; range?: unknown; filter?: unknown }, token = admin) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, JSON.stringify(value));
  return h.call('GET', `/api/admin/withdrawals?${params}`, { token });
}
const rows = (answer: Awaited<ReturnType<typeof list>>) => answer.body as unknown as Array<Record<string, any>>;
const idsOf = (answer: Awaited<ReturnType<typeof list>>) => rows(answer).map((r) => r.id);

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  companyBefore = (await h.call('GET', '/api/bonuses/total-company-wallet', { token: admin })).body.data;
  startedAt = new Date(t.clock.now);

  // 1.5% capped at ₦2,000, queued for Friday's payout run.
  await settings({ withdrawal_type: 'weekly', withdrawal_period: 6, withdrawal_charge_type: 'percentage', charge: 1.5, withdrawal_charge_cap: 2_000, minimum_withdrawal: 2_000, maximum_withdrawal: 500_000 });
  alice = await walletHolder({ first_name: 'Adaeze', last_name: 'Nwosu' }, 5_000_000);
  bayo = await walletHolder({ first_name: 'Bayo', last_name: 'Adeyemi' }, 3_000_000);
  ids.queued = (await initiate(alice, 12_345.67)).body.data.id;

  // Sent at once (no schedule): paid, failed, reversed.
  await settings({ withdrawal_type: null });
  t.clock.advanceMinutes(1);
  ids.paid = (await initiate(bayo, 20_000)).body.data.id;
  await eventuallyStatus(ids.paid, 'successful');
  t.clock.advanceMinutes(1);
  t.paystack.setTransferMode('fail');
  try {
    ids.failed = (await initiate(alice, 3_000)).body.data.id;
    await eventuallyStatus(ids.failed, 'failed');
  } finally {
    t.paystack.setTransferMode('success');
  }
  t.clock.advanceMinutes(1);
  t.paystack.setTransferMode('reverse');
  try {
    ids.reversed = (await initiate(bayo, 4_000)).body.data.id;
    await eventuallyStatus(ids.reversed, 'failed');
  } finally {
    t.paystack.setTransferMode('success');
  }
  t.clock.advanceMinutes(1);
  const payout = await h.call('POST', `/api/payments/${alice.id}/bank-transfer`, { token: admin, body: { amount: 2_500.5, reason: 'Refund of overpayment' } });
  expect(payout.status, payout.body.message).toBe(200);
  ids.payout = payout.body.data.id;
  await eventuallyStatus(ids.payout, 'successful');
  t.clock.advanceMinutes(1);
  ids.other = (await initiate(alice, 2_000)).body.data.id;
  await eventuallyStatus(ids.other, 'successful');
});
afterAll(async () => t?.close());

describe('GET /api/admin/withdrawals (ra-data-simple-rest)', () => {
  it('answers a bare array, newest first, with Content-Range and every figure to the kobo', async () => {
    const answer = await list({ sort: ['created_at', 'DESC'], range: [0, 24] });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-range']).toBe('withdrawals 0-5/6');
    expect(idsOf(answer)).toEqual([ids.other, ids.payout, ids.reversed, ids.failed, ids.paid, ids.queued]);
    const byId = new Map(rows(answer).map((r) => [r.id, r]));
    // ₦12,345.67 at 1.5% = ₦185.18 (floored to the kobo); the bank is to get ₦12,160.49.
    expect(byId.get(ids.queued)).toMatchObject({
      member_id: alice.id,
      username: alice.username,
      full_name: 'Adaeze Nwosu',
      amount: 12_345.67,
      charge: 185.18,
      fee: 185.18,
      net_amount: 12_160.49,
      status: 'pending',
      outcome: null,
      type: 'withdrawal',
      bank_name: 'Test Bank',
      account_number: '0123456789',
      transfer_reference: transferReference(ids.queued),
      payout_date: null,
      stream_id: `wallet-${alice.id}`,
    });
    expect(byId.get(ids.paid)).toMatchObject({ amount: 20_000, charge: 300, net_amount: 19_700, status: 'successful', outcome: null, payout_date: expect.any(String), completed_at: expect.any(String) });
    expect(byId.get(ids.failed)).toMatchObject({ amount: 3_000, charge: 45, net_amount: 2_955, status: 'failed', outcome: 'failed', failure_reason: 'The transfer failed.' });
    expect(byId.get(ids.reversed)).toMatchObject({ amount: 4_000, status: 'failed', outcome: 'reversed', failure_reason: expect.any(String) });
    expect(byId.get(ids.payout)).toMatchObject({ amount: 2_500.5, charge: 0, net_amount: 2_500.5, type: 'payout', reason: 'Refund of overpayment', status: 'successful' });
  });

  it('pages with range and says where the page sits in Content-Range', async () => {
    const second = await list({ sort: ['created_at', 'DESC'], range: [2, 3] });
    expect(second.headers['content-range']).toBe('withdrawals 2-3/6');
    expect(idsOf(second)).toEqual([ids.reversed, ids.failed]);
    const beyond = await list({ range: [50, 59] });
    expect(rows(beyond)).toEqual([]);
    expect(beyond.headers['content-range']).toBe('withdrawals */6');
  });

  it('sorts by amount, username and payout date', async () => {
    expect(rows(await list({ sort: ['amount', 'ASC'], range: [0, 9] })).map((r) => r.amount)).toEqual([2_000, 2_500.5, 3_000, 4_000, 12_345.67, 20_000]);
    expect(rows(await list({ sort: ['amount', 'DESC'], range: [0, 9] })).map((r) => r.amount)).toEqual([20_000, 12_345.67, 4_000, 3_000, 2_500.5, 2_000]);
    const byUsername = rows(await list({ sort: ['username', 'ASC'], range: [0, 9] })).map((r) => r.username);
    expect(byUsername).toEqual([...byUsername].sort());
    expect(new Set(byUsername.slice(0, 4)).size).toBe(1);
    const byPayout = rows(await list({ sort: ['payout_date', 'ASC'], range: [0, 9] }));
    expect(byPayout.map((r) => r.id).slice(0, 5)).toEqual([ids.paid, ids.failed, ids.reversed, ids.payout, ids.other]);
  });

  it('filters: q over username, full name and transfer reference; status, outcome, type; amount and date ranges', async () => {
    expect(new Set(idsOf(await list({ filter: { q: bayo.username } })))).toEqual(new Set([ids.paid, ids.reversed]));
    expect(new Set(idsOf(await list({ filter: { q: 'adaeze nwo' } })))).toEqual(new Set([ids.queued, ids.failed, ids.payout, ids.other]));
    expect(idsOf(await list({ filter: { q: transferReference(ids.failed).slice(0, 20) } }))).toEqual([ids.failed]);
    expect(idsOf(await list({ filter: { q: '100%_' } }))).toEqual([]);
    expect(idsOf(await list({ filter: { status: 'pending' } }))).toEqual([ids.queued]);
    expect(new Set(idsOf(await list({ filter: { status: ['failed', 'pending'] } })))).toEqual(new Set([ids.queued, ids.failed, ids.reversed]));
    expect(idsOf(await list({ filter: { outcome: 'reversed' } }))).toEqual([ids.reversed]);
    expect(idsOf(await list({ filter: { type: 'payout' } }))).toEqual([ids.payout]);
    expect(new Set(idsOf(await list({ filter: { amount_gte: 4_000, amount_lte: 12_345.67 } })))).toEqual(new Set([ids.queued, ids.reversed]));
    const at = (minutes: number) => new Date(startedAt.getTime() + minutes * 60_000).toISOString();
    expect(new Set(idsOf(await list({ filter: { created_at_gte: at(1), created_at_lte: at(3) } })))).toEqual(new Set([ids.paid, ids.failed, ids.reversed]));
    expect(idsOf(await list({ filter: { created_at_gte: at(5), member_id: alice.id } }))).toEqual([ids.other]);
    const filtered = await list({ filter: { status: 'successful' }, range: [0, 0] });
    expect(filtered.headers['content-range']).toBe('withdrawals 0-0/3');
  });

  it('getMany is filter={"id":[...]}, without a range', async () => {
    const many = await h.call('GET', `/api/admin/withdrawals?filter=${encodeURIComponent(JSON.stringify({ id: [ids.paid, ids.payout, 'not-an-id'] }))}`, { token: admin });
    expect(many.status).toBe(200);
    expect(new Set(idsOf(many))).toEqual(new Set([ids.paid, ids.payout]));
  });

  it('getOne carries the withdrawal’s history: its own events on the wallet stream, oldest first, and who caused them', async () => {
    const reversed = await h.call('GET', `/api/admin/withdrawals/${ids.reversed}`, { token: admin });
    const body = reversed.body as any;
    expect(body).toMatchObject({ id: ids.reversed, status: 'failed', outcome: 'reversed', amount: 4_000 });
    expect(body.history.map((e: { type: string }) => e.type)).toEqual(['WithdrawalRequested', 'WithdrawalSent', 'WithdrawalFailed']);
    expect(body.history[0]).toMatchObject({ actor_type: 'member', actor_id: bayo.id, data: { withdrawal_id: ids.reversed, amount_kobo: 400_000, fee_kobo: 6_000, net_kobo: 394_000 } });
    expect(body.history[2].data).toMatchObject({ outcome: 'reversed', returned_kobo: 400_000 });
    // The wallet stream's bonus credit is not part of the withdrawal's history.
    const payout = (await h.call('GET', `/api/admin/withdrawals/${ids.payout}`, { token: finance })).body as any;
    expect(payout.history.map((e: { type: string }) => e.type)).toEqual(['WithdrawalRequested', 'WithdrawalSent', 'WithdrawalSucceeded']);
    expect(payout.history[0].actor_type).toBe('admin');
    const queued = (await h.call('GET', `/api/admin/withdrawals/${ids.queued}`, { token: admin })).body as any;
    expect(queued.history.map((e: { type: string }) => e.type)).toEqual(['WithdrawalRequested']);
  });

  it('refuses bad input readably: unknown id 404, a malformed id, sort, range or filter 422', async () => {
    expect(await h.call('GET', '/api/admin/withdrawals/00000000-0000-4000-8000-000000000000', { token: admin })).toMatchObject({ status: 404, body: { message: 'Withdrawal not found.' } });
    expect((await h.call('GET', '/api/admin/withdrawals/nope', { token: admin })).status).toBe(422);
    expect(await list({ sort: ['password', 'ASC'] })).toMatchObject({ status: 422, body: { message: 'Cannot sort by password.' } });
    expect(await list({ filter: { amount_gte: 'lots' } })).toMatchObject({ status: 422, body: { message: 'The filter amount_gte must be a number.' } });
    expect(await list({ filter: { created_at_gte: 'yesterday' } })).toMatchObject({ status: 422, body: { message: 'The filter created_at_gte must be a date.' } });
    expect(await list({ filter: { secret: 1 } })).toMatchObject({ status: 422, body: { message: 'Cannot filter by secret.' } });
    expect((await h.call('GET', '/api/admin/withdrawals?range=oops', { token: admin })).status).toBe(422);
  });

  it('is for staff only: a member gets 403, no session 401, finance staff read', async () => {
    expect((await list({}, alice.token)).status).toBe(403);
    expect((await h.call('GET', `/api/admin/withdrawals/${ids.queued}`, { token: alice.token })).status).toBe(403);
    expect((await h.call('GET', '/api/admin/withdrawals')).status).toBe(401);
    const read = await list({ range: [0, 9] }, finance);
    expect(read.status).toBe(200);
    expect(read.headers['content-range']).toBe('withdrawals 0-5/6');
    // Finance reads money, but cannot move it.
    expect((await h.call('POST', `/api/payments/${alice.id}/bank-transfer`, { token: finance, body: { amount: 100, reason: 'x' } })).status).toBe(403);
  });
});

describe('company finance (seed 001 §2.9): the figures the page shows', () => {
  it('total withdrawals count what left the wallets; the company wallet what was received; balance the difference, to the kobo', async () => {
    const totals = (await h.call('GET', '/api/withdrawals/total', { token: finance })).body.data;
    // Withdrawn: paid ₦20,000 + payout ₦2,500.50 + ₦2,000, and ₦12,345.67 queued; the failed and reversed came back.
    expect(totals).toEqual({ total: 36_846.17, successful: 24_500.5, processing: 0, pending: 12_345.67, count: 4 });
    const listed = rows(await list({ filter: { status: ['successful', 'processing', 'pending'] }, range: [0, 49] }));
    expect(Math.round(listed.reduce((sum, r) => sum + r.amount * 100, 0))).toBe(3_684_617);

    // Two activations by receipt, at the demo Bronze price.
    const received = await t.runtime.db
      .selectFrom('package_payments')
      .select(sql<string>`coalesce(sum(coalesce(amount_paid, amount_due)), 0)`.as('kobo'))
      .where('status', '=', 'approved')
      .where('member_id', 'in', [alice.id, bayo.id])
      .executeTakeFirstOrThrow();
    for (const path of ['/api/bonuses/total-company-wallet', '/api/bonuses/company-wallet-balance']) {
      const company = (await h.call('GET', path, { token: finance })).body.data;
      expect(company.total_company_wallet - companyBefore.total_company_wallet).toBeCloseTo(Number(received.kobo) / 100, 2);
      expect(Math.round((company.total_withdrawals - companyBefore.total_withdrawals) * 100)).toBe(2_450_050);
      expect(Math.round(company.balance * 100)).toBe(Math.round(company.total_company_wallet * 100) - Math.round(company.total_withdrawals * 100));
    }
  });

  it('reads the payment provider’s balance, in naira', async () => {
    t.paystack.setBalanceKobo(123_456_789);
    try {
      const balance = await h.call('GET', '/api/payments/provider-wallet-balance', { token: finance });
      expect(balance).toMatchObject({ status: 200, body: { success: true, data: { available_balance: 1_234_567.89, currency: 'NGN' } } });
      expect((await h.call('GET', '/api/payments/provider-wallet-balance', { token: alice.token })).status).toBe(403);
    } finally {
      t.paystack.setBalanceKobo(1_000_000_000);
    }
  });
});
