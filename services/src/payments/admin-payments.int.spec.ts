import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { tinyPng } from '../../test/multipart';
import { transferReference } from '../contracts/bank-transfer';

/**
 * The back office's registration and upgrade payments (seed 002 "Transactions screen", Registration
 * History; API.md §2): resources package-payments, registrations and upgrades in ra-data-simple-rest,
 * and the catalogue's paid-user reads under /api/users.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;

type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
let upgraded: Member; // Bronze, upgraded to Silver then Gold
let waiting: Member; // Bronze, a receipt waiting for a decision
let declined: Member; // Bronze, its receipt declined
let waitingPaymentId: string;
let declinedPaymentId: string;

const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };

async function uploadReceipt(member: Member, description: string): Promise<string> {
  const uploaded = await h.upload('POST', '/api/payments/initiate', {
    token: member.token,
    fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop', amount: 35_000, description },
    files: receipt,
  });
  expect(uploaded.status, uploaded.body.message).toBe(200);
  return uploaded.body.data.payment_id as string;
}

/** GET through the resource protocol: the array, the total after the slash, the whole answer. */
async function list(resource: string, params: { sort?: unknown; range?: unknown; filter?: unknown } = {}, token = admin) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, JSON.stringify(value));
  const answer = await h.call('GET', `/api/admin/${resource}?${query}`, { token });
  const range = String(answer.headers['content-range'] ?? '');
  return { ...answer, rows: answer.body as unknown as Array<Record<string, any>>, range, total: Number(range.split('/').pop()) };
}

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  finance = await h.adminToken('finance');
  upgraded = await h.activeMember({ first_name: 'Ngozi', last_name: 'Upgrader' });
  await h.payByReceipt(upgraded, { upgradeTo: 3 });
  await h.payByReceipt(upgraded, { upgradeTo: 4 });
  waiting = await h.registeredMember({ first_name: 'Bola', last_name: 'Waiting' });
  waitingPaymentId = await uploadReceipt(waiting, 'Bronze registration by transfer');
  declined = await h.registeredMember({ first_name: 'Emeka', last_name: 'Declined' });
  declinedPaymentId = await uploadReceipt(declined, 'Blurry receipt');
  const refused = await h.call('PATCH', `/api/payments/package-payments/${declinedPaymentId}/disapprove`, { token: admin, body: { reason: 'Unreadable receipt' } });
  expect(refused.status).toBe(200);
});
afterAll(async () => t?.close());

