import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../test/app';
import { settleConsumers } from '../test/consumers';
import { httpHelpers } from '../test/http';
import { tinyPng } from '../test/multipart';
import { appendToStream } from './core/event-store';
import { compareWithLive, discardRebuild } from './core/rebuild';
import { memberStream } from './membership/events';
import { projectMembers } from './membership/projections';
import { closeMatchingCycle } from './matching/commands';
import { dueCycleEnds } from './matching/policies';
import { type ReadModel, findReadModel, operationalTables, readModels, rebuildReadModel } from './read-models';
import { companyDate } from './wallet/payout-schedule';

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
type Member = Awaited<ReturnType<ReturnType<typeof httpHelpers>['registeredMember']>>;
let a: Member; // sponsor of everyone: earns the bonuses, withdraws, claims an incentive
let b: Member; // paid by card, repurchases by card
let d: Member; // upgrades, becomes a stockist
const receipt = { payment_receipt: { bytes: tinyPng(), filename: 'receipt.png', type: 'image/png' } };
const productId = new Map<string, number>();
const MORINGA = 'Moringa Leaf Capsules'; // ₦8,500, 2 PV
const BLACK_SEED = 'Black Seed Oil 100 ml'; // ₦12,000, 3 PV

async function ok(response: Promise<{ status: number; body: { message: string; data: any } }>) {
  const answer = await response;
  expect(answer.status, answer.body.message).toBe(200);
  return answer.body.data;
}

/** A card payment of the member's registration, completed at the provider and verified by the member. */
async function payRegistrationByCard(member: Member, packageId: number, naira: number) {
  const started = await ok(h.call('POST', '/api/payments/initiate', { token: member.token, body: { amount: naira, description: 'Registration', txn_source: 'package_payment', is_upgrade: 0, meta_data: packageId, payment_type: 'payment_gateway' } }));
  await t.paystack.completeCheckout(started.access_code, 'success');
  await ok(h.call('POST', '/api/payments/verify', { token: member.token, body: { reference: started.reference } }));
}

