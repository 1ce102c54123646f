import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { drainAll, settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { creditWallet } from '../../test/wallet';
import { runInTransaction } from '../core/command';
import { GENESIS_HASH, appendToStream } from '../core/event-store';
import { debitWalletForPayment } from '../wallet/commands';
import { eventSearchProjection } from './projections';
import { rankColumns, rankCompact } from '../points/events';
import { lagosDay } from './statement';

/**
 * The event log explorer, the naira trace and the member statement (docs/audit.md), through the
 * real app and database: a referral bonus earned from a recruit's approved receipt, a withdrawal
 * paid, a withdrawal whose transfer failed and came back, and a wallet payment.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
type Member = Awaited<ReturnType<typeof h.registeredMember>>;
let sponsor: Member;
let recruit: Member;
let stranger: Member;
let recruitPaymentId: string;
const failedWithdrawalNaira = 3_000;
const paidWithdrawalNaira = 5_000;
const walletPaymentNaira = 2_000;
const earlyCreditNaira = 1_234.56;

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  const settings = await h.call('PUT', '/api/settings/update', { token: admin, body: { withdrawal_type: null } });
  expect(settings.status, settings.body.message).toBe(200);

  sponsor = await h.registeredMember({ referrer: 'herbalhq', package_id: 2 }, { asParent: true });
  await h.payByReceipt(sponsor);
  recruit = await h.registeredMember({ referrer: sponsor.username, package_id: 2 });
  recruitPaymentId = await h.payByReceipt(recruit);
  stranger = await h.activeMember();
  await settleConsumers(t.runtime.db);

  // Money from before the period the statements below start in (an opening balance), and more to withdraw.
  await creditWallet(t.runtime.db, sponsor.id, Math.round(earlyCreditNaira * 100), new Date('2026-01-15T10:00:00Z'));
  await creditWallet(t.runtime.db, sponsor.id, 20_000 * 100);
  const bank = await h.call('PUT', `/api/users/${sponsor.id}/update-bank-details`, { token: sponsor.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } });
  expect(bank.status, bank.body.message).toBe(200);

  const paid = await h.call('POST', `/api/withdrawals/${sponsor.id}/initiate`, { token: sponsor.token, body: { amount: paidWithdrawalNaira } });
  expect(paid.status, paid.body.message).toBe(200);
  await eventuallyStatus(paid.body.data.id, 'successful');
  t.paystack.setTransferMode('fail');
  try {
    const failed = await h.call('POST', `/api/withdrawals/${sponsor.id}/initiate`, { token: sponsor.token, body: { amount: failedWithdrawalNaira } });
    expect(failed.status, failed.body.message).toBe(200);
    await eventuallyStatus(failed.body.data.id, 'failed');
  } finally {
    t.paystack.setTransferMode('success');
  }
  await runInTransaction(t.runtime.commands, (trx) =>
    debitWalletForPayment(trx, { paymentId: randomUUID(), memberId: sponsor.id, purpose: 'upgrade', amountKobo: walletPaymentNaira * 100, description: 'Package upgrade', packageId: 3 }, { actor: { type: 'member', id: sponsor.id }, now: new Date().toISOString() }),
  );
  await settleConsumers(t.runtime.db);
}, 120_000);
afterAll(async () => t?.close());

async function statusOf(withdrawalId: string) {
  return (await h.call('GET', `/api/withdrawals/${withdrawalId}/details`, { token: admin })).body.data.status as string;
}
async function eventuallyStatus(withdrawalId: string, expected: string) {
  await t.paystack.whenIdle();
  for (let i = 0; i < 100 && (await statusOf(withdrawalId)) !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.paystack.whenIdle();
  }
  expect(await statusOf(withdrawalId)).toBe(expected);
}

type EventRecord = { id: number; event_id: string; stream_id: string; stream_position: number; type: string; data: any; metadata: any; hash: string; prev_hash: string };

async function events(filter: Record<string, unknown>, options: { token?: string; sort?: [string, string]; range?: [number, number] } = {}) {
  const query = new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify(options.sort ?? ['id', 'DESC']), range: JSON.stringify(options.range ?? [0, 24]) });
  const response = await t.app.inject({ method: 'GET', url: `/api/admin/events?${query}`, headers: { authorization: `Bearer ${options.token ?? finance}` } });
  return { status: response.statusCode, rows: response.json() as EventRecord[], headers: response.headers, body: response.json() };
}

async function only(filter: Record<string, unknown>) {
  const { status, rows } = await events(filter, { range: [0, 199] });
  expect(status).toBe(200);
  return rows;
}

describe('the event log explorer', () => {
  it('pages the log newest first by position, never counting it: each page continues from the cursor of the last', async () => {
    const first = await events({}, { range: [0, 9] });
    expect(first.status).toBe(200);
    expect(first.rows).toHaveLength(10);
    expect(first.headers['content-range']).toBe('events 0-9/*');
    const ids = first.rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const cursor = Number(first.headers['x-next-cursor']);
    expect(cursor).toBe(ids[9]);
    const second = await events({ id_lt: cursor }, { range: [0, 9] });
    expect(second.rows[0]!.id).toBeLessThan(cursor);
    // The two pages are the first twenty of the log, in order, with nothing skipped.
    const twenty = await events({}, { range: [0, 19] });
    expect([...ids, ...second.rows.map((r) => r.id)]).toEqual(twenty.rows.map((r) => r.id));
    // The oldest page has no next cursor.
    const oldest = await events({}, { sort: ['id', 'ASC'], range: [0, 0] });
    expect(oldest.rows[0]!.stream_position).toBe(1);
    const last = await events({ id_lt: oldest.rows[0]!.id + 1 }, { range: [0, 9] });
    expect(last.headers['x-next-cursor']).toBeUndefined();
  });

  it("finds every event about a member: their streams, events naming them in their data, and what they did, and nobody else's", async () => {
    const rows = await only({ member_id: sponsor.id });
    const streams = new Set(rows.map((r) => r.stream_id));
    expect(streams).toContain(`member-${sponsor.id}`);
    expect(streams).toContain(`wallet-${sponsor.id}`);
    // The recruit's registration names the sponsor in its data; the referral bonus too.
    expect(rows.some((r) => r.stream_id === `member-${recruit.id}` && r.type === 'MemberRegistered')).toBe(true);
    expect(rows.some((r) => r.type === 'BonusCredited' && r.data.kind === 'referral')).toBe(true);
    for (const row of rows) expect(JSON.stringify([row.stream_id, row.data, row.metadata.actor]).toLowerCase()).toContain(sponsor.id.toLowerCase());
    expect(rows.some((r) => r.stream_id.includes(stranger.id))).toBe(false);
    // Upper-case ids find the same.
    expect((await only({ member_id: sponsor.id.toUpperCase() })).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('filters by stream (its timeline, oldest first), type, acting admin, date range and free text', async () => {
    const timeline = await events({ stream_id: `wallet-${sponsor.id}` }, { sort: ['id', 'ASC'], range: [0, 199] });
    expect(timeline.rows.map((r) => r.stream_position)).toEqual(timeline.rows.map((_r, i) => i + 1));
    expect(timeline.rows.map((r) => r.type)).toEqual(expect.arrayContaining(['BonusCredited', 'WithdrawalRequested', 'WithdrawalSucceeded', 'WithdrawalFailed', 'WalletPaymentMade']));

    const approvals = await only({ type: 'PackagePaymentApproved' });
    expect(approvals.length).toBeGreaterThanOrEqual(3);
    expect(approvals.every((r) => r.type === 'PackagePaymentApproved')).toBe(true);
    const approverId = approvals.find((r) => r.stream_id === `package-payment-${recruitPaymentId}`)!.metadata.actor.id as string;
    const byApprover = await only({ actor_id: approverId });
    expect(byApprover.length).toBeGreaterThan(0);
    expect(byApprover.every((r) => r.metadata.actor.id === approverId)).toBe(true);

    const early = await only({ recorded_at_gte: '2026-01-15T00:00:00Z', recorded_at_lte: '2026-01-15T23:59:59Z' });
    expect(early.map((r) => [r.type, r.data.amount_kobo])).toEqual([['BonusCredited', 123_456]]);

    // Free text: a username in the data, a word of a type (as a prefix).
    const named = await only({ q: recruit.username });
    expect(named.some((r) => r.stream_id === `member-${recruit.id}`)).toBe(true);
    const failures = await only({ q: 'withdrawalfail', member_id: sponsor.id });
    expect(failures.map((r) => r.type)).toEqual(['WithdrawalFailed']);
  });

  it('finds a new event by member and by word once the event-search projection has applied it: the append itself indexes nothing', async () => {
    // The log carries no GIN index: the ids and words of an event are indexed off the append path.
    const { rows: gin } = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'events' and indexdef ilike '%using gin%'`.execute(t.runtime.db);
    expect(gin).toEqual([]);
    const subject = randomUUID();
    const word = `zobo${subject.slice(0, 8).replace(/-/g, '')}`;
    // Appended in a bare transaction: no doorbell rings, so nothing but this test drains the projection.
    const [appended] = await t.runtime.db.transaction().execute((trx) =>
      appendToStream(trx, `test-${subject}`, [{ type: 'TestNoteRecorded', data: { about_id: subject, note: word } }], {
        expectedVersion: 'any',
        metadata: { actor: { type: 'admin', id: randomUUID() }, now: new Date().toISOString() },
      }),
    );
    // Committed, but the projection has not run: the two filters do not see it yet, the others do.
    expect(await only({ member_id: subject })).toEqual([]);
    expect(await only({ q: word })).toEqual([]);
    expect((await only({ stream_id: `test-${subject}` })).map((r) => r.id)).toEqual([appended!.globalPosition]);
    expect((await drainAll(t.runtime.db, eventSearchProjection)).status).toBe('caught_up');
    expect((await only({ member_id: subject })).map((r) => r.id)).toEqual([appended!.globalPosition]);
    expect((await only({ q: word })).map((r) => r.id)).toEqual([appended!.globalPosition]);
    // Applied again (a re-read batch): one row per event, unchanged.
    await t.runtime.db.transaction().execute((trx) => eventSearchProjection.apply(trx, [appended!]));
    const { rows: search } = await sql<{ n: number }>`select count(*)::int as n from event_search where global_position = ${appended!.globalPosition}`.execute(t.runtime.db);
    expect(search[0]!.n).toBe(1);
  });

  // Both shapes of RanksAchieved: in columns (since decision 67) and an array of objects (before).
  it.each([
    ['compact (decision 80)', 'Zoboqueen'],
    ['in columns', 'Zobocrown'],
    ['as an array of objects (recorded before decision 67)', 'Zoboduchess'],
  ])("finds a rank cascade %s by each member it names and by its rank's name, its subjects those event_subject_ids finds", async (shape, rankName) => {
    const members = Array.from({ length: 150 }, () => randomUUID());
    const entries = members.map((member_id, i) => ({ member_id, rank_id: 3, rank_name: rankName, cpv: 1000 + i, package_id: 6, previous_rank_id: 2 }));
    const cause = { event_id: randomUUID(), event_type: 'MemberActivated', stream_id: `member-${members[0]}`, member_id: members[0]! };
    const [cascade] = await t.runtime.db.transaction().execute((trx) =>
      appendToStream(
        trx,
        `rank-cascade-${cause.event_id}`,
        [{ type: 'RanksAchieved', data: shape === 'in columns' ? { cause, columns: rankColumns(entries) } : shape.startsWith('compact') ? { cause, ...rankCompact(entries) } : { cause, ranks: entries } }],
        { expectedVersion: 'any', metadata: { actor: { type: 'system', id: 'points' }, now: new Date().toISOString() } },
      ),
    );
    expect((await drainAll(t.runtime.db, eventSearchProjection)).status).toBe('caught_up');
    for (const member of [members[0]!, members[77]!, members[149]!]) expect((await only({ member_id: member })).map((r) => r.id)).toEqual([cascade!.globalPosition]);
    expect((await only({ q: rankName.toLowerCase() })).map((r) => r.id)).toEqual([cascade!.globalPosition]);
    expect((await only({ q: `ranksachieved ${rankName}` })).map((r) => r.id)).toEqual([cascade!.globalPosition]);
    const { rows } = await sql<{ same: boolean; subjects: number }>`
      select (select array_agg(x order by x) from unnest(s.subjects) x) = (select array_agg(x order by x) from unnest(event_subject_ids(e.stream_id, e.data, e.metadata)) x) as same,
        cardinality(s.subjects) as subjects
      from event_search s join events e using (global_position) where global_position = ${cascade!.globalPosition}`.execute(t.runtime.db);
    expect(rows[0]).toEqual({ same: true, subjects: 151 });
  });

  it('indexes a cascade in columns whose list holds an entry that is not an id (and ids in capitals) without failing: the listed ids are its subjects', async () => {
    const [ada, bola] = [randomUUID(), randomUUID()];
    const cause = { event_id: randomUUID(), event_type: 'MemberActivated', stream_id: `member-${ada}`, member_id: ada };
    const columns = { member_id: [ada, 'not-an-id', bola.toUpperCase()], rank_id: [3, 3, 3], rank_name: ['Zobomanager', 'Zobomanager', 'Zobomanager'], previous_rank_id: [2, 2, 2], cpv: [1, 2, 3], package_id: [6, 6, 6] };
    const [cascade] = await t.runtime.db.transaction().execute((trx) =>
      appendToStream(trx, `rank-cascade-${cause.event_id}`, [{ type: 'RanksAchieved', data: { cause, columns } }], {
        expectedVersion: 'any',
        metadata: { actor: { type: 'system', id: 'points' }, now: new Date().toISOString() },
      }),
    );
    expect((await drainAll(t.runtime.db, eventSearchProjection)).status).toBe('caught_up');
    for (const member of [ada, bola]) expect((await only({ member_id: member })).map((r) => r.id)).toEqual([cascade!.globalPosition]);
    const { rows } = await sql<{ same: boolean }>`
      select (select array_agg(x order by x) from unnest(s.subjects) x) = (select array_agg(x order by x) from unnest(event_subject_ids(e.stream_id, e.data, e.metadata)) x) as same
      from event_search s join events e using (global_position) where global_position = ${cascade!.globalPosition}`.execute(t.runtime.db);
    expect(rows[0]).toEqual({ same: true });
  });

  it('answers a bad filter, sort or range with a 422 that says what is wrong', async () => {
    for (const [filter, message] of [
      [{ colour: 'red' }, 'Cannot filter the event log by colour.'],
      [{ member_id: 'ada' }, 'The filter member_id must be an id'],
      [{ id_lt: 'x' }, 'The filter id_lt must be a number.'],
      [{ recorded_at_gte: 'yesterday' }, 'The filter recorded_at_gte must be a date.'],
      [{ q: '%%%' }, 'Type a word or a number to search for.'],
    ] as const) {
      const response = await events(filter);
      expect(response.status).toBe(422);
      expect(response.body.message).toContain(message);
    }
    expect((await events({}, { sort: ['type', 'ASC'] })).status).toBe(422);
    expect((await events({}, { range: [5, 1] })).status).toBe(422);
  });

  it('links a bonus to its cause, the cause to its effects and its request, and shows each hash and previous hash', async () => {
    const bonus = (await only({ member_id: sponsor.id, type: 'BonusCredited' })).find((r) => r.data.kind === 'referral' && r.data.cause.member_id === recruit.id)!;
    const detail = (await t.app.inject({ method: 'GET', url: `/api/admin/events/${bonus.id}`, headers: { authorization: `Bearer ${finance}` } })).json();
    expect(detail.cause).toMatchObject({ type: 'MemberActivated', stream_id: `member-${recruit.id}` });
    expect(detail.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.prev_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.actor).toMatchObject({ type: 'system', id: 'compensation' });

    const activation = (await t.app.inject({ method: 'GET', url: `/api/admin/events/${detail.cause.id}`, headers: { authorization: `Bearer ${finance}` } })).json();
    expect(activation.effects.map((e: { id: number }) => e.id)).toContain(bonus.id);
    expect(activation.cause).toMatchObject({ type: 'PackagePaymentApproved', stream_id: `package-payment-${recruitPaymentId}` });
    expect(activation.correlated.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['PackagePaymentApproved', 'BonusCredited']));
    expect(activation.actor).toMatchObject({ type: 'admin', name: expect.stringContaining('@') });

    // The first event of a stream links to the genesis hash; the next to the first's hash.
    const [first, second] = (await events({ stream_id: `member-${recruit.id}` }, { sort: ['id', 'ASC'] })).rows;
    expect(first!.prev_hash).toBe(GENESIS_HASH);
    expect(second!.prev_hash).toBe(first!.hash);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/events/999999999', headers: { authorization: `Bearer ${finance}` } })).statusCode).toBe(404);
  });
});

describe('tracing a naira', () => {
  it("walks a referral bonus up to the admin's approval of the recruit's payment, with the bonus's formula", async () => {
    const bonus = (await only({ member_id: sponsor.id, type: 'BonusCredited' })).find((r) => r.data.kind === 'referral' && r.data.cause.member_id === recruit.id)!;
    const trace = (await h.call('GET', `/api/admin/events/${bonus.id}/trace`, { token: finance })).body.data;
    expect(trace.root_reached).toBe(true);
    expect(trace.steps.map((s: { event: { type: string } }) => s.event.type)).toEqual(['BonusCredited', 'MemberActivated', 'PackagePaymentApproved']);
    expect(trace.steps.map((s: { link: string | null }) => s.link)).toEqual(['caused_by', 'caused_by', null]);
    const [line, , root] = trace.steps;
    expect(line.summary).toContain(`Referral bonus for ${recruit.username}'s activation`);
    expect(line.summary).toContain('10% of ₦35,000');
    expect(line.amount).toBe(3_500);
    expect(line.inputs).toMatchObject({ percentage: 10, base_kobo: 3_500_000 });
    expect(root.event.stream_id).toBe(`package-payment-${recruitPaymentId}`);
    expect(root.actor).toMatchObject({ type: 'admin' });
    // The root names the payment it approved: whose, what for, how much, how paid.
    expect(root.summary).toContain(`${recruit.username}'s registration payment of ₦35,000 by bank transfer (receipt)`);
    expect(root.amount).toBe(35_000);
  });

  it("walks a returned transfer back to the member's withdrawal request", async () => {
    const [returned] = await only({ stream_id: `wallet-${sponsor.id}`, type: 'WithdrawalFailed' });
    const trace = (await h.call('GET', `/api/admin/events/${returned!.id}/trace`, { token: admin })).body.data;
    expect(trace.steps.map((s: { event: { type: string } }) => s.event.type)).toEqual(['WithdrawalFailed', 'WithdrawalRequested']);
    expect(trace.steps[0].link).toBe('settles');
    expect(trace.steps[1].actor).toMatchObject({ type: 'member', name: sponsor.username });
    expect(trace.steps[0].summary).toContain(`₦${failedWithdrawalNaira.toLocaleString('en-US')} returned to the wallet`);
  });
});

describe("a member's statement", () => {
  const statement = async (query: string, token = finance) => h.call('GET', `/api/wallet/${sponsor.id}/statement${query}`, { token });

  it('balances to the kobo: opening + credits − debits = closing, and the closing balance is the wallet’s', async () => {
    const today = lagosDay(new Date());
    const whole = (await statement(`?from=2026-01-01&to=${today}`)).body.data;
    expect(whole.opening_balance_kobo).toBe(0);
    expect(whole.opening_balance_kobo + whole.total_credits_kobo - whole.total_debits_kobo).toBe(whole.closing_balance_kobo);
    const wallet = (await h.call('GET', `/api/bonuses/${sponsor.id}/wallet-balance`, { token: admin })).body.data;
    expect(whole.closing_balance).toBe(wallet.balance);
    const types = whole.lines.map((l: { type: string }) => l.type);
    expect(types).toEqual(expect.arrayContaining(['Referral bonus', 'Withdrawal', 'Withdrawal returned', 'Wallet payment']));
    // The failed transfer's debit and its return cancel; the paid withdrawal and the payment stay out.
    const returned = whole.lines.find((l: { type: string }) => l.type === 'Withdrawal returned');
    expect(returned.credit).toBe(failedWithdrawalNaira);
    expect(whole.lines.filter((l: { type: string }) => l.type === 'Withdrawal').map((l: { debit: number }) => l.debit).sort()).toEqual([failedWithdrawalNaira, paidWithdrawalNaira]);
    expect(whole.lines.find((l: { type: string }) => l.type === 'Wallet payment')).toMatchObject({ debit: walletPaymentNaira, description: expect.stringContaining('Package upgrade') });
    // Each line's running balance follows from the one before.
    let running = whole.opening_balance_kobo;
    for (const line of whole.lines) {
      running += line.credit_kobo - line.debit_kobo;
      expect(line.balance_kobo).toBe(running);
    }

    // A period starting after the early credit opens with it, and closes on the same balance.
    const later = (await statement(`?from=2026-02-01&to=${today}`)).body.data;
    expect(later.opening_balance_kobo).toBe(Math.round(earlyCreditNaira * 100));
    expect(later.closing_balance_kobo).toBe(whole.closing_balance_kobo);
    expect(later.lines).toHaveLength(whole.lines.length - 1);
    // A period before anything happened is empty and balances at zero.
    expect((await statement('?from=2025-01-01&to=2025-12-31')).body.data).toMatchObject({ opening_balance_kobo: 0, closing_balance_kobo: 0, lines: [] });
  });

  it('downloads as CSV: an opening row, one row per line with its event, a closing row with the totals', async () => {
    const today = lagosDay(new Date());
    const json = (await statement(`?from=2026-01-01&to=${today}`)).body.data;
    const response = await t.app.inject({ method: 'GET', url: `/api/wallet/${sponsor.id}/statement?from=2026-01-01&to=${today}&format=csv`, headers: { authorization: `Bearer ${finance}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain(`statement-${sponsor.username}-2026-01-01-${today}.csv`);
    const rows = response.body.trimEnd().split('\r\n').map((line) => line.slice(1, -1).split('","'));
    expect(rows[0]).toEqual(['date', 'event', 'type', 'description', 'credit_naira', 'debit_naira', 'balance_naira', 'credit_kobo', 'debit_kobo', 'balance_kobo']);
    expect(rows).toHaveLength(json.lines.length + 3);
    expect(rows[1]!.slice(2, 3)).toEqual(['Opening balance']);
    expect(rows.slice(2, -1).map((r) => Number(r[1]))).toEqual(json.lines.map((l: { id: number }) => l.id));
    const closing = rows.at(-1)!;
    expect(closing[2]).toBe('Closing balance');
    expect(closing.slice(7)).toEqual([String(json.total_credits_kobo), String(json.total_debits_kobo), String(json.closing_balance_kobo)]);
    expect(closing[6]).toBe((json.closing_balance_kobo / 100).toFixed(2));
  });

  it('is the member’s own to read, and nobody else’s; bad dates are a 422', async () => {
    expect((await statement('', sponsor.token)).status).toBe(200);
    expect((await statement('', stranger.token)).status).toBe(403);
    expect((await h.call('GET', `/api/wallet/${sponsor.id}/statement`)).status).toBe(401);
    const inverted = await statement('?from=2026-03-01&to=2026-02-01');
    expect(inverted.status).toBe(422);
    expect(inverted.body.message).toContain('The from date must not be after the to date.');
    expect((await statement('?from=2026-02-30')).status).toBe(422);
    expect((await statement('?format=pdf')).status).toBe(422);
    expect((await h.call('GET', `/api/wallet/${randomUUID()}/statement`, { token: finance })).status).toBe(404);
  });
});

describe('who may read the log', () => {
  it('refuses members and anonymous callers every explorer path; admins and finance read them', async () => {
    for (const path of ['/api/admin/events', '/api/admin/events/1', '/api/admin/events/1/trace', '/api/admin/event-actors']) {
      expect((await h.call('GET', path, { token: sponsor.token })).status, path).toBe(403);
      expect((await h.call('GET', path)).status, path).toBe(401);
      expect((await h.call('GET', path, { token: finance })).status, path).toBe(200);
      expect((await h.call('GET', path, { token: admin })).status, path).toBe(200);
    }
    const actors = (await h.call('GET', '/api/admin/event-actors', { token: finance })).body.data;
    expect(actors.map((a: { role: string }) => a.role)).toEqual(expect.arrayContaining(['admin', 'finance']));
  });
});