describe('GET /api/admin/package-payments', () => {
  it('lists every package payment as a bare array with Content-Range, money in naira', async () => {
    const all = await list('package-payments', { range: [0, 49] });
    expect(all.status).toBe(200);
    expect(Array.isArray(all.rows)).toBe(true);
    expect(all.range).toMatch(/^package-payments 0-\d+\/\d+$/);
    expect(all.total).toBe(all.rows.length);
    expect(all.total).toBeGreaterThanOrEqual(5);
    const pending = all.rows.find((row) => row.id === waitingPaymentId);
    expect(pending).toMatchObject({
      member_id: waiting.id,
      full_name: 'Bola Waiting',
      username: waiting.username,
      package_name: 'Bronze',
      purpose: 'registration',
      method: 'receipt',
      payment_type: 'pop',
      amount: 35_000,
      status: 'pending',
      queue: 'pending',
      narration: 'Bronze registration by transfer',
      description: 'Bronze registration by transfer',
    });
    expect(pending?.receipt_url).toMatch(/^\/storage\/receipts\/.+/);
    const image = await t.app.inject({ method: 'GET', url: pending!.receipt_url });
    expect(image.statusCode).toBe(200);
    expect(all.rows.filter((row) => row.member_id === upgraded.id).map((row) => [row.purpose, row.package_name, row.amount]).sort()).toEqual([
      ['registration', 'Bronze', 35_000],
      ['upgrade', 'Gold', 70_000],
      ['upgrade', 'Silver', 35_000],
    ]);
  });

  it('filters by queue, status, purpose, member and q (name, username, reference), and sorts and pages', async () => {
    const pending = await list('package-payments', { filter: { queue: 'pending' } });
    expect(pending.rows.map((row) => row.id)).toEqual([waitingPaymentId]);
    const history = await list('package-payments', { filter: { queue: 'history' } });
    expect(history.rows.every((row) => row.method === 'receipt' && row.status !== 'pending')).toBe(true);
    expect(history.rows.map((row) => row.id)).toContain(declinedPaymentId);
    expect((await list('package-payments', { filter: { status: 'declined' } })).rows).toEqual([
      expect.objectContaining({ id: declinedPaymentId, status: 'declined', status_reason: 'Unreadable receipt' }),
    ]);
    expect((await list('package-payments', { filter: { status: ['pending', 'declined'] } })).total).toBe(2);
    const upgrades = await list('package-payments', { filter: { purpose: 'upgrade', member_id: upgraded.id } });
    expect(upgrades.rows.map((row) => row.package_name).sort()).toEqual(['Gold', 'Silver']);
    expect((await list('package-payments', { filter: { q: 'bola wait' } })).rows.map((row) => row.id)).toEqual([waitingPaymentId]);
    expect((await list('package-payments', { filter: { q: declined.username } })).rows.map((row) => row.id)).toEqual([declinedPaymentId]);
    expect((await list('package-payments', { filter: { amount_gte: 70_000 } })).rows.map((row) => row.package_name)).toEqual(['Gold']);

    const byAmount = await list('package-payments', { sort: ['amount', 'DESC'], range: [0, 1] });
    expect(byAmount.rows).toHaveLength(2);
    expect(byAmount.range).toBe(`package-payments 0-1/${byAmount.total}`);
    expect(byAmount.rows[0]!.amount).toBeGreaterThanOrEqual(byAmount.rows[1]!.amount);
    const second = await list('package-payments', { sort: ['amount', 'DESC'], range: [1, 1] });
    expect(second.rows[0]!.id).toBe(byAmount.rows[1]!.id);
    const none = await list('package-payments', { filter: { q: 'nobody-like-this' } });
    expect(none.range).toBe('package-payments */0');
    expect(none.rows).toEqual([]);
  });

  it('gives receipt payments the transfer reference the member was told to use; card checkouts have none and can be left out', async () => {
    const registration = await h.call('GET', `/api/admin/package-payments/${waitingPaymentId}`, { token: admin });
    expect(registration).toMatchObject({ status: 200, body: { transfer_reference: transferReference('registration', waiting.username) } });
    expect(transferReference('registration', waiting.username)).toMatch(/^HLN-REG-[A-Z0-9]+$/);
    const upgrades = await list('package-payments', { filter: { purpose: 'upgrade', member_id: upgraded.id } });
    expect(upgrades.rows.map((row) => [row.package_name, row.transfer_reference]).sort()).toEqual([
      ['Gold', transferReference('upgrade', upgraded.username, 4)],
      ['Silver', transferReference('upgrade', upgraded.username, 3)],
    ]);

    // Two Pay clicks on a card payment: two started checkouts, no transfer, no receipt, not pending.
    const carder = await h.registeredMember({ first_name: 'Chidi', last_name: 'Card' });
    for (let click = 0; click < 2; click++) {
      const started = await h.call('POST', '/api/payments/initiate', {
        token: carder.token,
        body: { amount: 35_000, description: 'Bronze registration', txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'payment_gateway' },
      });
      expect(started.status, started.body.message).toBe(200);
    }
    const cards = await list('package-payments', { filter: { member_id: carder.id } });
    expect(cards.rows.map((row) => [row.method, row.status, row.queue, row.transfer_reference, row.receipt_url])).toEqual([
      ['card', 'initiated', 'other', null, null],
      ['card', 'initiated', 'other', null, null],
    ]);
    expect((await list('package-payments', { filter: { member_id: carder.id, status_neq: 'initiated' } })).rows).toEqual([]);
    expect((await list('package-payments', { filter: { queue: 'pending' } })).rows.map((row) => row.member_id)).not.toContain(carder.id);
  });

  it('answers getMany and getOne, 404 for an unknown id, 422 for a bad filter', async () => {
    const many = await list('package-payments', { filter: { id: [waitingPaymentId, declinedPaymentId, 'not-a-uuid'] } });
    expect(many.rows.map((row) => row.id).sort()).toEqual([waitingPaymentId, declinedPaymentId].sort());
    const one = await h.call('GET', `/api/admin/package-payments/${waitingPaymentId}`, { token: admin });
    expect(one).toMatchObject({ status: 200, body: { id: waitingPaymentId, full_name: 'Bola Waiting', status: 'pending' } });
    expect(await h.call('GET', '/api/admin/package-payments/00000000-0000-4000-8000-000000000000', { token: admin })).toMatchObject({ status: 404, body: { message: 'Payment not found.' } });
    expect(await h.call('GET', '/api/admin/package-payments/nope', { token: admin })).toMatchObject({ status: 404 });
    expect((await list('package-payments', { filter: { colour: 'red' } })).status).toBe(422);
    expect((await list('package-payments', { filter: { amount_gte: 'lots' } })).status).toBe(422);
    expect((await list('package-payments', { sort: ['password', 'ASC'] })).status).toBe(422);
    expect((await h.call('GET', '/api/admin/package-payments?range=oops', { token: admin })).status).toBe(422);
  });

  it('is for staff only: a member gets 403, no session 401; finance reads but cannot approve or decline', async () => {
    expect((await list('package-payments', {}, waiting.token)).status).toBe(403);
    expect((await h.call('GET', '/api/admin/package-payments')).status).toBe(401);
    expect((await list('registrations', {}, waiting.token)).status).toBe(403);
    expect((await list('upgrades', {}, waiting.token)).status).toBe(403);
    const read = await list('package-payments', { filter: { queue: 'pending' } }, finance);
    expect(read.status).toBe(200);
    expect(read.rows.map((row) => row.id)).toEqual([waitingPaymentId]);
    expect((await h.call('PATCH', `/api/payments/package-payments/${waitingPaymentId}/approve`, { token: finance, body: {} })).status).toBe(403);
    expect((await h.call('PATCH', `/api/payments/package-payments/${waitingPaymentId}/disapprove`, { token: finance, body: { reason: 'x' } })).status).toBe(403);
    expect((await h.call('GET', `/api/admin/package-payments/${waitingPaymentId}`, { token: admin })).body).toMatchObject({ status: 'pending' });
  });
});