/** The back office's resources answer the record itself (react-admin), not an envelope. */
async function okRecord(response: Promise<{ status: number; body: any }>) {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

const withdraw = (member: Member, naira: number) => ok(h.call('POST', `/api/withdrawals/${member.id}/initiate`, { token: member.token, body: { amount: naira } }));

/** Waits (polled, bounded) until the transfer's webhook has settled the withdrawal. */
async function settledWithdrawal(id: string, expected: string) {
  for (let i = 0; i < 100; i++) {
    await t.paystack.whenIdle();
    const row = await t.runtime.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    if (row.status === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`withdrawal ${id} never became ${expected}`);
}

/** A realistic run through the real app: every inline read model and every projection gets rows. */
async function realisticRun() {
  // Settings and the bonus tables change, and the catalogue: a new product, a package renamed, a bank removed.
  await ok(h.call('PUT', '/api/settings/update', { token: admin, body: { withdrawal_type: null, withdrawal_charge_type: 'flat', charge: 100, minimum_withdrawal: 1_000 } }));
  await ok(h.call('PUT', '/api/settings/update-referral-bonus/2', { token: admin, body: { generation_1_percentage: 12 } }));
  const product = await okRecord(h.call('POST', '/api/admin/products', { token: admin, body: { name: 'Bitter Kola', worth: 1_000, points: 1 } }));
  await okRecord(h.call('PUT', `/api/admin/products/${product.id}`, { token: admin, body: { worth: 1_200 } }));
  await okRecord(h.call('PUT', '/api/admin/packages/1', { token: admin, body: { name: 'Starter' } }));
  const bank = await okRecord(h.call('POST', '/api/admin/company-banks', { token: admin, body: { bank_name: 'Test Bank', bank_account_name: 'Herbal HQ', bank_account_number: '0011223344' } }));
  await okRecord(h.call('DELETE', `/api/admin/company-banks/${bank.id}`, { token: admin }));

  // Registrations: by receipt (one declined first), by card, one never paid; profiles and bank details.
  a = await h.activeMember({ referrer: 'herbalhq', package_id: 3 }, { asParent: true });
  b = await h.registeredMember({ referrer: a.username, package_id: 3 });
  await payRegistrationByCard(b, 3, 70_000);
  const c = await h.registeredMember({ referrer: a.username, package_id: 2 });
  await h.decideReceipt(await h.uploadReceipt(c), 'disapprove');
  await h.payByReceipt(c);
  d = await h.activeMember({ referrer: a.username, package_id: 3 });
  await h.registeredMember({ referrer: a.username, package_id: 2 }); // never pays
  await ok(h.call('PUT', `/api/users/${a.id}/update`, { token: a.token, body: { first_name: 'Adaeze', last_name: 'Obi', phone: '08030000001' } }));
  await ok(h.call('PUT', `/api/users/${a.id}/update-bank-details`, { token: a.token, body: { bank_name: 'Test Bank', bank_code: '001', bank_account_number: '0123456789' } }));
  await ok(h.call('PUT', `/api/users/${a.id}/bank-editable`, { token: admin, body: { bank_editable: true } }));
  await ok(h.call('PUT', `/api/users/${c.id}/toggle-2fa`, { token: c.token, body: { enable_2fa: true } }));
  await ok(h.call('PUT', '/api/users/withdrawal-amount', { token: a.token, body: { withdrawal_amount: 2_000 } }));
  // A bonus held and released: p's own receipt awaits an admin when q, registered under p, is
  // activated; p's referral bonus is held, then credited when p's payment is approved.
  const p = await h.registeredMember({ referrer: a.username, package_id: 2 }, { asParent: true });
  const pReceipt = await h.uploadReceipt(p);
  const q = await h.registeredMember({ referrer: p.username, package_id: 2 });
  await h.payByReceipt(q);
  await settleConsumers(t.runtime.db);
  await h.decideReceipt(pReceipt, 'approve');
  // An upgrade by receipt: d from Silver to Gold.
  await h.payByReceipt(d, { upgradeTo: 4 });
  await settleConsumers(t.runtime.db);

  // Withdrawals from the bonuses: one paid, one failed (returned to the wallet).
  const paid = await withdraw(a, 2_000);
  await settledWithdrawal(paid.id, 'successful');
  t.paystack.setTransferMode('fail');
  try {
    const failed = await withdraw(a, 1_500);
    await settledWithdrawal(failed.id, 'failed');
  } finally {
    t.paystack.setTransferMode('success');
  }

  // Repurchases: by card (b), from the wallet (a).
  for (const p of (await ok(h.call('GET', '/api/products/active', { token: b.token }))) as Array<{ id: number; name: string }>) productId.set(p.name, p.id);
  const cart = { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: 12_000, products: [{ id: productId.get(BLACK_SEED), qty: 1 }], total_price: 12_000, total_points: 3, total_quantity: 1 };
  const started = await ok(h.call('POST', '/api/payments/initiate', { token: b.token, body: { ...cart, payment_type: 'payment_gateway' } }));
  await t.paystack.completeCheckout(started.access_code, 'success');
  await ok(h.call('POST', '/api/payments/verify', { token: b.token, body: { reference: started.reference } }));
  await settleConsumers(t.runtime.db);
  await ok(h.call('PATCH', '/api/withdrawals/pay-with-wallet', { token: a.token, body: { txn_source: 'member_product_purchase', pickup_type: 'repurchase_pickup', description: 'Repurchase', amount: 8_500, products: [{ id: productId.get(MORINGA), qty: 1 }] } }));

  // The stockist flow: d applies under a as signee, is approved, a stock purchase is declined, the next approved.
  const applied = await ok(h.upload('POST', '/api/stockists/create', { token: d.token, fields: { store_name: 'Ikeja Herbs', store_address: '12 Allen Avenue, Ikeja', store_state: 'Lagos', store_phone: '08031234567', package_id: 1, referrer: a.username }, files: receipt }));
  await ok(h.call('PATCH', `/api/stockists/${applied.payment_id}/approve-registration`, { token: admin }));
  await ok(h.call('PUT', `/api/stockists/${applied.id}/update`, { token: d.token, body: { store_name: 'Ikeja Herbs & Roots', store_address: '12 Allen Avenue, Ikeja', store_state: 'Lagos', store_phone: '08031234567' } }));
  const stock = (qty: number) => h.upload('POST', `/api/product-purchases/stockist/${d.id}`, { token: d.token, fields: { pickup_type: 'registration_pickup', products: JSON.stringify([{ id: productId.get(MORINGA), qty }]) }, files: receipt });
  const declined = await ok(stock(3));
  await ok(h.call('PATCH', `/api/product-purchases/${declined.id}/disapprove-stock`, { token: admin, body: { reason: 'No payment' } }));
  const bought = await ok(stock(5));
  await ok(h.call('PATCH', `/api/product-purchases/${bought.id}/approve-stock`, { token: admin }));

  // An incentive claimed by a (Associate, the polo shirt), approved: award bonuses follow.
  const claim = await ok(h.call('POST', `/api/incentive-claims/${a.id}/create`, { token: a.token, body: { rank_id: 1, incentive_id: 1 } }));
  await ok(h.call('PUT', `/api/incentive-claims/${claim.id}/approve`, { token: admin }));
  await settleConsumers(t.runtime.db);

  // Two matching cycles, paid by the points policy (matching/matching.int.spec.ts compares a run
  // with paid, capped and not qualified members and carried volume paid in a later cycle).
  const latest = dueCycleEnds({ today: companyDate(t.clock.now), frequencyDays: 7, lastClosed: null })[0]!;
  const weekBefore = new Date(Date.parse(`${latest}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
  for (const cycleEnd of [weekBefore, latest]) {
    expect((await closeMatchingCycle(t.runtime.commands, cycleEnd, t.clock.now)).closed).toBe(true);
    await settleConsumers(t.runtime.db);
  }
}

async function rowCount(table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.runtime.db);
  return rows[0]!.n;
}

/** Rebuilds beside the live tables (no swap) and compares every row of every table with the live ones. */
async function rebuiltEqualsLive(model: ReadModel) {
  const { schema } = await rebuildReadModel(t.runtime.db, model, { swap: false });
  try {
    expect(await compareWithLive(t.runtime.db, schema, model.tables), `${model.name}: rows only live / only rebuilt`).toEqual([]);
  } finally {
    await discardRebuild(t.runtime.db, model.name, { inline: model.kind !== 'projection' });
  }
}

beforeAll(async () => {
  t = await createTestApp();
  h = httpHelpers(t);
  admin = await h.adminToken();
  await realisticRun();
}, 240_000);
afterAll(async () => t.close());

describe('the registry of read models', () => {
  it('classifies every table of the schema once: a read model owns it, or it is operational state', async () => {
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(t.runtime.db);
    const owned = readModels.flatMap((model) => model.tables);
    const classified = [...owned, ...Object.keys(operationalTables)];
    expect(new Set(classified).size, 'a table classified twice').toBe(classified.length);
    expect(classified.sort()).toEqual(rows.map((r) => r.table_name).sort());
    expect(new Set(readModels.map((m) => m.name)).size).toBe(readModels.length);
    // Each names the types it reads, but a projection of every event (the explorer's event-search) names none.
    for (const model of readModels) if (!model.consumer || model.consumer.eventTypes) expect(model.eventTypes.length, model.name).toBeGreaterThan(0);
  });
});

describe('every read model rebuilt from the log equals the live one, row for row', () => {
  it('the run gave every read model rows to compare', async () => {
    for (const model of readModels) {
      const counts = await Promise.all(model.tables.map(rowCount));
      expect(counts.reduce((x, y) => x + y, 0), model.name).toBeGreaterThan(0);
    }
    // The flows the comparison covers happened: card and receipt payments, paid and failed withdrawals, a stockist.
    const statuses = await t.runtime.db.selectFrom('withdrawals').select('status').execute();
    expect(statuses.map((s) => s.status).sort()).toEqual(['failed', 'successful']);
    const methods = await t.runtime.db.selectFrom('package_payments').select(['method', 'status']).execute();
    expect(methods).toEqual(expect.arrayContaining([{ method: 'payment_gateway', status: 'approved' }, { method: 'pop', status: 'approved' }, { method: 'pop', status: 'declined' }]));
    expect((await t.runtime.db.selectFrom('members').select('is_stockist').where('id', '=', d.id).executeTakeFirstOrThrow()).is_stockist).toBe(true);
    expect((await t.runtime.db.selectFrom('member_points').select('rank_id').where('member_id', '=', a.id).executeTakeFirstOrThrow()).rank_id).not.toBeNull();
    // A bonus was held and then released by the approval.
    expect(await t.runtime.db.selectFrom('held_bonuses').select('resolution').execute()).toEqual(expect.arrayContaining([{ resolution: 'credited' }]));
  });

  for (const model of readModels) {
    it(`${model.name} (${model.kind}: ${model.tables.join(', ')})`, async () => {
      await rebuiltEqualsLive(model);
    });
  }
});

describe("a policy's working state rebuilt at the policy's checkpoint", () => {
  it('member points: repaired in place; volumes the policy has not applied yet are left for it, not doubled', async () => {
    const model = findReadModel('member-points')!;
    const points = async () => (await sql<Record<string, unknown>>`select * from member_points order by member_id`.execute(t.runtime.db)).rows;
    const before = await points();
    expect(before.length).toBeGreaterThan(3);
    expect((await rebuildReadModel(t.runtime.db, model)).swapped).toEqual([{ table: 'member_points', removed: 0, added: 0 }]);

    // Damage: a's volume changed by hand, b's row lost.
    await sql`update member_points set cpv = cpv + 5, left_pv = left_pv + 5 where member_id = ${a.id}`.execute(t.runtime.db);
    await sql`delete from member_points where member_id = ${b.id}`.execute(t.runtime.db);
    expect((await rebuildReadModel(t.runtime.db, model)).swapped).toEqual([{ table: 'member_points', removed: 1, added: 2 }]);
    expect(await points()).toEqual(before);

    // PV recorded but not applied by the policy yet (no worker runs here until settleConsumers): the
    // rebuild stops at the policy's checkpoint, and the policy then applies it once.
    const e = await h.activeMember({ referrer: a.username, package_id: 2 });
    await rebuildReadModel(t.runtime.db, model);
    expect((await sql`select 1 from member_points where member_id = ${e.id}`.execute(t.runtime.db)).rows).toEqual([]);
    await settleConsumers(t.runtime.db);
    const after = await points();
    const cpv = (rows: Record<string, unknown>[], id: string) => Number(rows.find((r) => r.member_id === id)!.cpv);
    const pvOfE = Number((after.find((r) => r.member_id === e.id) as { personal_pv: number }).personal_pv);
    expect(pvOfE).toBeGreaterThan(0);
    expect(cpv(after, a.id)).toBe(cpv(before, a.id) + pvOfE);
    await rebuiltEqualsLive(model);
  });
});

describe('swapping a rebuilt inline read model in', () => {
  it('changes nothing in tables that were right, and repairs tables that were not', async () => {
    const members = findReadModel('members')!;
    const payments = findReadModel('package-payments')!;
    const untouched = await rebuildReadModel(t.runtime.db, members);
    expect(untouched.swapped).toEqual([{ table: 'members', removed: 0, added: 0 }, { table: 'daily_member_totals', removed: 0, added: 0 }]);

    // Damage as a bad deploy or a hand edit would: a changed name, a lost payment, a row no event made.
    const before = await t.runtime.db.selectFrom('members').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();
    await t.runtime.db.updateTable('members').set({ first_name: 'Tampered' }).where('id', '=', b.id).execute();
    const paymentsOfB = () => t.runtime.db.selectFrom('package_payments').selectAll().where('member_id', '=', b.id).orderBy('id').execute();
    const paymentsBefore = await paymentsOfB();
    const lost = paymentsBefore[0]!;
    await t.runtime.db.deleteFrom('package_payments').where('id', '=', lost.id).execute();
    await t.runtime.db.insertInto('package_payments').values({ ...lost, id: '00000000-0000-4000-8000-000000000001', reference: 'made-up' }).execute();

    expect((await rebuildReadModel(t.runtime.db, members)).swapped).toEqual([{ table: 'members', removed: 1, added: 1 }, { table: 'daily_member_totals', removed: 0, added: 0 }]);
    expect((await rebuildReadModel(t.runtime.db, payments)).swapped).toEqual([
      { table: 'package_payments', removed: 1, added: 1 },
      { table: 'daily_payment_totals', removed: 0, added: 0 },
    ]);
    expect(await t.runtime.db.selectFrom('members').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(await paymentsOfB()).toEqual(paymentsBefore);
    await rebuiltEqualsLive(members);
    await rebuiltEqualsLive(payments);
    const { rows } = await sql`select 1 from information_schema.schemata where schema_name like 'rebuild_%'`.execute(t.runtime.db);
    expect(rows).toEqual([]);
  });
});

describe('a swap under live traffic loses and doubles no event', () => {
  const members = () => findReadModel('members')!;
  const detailsOf = (member: Member) => t.runtime.db.selectFrom('members').select(['first_name', 'enable_2fa']).where('id', '=', member.id).executeTakeFirstOrThrow();

  it('a command committed after the last catch-up is applied under the lock, not lost', async () => {
    const result = await rebuildReadModel(t.runtime.db, members(), {
      beforeSwap: async () => void (await ok(h.call('PUT', `/api/users/${b.id}/update`, { token: b.token, body: { first_name: 'Bisi', last_name: 'Ade', phone: '08030000002' } }))),
    });
    expect(result.swapped).toEqual([{ table: 'members', removed: 0, added: 0 }, { table: 'daily_member_totals', removed: 0, added: 0 }]);
    expect((await detailsOf(b)).first_name).toBe('Bisi');
    await rebuiltEqualsLive(members());
  });

  it('a command that wrote the table and has not committed holds the swap off until it commits', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    // A command's transaction as every command runs it: append, project inline, (here: wait), commit.
    const command = t.runtime.db.transaction().execute(async (trx) => {
      const events = await appendToStream(trx, memberStream(b.id), [{ type: 'MemberTwoFactorChanged', data: { member_id: b.id, enabled: true } }], {
        expectedVersion: 'any',
        metadata: { actor: { type: 'member', id: b.id }, now: new Date().toISOString() },
      });
      await projectMembers(trx, events);
      wrote();
      await released;
    });
    await written;
    let busy = 0;
    let result: Awaited<ReturnType<typeof rebuildReadModel>>;
    try {
      result = await rebuildReadModel(t.runtime.db, members(), {
        onLockBusy: () => {
          busy++;
          if (busy === 3) release();
        },
      });
    } finally {
      release();
      await command;
    }
    expect(busy).toBeGreaterThanOrEqual(3);
    expect(result.swapped).toEqual([{ table: 'members', removed: 0, added: 0 }, { table: 'daily_member_totals', removed: 0, added: 0 }]);
    expect((await detailsOf(b)).enable_2fa).toBe(true);
    await rebuiltEqualsLive(members());
  });

  it('a command that appended but writes the table only after the swap keeps its write, applied once', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const hasAppended = new Promise<void>((resolve) => (appended = resolve));
    const command = t.runtime.db.transaction().execute(async (trx) => {
      const events = await appendToStream(trx, memberStream(b.id), [{ type: 'MemberTwoFactorChanged', data: { member_id: b.id, enabled: false } }], {
        expectedVersion: 'any',
        metadata: { actor: { type: 'member', id: b.id }, now: new Date().toISOString() },
      });
      appended();
      await released;
      await projectMembers(trx, events);
    });
    await hasAppended;
    // The swap does not wait for it (it holds no lock on members yet) and cannot see its event.
    let result: Awaited<ReturnType<typeof rebuildReadModel>>;
    try {
      result = await rebuildReadModel(t.runtime.db, members());
    } finally {
      release();
      await command;
    }
    expect(result.swapped).toEqual([{ table: 'members', removed: 0, added: 0 }, { table: 'daily_member_totals', removed: 0, added: 0 }]);
    expect((await detailsOf(b)).enable_2fa).toBe(false);
    await rebuiltEqualsLive(members());
  });

  it('registrations, profile changes and payments racing repeated rebuilds of members and payments leave both equal to the log', async () => {
    const traffic = (async () => {
      for (let round = 0; round < 4; round++) {
        const joined = h.registeredMember({ referrer: a.username, package_id: 2 });
        const renamed = ok(h.call('PUT', `/api/users/${b.id}/update`, { token: b.token, body: { first_name: `Bisi${round}`, last_name: 'Ade', phone: '08030000002' } }));
        const member = await joined;
        await renamed;
        await h.payByReceipt(member);
      }
    })();
    const swaps: Array<{ table: string; removed: number; added: number }[] | null> = [];
    let done = false;
    void traffic.finally(() => (done = true));
    while (!done) {
      swaps.push((await rebuildReadModel(t.runtime.db, members())).swapped);
      swaps.push((await rebuildReadModel(t.runtime.db, findReadModel('package-payments')!)).swapped);
    }
    await traffic;
    // The live tables were right all along: every swap found nothing to change.
    expect(swaps.flat().filter((s) => s!.removed || s!.added)).toEqual([]);
    await rebuiltEqualsLive(members());
    await rebuiltEqualsLive(findReadModel('package-payments')!);
  });
});
