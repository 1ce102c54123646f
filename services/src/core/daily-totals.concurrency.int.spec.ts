import { randomUUID } from 'node:crypto';
import { type KyselyPlugin, type QueryId, TableNode, UpdateQueryNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { eventually } from '../../test/eventually';
import { registerMember } from '../membership/commands';
import { decideByAdmin, startPackagePayment } from '../payments/commands';
import { seedDemoCompany } from '../seed/demo-company';
import type { CommandContext } from './command';
import { type Db, createDb } from './db';
import type { EventMetadata } from './event-store';

/**
 * Admins approving, at once, activations of members registered today and upgrades of members
 * activated today never deadlock on the daily totals (daily-totals.ts), and leave each totals table
 * equal to its read table counted afresh. Both move today's rows of daily_member_totals; the
 * mechanism before 3e5fdf2 took an activation's rows away before its write and added them after,
 * locking them in another order than an upgrade, and the two deadlocked (40P01). Each activation is
 * held after its members write (between the totals' before and after) until its upgrade has finished
 * or waits for a lock, so that interleaving happens in every pair, not by luck (the old mechanism
 * deadlocks every pair; unheld, only some rounds). Activations queue on each other at their payment
 * totals row, upgrades likewise: an activation and an upgrade are what meet. runInTransaction
 * re-runs only concurrency conflicts, so a deadlock surfaces as the command's error.
 */
const PAIRS = 4;
const ROUNDS = 4;
const now = new Date().toISOString(); // every event on one Lagos day: today
const approve = { type: 'approve' } as const;
const ctx = (db: Db): CommandContext => ({ db, onCommitted: () => {} });
let adminMetadata: EventMetadata;

let t: TestDatabase;
let activations: Db;
let upgrades: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  // Each role on its own connections, named, so pg_stat_activity tells an upgrade waiting for a lock.
  activations = createDb(t.url, { max: PAIRS, applicationName: 'approving-activations' });
  upgrades = createDb(t.url, { max: PAIRS, applicationName: 'approving-upgrades' });
});
afterAll(async () => {
  await activations?.destroy();
  await upgrades?.destroy();
  await t?.drop();
});

async function registered(packageId: number): Promise<string> {
  const tag = randomUUID().slice(0, 8);
  const outcome = await registerMember(ctx(t.db), {
    first_name: 'Ada', last_name: 'Obi', username: `ada_${tag}`, email: `ada_${tag}@example.test`, phone: '08031234567',
    password: 'unused', passwordHash: 'unused', package_id: packageId, referrer: '', placer: '',
  }, { actor: { type: 'anonymous', id: null }, now });
  return outcome.memberId;
}

/** A receipt for the member's registration (or an upgrade to `upgradeTo`), awaiting an admin. */
async function receipt(memberId: string, upgradeTo?: number): Promise<string> {
  const { paymentId } = await startPackagePayment(ctx(t.db), {
    memberId, purpose: upgradeTo ? 'upgrade' : 'registration', method: 'pop', targetPackageId: upgradeTo ?? null,
    amountNaira: null, description: 'Receipt', receiptPath: 'receipts/test.png',
  }, { actor: { type: 'member', id: memberId }, now });
  return paymentId;
}

/** Calls `held` once, after the first `update members` of a transaction on this executor, before its caller goes on. */
function heldAfterMembersWrite(held: () => Promise<void>): KyselyPlugin {
  const writes = new Set<QueryId>();
  let done = false;
  return {
    transformQuery: ({ node, queryId }) => {
      if (UpdateQueryNode.is(node) && node.table && TableNode.is(node.table) && node.table.table.identifier.name === 'members') writes.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (writes.delete(queryId) && !done) {
        done = true;
        await held();
      }
      return result;
    },
  };
}

const outcome = (command: Promise<void>): Promise<string> => command.then(() => 'ok', (error: { code?: string; message?: string }) => error.code ?? String(error.message));