describe('registrations and upgrades', () => {
  it('lists paid registrations with the registered package, amount and upgrade count', async () => {
    const registrations = await list('registrations', { range: [0, 49] });
    expect(registrations.status).toBe(200);
    expect(registrations.range).toMatch(/^registrations 0-\d+\/\d+$/);
    const row = registrations.rows.find((r) => r.id === upgraded.id);
    expect(row).toMatchObject({ full_name: 'Ngozi Upgrader', username: upgraded.username, package_name: 'Bronze', current_package_name: 'Gold', amount: 35_000, upgrades: 2, payment_type: 'pop' });
    // Unpaid and declined registrations, and the company root activated without a payment, are not paid registrations.
    expect(registrations.rows.map((r) => r.id)).not.toContain(waiting.id);
    expect(registrations.rows.map((r) => r.id)).not.toContain(declined.id);
    expect((await list('registrations', { filter: { q: 'ngozi' } })).rows.map((r) => r.id)).toEqual([upgraded.id]);
    expect((await list('registrations', { filter: { id: [upgraded.id] } })).rows).toHaveLength(1);
    expect((await h.call('GET', `/api/admin/registrations/${upgraded.id}`, { token: finance })).body).toMatchObject({ id: upgraded.id, upgrades: 2 });
    expect((await h.call('GET', `/api/admin/registrations/${waiting.id}`, { token: admin })).status).toBe(404);
  });

  it('lists approved upgrades with the packages held before, newest first', async () => {
    const upgrades = await list('upgrades', { filter: { member_id: upgraded.id } });
    expect(upgrades.rows.map((row) => [row.previous_packages, row.package_name, row.amount])).toEqual(
      expect.arrayContaining([
        [['Bronze'], 'Silver', 35_000],
        [['Bronze', 'Silver'], 'Gold', 70_000],
      ]),
    );
    expect(upgrades.total).toBe(2);
    const gold = upgrades.rows.find((row) => row.package_name === 'Gold')!;
    expect(gold).toMatchObject({ full_name: 'Ngozi Upgrader', username: upgraded.username, previous_package_name: 'Silver', status: 'approved' });
    expect((await h.call('GET', `/api/admin/upgrades/${gold.id}`, { token: admin })).body).toMatchObject({ id: gold.id, package: 'Gold' });
    expect((await list('upgrades', { sort: ['full_name', 'ASC'] })).status).toBe(200);
  });
});

describe('approving a pending receipt from the Pending Approvals table', () => {
  it('runs the catalogue command path: the member is activated and the payment leaves the pending list', async () => {
    const before = await h.call('GET', '/api/auth/user', { token: waiting.token });
    expect(before.body.data.payment).not.toBe('approved');
    const approved = await h.call('PATCH', `/api/payments/package-payments/${waitingPaymentId}/approve`, { token: admin, body: {} });
    expect(approved).toMatchObject({ status: 200, body: { message: 'Payment approved successfully' } });
    expect((await h.call('GET', '/api/auth/user', { token: waiting.token })).body.data).toMatchObject({ payment: 'approved', is_deactivated: false });
    expect((await list('package-payments', { filter: { queue: 'pending' } })).rows).toEqual([]);
    expect((await list('package-payments', { filter: { queue: 'history' } })).rows.map((row) => row.id)).toContain(waitingPaymentId);
    expect((await h.call('GET', `/api/admin/package-payments/${waitingPaymentId}`, { token: admin })).body).toMatchObject({ status: 'approved', queue: 'history' });
    expect((await list('registrations', { filter: { q: waiting.username } })).rows).toEqual([expect.objectContaining({ id: waiting.id, package_name: 'Bronze', amount: 35_000, upgrades: 0 })]);
    const [event] = await t.runtime.db.selectFrom('events').select(['type', 'metadata']).where('stream_id', '=', `package-payment-${waitingPaymentId}`).where('type', '=', 'PackagePaymentApproved').execute();
    expect((event?.metadata as { actor: { type: string } }).actor.type).toBe('admin');
  });
});

describe('the catalogue paid-user reads (seed 002 §7, Users)', () => {
  it('counts registrations and paid users, sums what they paid, and pages, searches and lists upgrades', async () => {
    const registrations = await list('registrations', { range: [0, 99] });
    const members = await t.runtime.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('is_root', '=', false).executeTakeFirstOrThrow();

    const total = await h.call('GET', '/api/users/total-registrations', { token: admin });
    expect(total).toMatchObject({ status: 200, body: { success: true, data: Number(members.n) } });
    const paid = await h.call('GET', '/api/users/total-paid-users', { token: finance });
    expect(paid).toMatchObject({ status: 200, body: { success: true, data: registrations.total } });
    const sum = await h.call('GET', '/api/users/sum-paid-users', { token: admin });
    expect(sum.body).toMatchObject({ success: true, data: registrations.rows.reduce((acc, row) => acc + row.amount, 0) });
    expect(sum.body.data).toBeGreaterThanOrEqual(70_000);

    const page = await h.call('GET', '/api/users/paid-users?page=1', { token: admin });
    expect(page).toMatchObject({ status: 200, body: { success: true, data: { current_page: 1, last_page: 1, total: registrations.total } } });
    expect(page.body.data.per_page).toBeGreaterThan(0);
    expect(page.body.data.data.find((row: { uuid: string }) => row.uuid === upgraded.id)).toMatchObject({ first_name: 'Ngozi', last_name: 'Upgrader', name: 'Bronze', amount: 35_000 });
    const beyond = await h.call('GET', '/api/users/paid-users?page=9', { token: admin });
    expect(beyond.body.data).toMatchObject({ data: [], current_page: 9 });

    const search = await h.call('GET', `/api/users/search-paid-users?page=1&search=${encodeURIComponent('Bola')}`, { token: admin });
    expect(search.body.data.data.map((row: { uuid: string }) => row.uuid)).toEqual([waiting.id]);
    const noMatch = await h.call('GET', '/api/users/search-paid-users?search=zzzz-nobody', { token: admin });
    expect(noMatch.body).toMatchObject({ success: true, message: 'There are not active user registrations', data: { data: [], total: 0 } });

    const upgradedUsers = await h.call('GET', '/api/users/upgraded-users', { token: admin });
    expect(upgradedUsers.status).toBe(200);
    expect(upgradedUsers.body.data.total).toBe(2);
    expect(upgradedUsers.body.data.data[0]).toMatchObject({ first_name: 'Ngozi', username: upgraded.username });
    expect(upgradedUsers.body.data.data.map((row: { package: string; previous_packages: string[] }) => [row.package, row.previous_packages])).toEqual(
      expect.arrayContaining([['Gold', ['Bronze', 'Silver']], ['Silver', ['Bronze']]]),
    );

    for (const path of ['total-registrations', 'paid-users', 'total-paid-users', 'sum-paid-users', 'search-paid-users?search=a', 'upgraded-users']) {
      expect((await h.call('GET', `/api/users/${path}`, { token: waiting.token })).status, path).toBe(403);
      expect((await h.call('GET', `/api/users/${path}`)).status, path).toBe(401);
    }
  });
});