/**
 * The activation's approval, held after its members write while the upgrade's approval runs until
 * it finishes or waits for a lock: the outcomes of both.
 */
async function approvedTogether(activationPayment: string, upgradePayment: string): Promise<string[]> {
  let upgrading: Promise<string> | undefined;
  let upgradeSettled = false;
  const held = async () => {
    upgrading = outcome(decideByAdmin(ctx(upgrades), upgradePayment, approve, adminMetadata)).finally(() => (upgradeSettled = true));
    await eventually(
      async () => (await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'approving-upgrades' and wait_event_type = 'Lock'`.execute(t.db)).rows[0]!.n,
      (waiting) => upgradeSettled || waiting > 0,
      'the upgrade to finish or wait for a lock',
    );
  };
  const activated = await outcome(decideByAdmin(ctx(activations.withPlugin(heldAfterMembersWrite(held))), activationPayment, approve, adminMetadata));
  return [activated, upgrading ? await upgrading : 'the activation never wrote its member'];
}

async function tableAndCount(table: string, counted: string): Promise<{ table: unknown[]; counted: unknown[] }> {
  const rows = async (query: string) => (await sql<{ row: unknown }>`${sql.raw(query)}`.execute(t.db)).rows.map((r) => r.row);
  return {
    table: await rows(`select jsonb_build_object('day', day, 'key', key, 'n', n, 'amount', amount) as row from ${table} order by day, key`),
    counted: await rows(`select jsonb_build_object('day', day, 'key', key, 'n', n, 'amount', amount) as row from (${counted}) c order by day, key`),
  };
}

describe('the daily totals under concurrent approvals', () => {
  it("never deadlock an activation and an upgrade of today's members, and stay the read tables summed", async () => {
    await seedDemoCompany(ctx(t.db), new Date(now));
    const admin = await t.db.selectFrom('admins').select('id').limit(1).executeTakeFirstOrThrow();
    adminMetadata = { actor: { type: 'admin', id: admin.id }, now };
    // Members activated today, on the smallest package: each round upgrades them one package up.
    const upgraders: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const memberId = await registered(1);
      await decideByAdmin(ctx(t.db), await receipt(memberId), approve, adminMetadata);
      upgraders.push(memberId);
    }

    for (let round = 0; round < ROUNDS; round++) {
      const pairs: Array<[string, string]> = [];
      for (const upgrader of upgraders) pairs.push([await receipt(await registered(2)), await receipt(upgrader, 2 + round)]);
      const outcomes = await Promise.all(pairs.map(([activation, upgrade]) => approvedTogether(activation, upgrade)));
      expect(outcomes, `round ${round + 1}: every approval succeeded`).toEqual(pairs.map(() => ['ok', 'ok']));
    }

    const members = await tableAndCount('daily_member_totals', `
      select (case k.key when 'active' then m.activated_at else m.created_at end at time zone 'Africa/Lagos')::date as day, k.key, count(*) as n,
        sum(case k.key when 'pv' then m.personal_pv else 0 end) as amount
      from members m cross join (values ('registered'), ('active'), ('pv')) as k(key)
      where case k.key when 'registered' then not m.is_root when 'active' then m.activated_at is not null and not m.deactivated else true end
      group by 1, 2`);
    expect(members.table, 'the daily member totals are the members counted').toEqual(members.counted);
    expect(members.table).toContainEqual(expect.objectContaining({ key: 'active', n: 1 + PAIRS * (1 + ROUNDS) }));
    const payments = await tableAndCount('daily_payment_totals', `
      select (coalesce(decided_at, updated_at) at time zone 'Africa/Lagos')::date as day, purpose as key, count(*) as n, sum(coalesce(amount_paid, amount_due)) as amount
      from package_payments where status = 'approved' group by 1, 2`);
    expect(payments.table, 'the daily payment totals are the approved payments summed').toEqual(payments.counted);
    expect(payments.table).toContainEqual(expect.objectContaining({ key: 'upgrade', n: PAIRS * ROUNDS }));
  });
});
