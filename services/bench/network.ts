import { sql } from 'kysely';
import { consumers } from '../src/consumers';
import { type CommandContext, runInTransaction } from '../src/core/command';
import { type Consumer, drainConsumer } from '../src/core/consumers';
import type { Db } from '../src/core/db';
import { type EventMetadata, appendToStreams } from '../src/core/event-store';
import type { MemberActivated, MemberRegistered, PlacementLeg } from '../src/membership/events';
import { memberStream } from '../src/membership/events';
import { registrationAppends } from '../src/membership/commands';
import { settlingPaymentAppends } from '../src/payments/commands';
import { projectMembers } from '../src/membership/projections';

/**
 * Networks for the compensation benchmarks, built in bulk. Members are real: their
 * MemberRegistered and MemberActivated events are appended with appendToStreams (1,000 member
 * streams per transaction, a few round trips each) and projected by the same inline projection
 * a registration runs (projectMembers), so every consumer later finds the log and the tables as
 * if the members had joined one by one. Not done: passwords, e-mail confirmation, unique-key
 * reservations (usernames are unique by construction) and payments: the activations carry no
 * payment id, like the seeded root's, so the compensation policy pays nothing for them, and no
 * PV, so the points policy does not walk the tree 10,000 times while the setup is caught up.
 */

export type BulkMember = {
  id: string;
  username: string;
  sponsorId: string;
  placementParentId: string;
  leg: PlacementLeg;
  packageId: number;
};

const MEMBERS_PER_TRANSACTION = 1000;

export function commandContext(db: Db): CommandContext {
  return { db, onCommitted: () => undefined };
}

export const benchMetadata = (now: Date): EventMetadata => ({ actor: { type: 'system', id: 'bench' }, now: now.toISOString(), causation_id: null, correlation_id: 'bench-network' });

const registered = (m: BulkMember): MemberRegistered => ({
  type: 'MemberRegistered',
  data: {
    member_id: m.id,
    username: m.username,
    email: `${m.username}@bench.test`,
    first_name: 'Bench',
    last_name: m.username,
    phone: '08030000000',
    package_id: m.packageId,
    sponsor_id: m.sponsorId,
    placement_parent_id: m.placementParentId,
    placement_leg: m.leg,
    is_root: false,
  },
});

const activated = (m: BulkMember, registrationValueKobo: number): MemberActivated => ({
  type: 'MemberActivated',
  data: { member_id: m.id, package_id: m.packageId, payment_id: null, registration_value_kobo: registrationValueKobo, point_value: 0, pickup_allowance_kobo: 0 },
});

const registrationValues = async (db: Db) =>
  new Map((await db.selectFrom('packages').select(['id', 'registration_value']).execute()).map((p) => [p.id, p.registration_value]));

/** Appends and projects members in the order given (a placement parent before its children). */
export async function appendMembers(db: Db, members: readonly BulkMember[], now: Date): Promise<void> {
  const packages = await registrationValues(db);
  for (let start = 0; start < members.length; start += MEMBERS_PER_TRANSACTION) {
    const chunk = members.slice(start, start + MEMBERS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      const recorded = await appendToStreams(
        trx,
        chunk.map((m) => ({ streamId: memberStream(m.id), events: [registered(m), activated(m, packages.get(m.packageId) ?? 0)], expectedVersion: 0 })),
        { metadata: benchMetadata(now) },
      );
      await projectMembers(trx, recorded);
    });
  }
}

/**
 * A member as the portal records them, in two commands: the registration, then (as an admin's
 * approval of the payment would) the activation, each declaring what it may append as the real
 * command does (decision 73), and ringing the doorbell with what it appended.
 */
export function memberCommands(db: Db, onCommitted: CommandContext['onCommitted']) {
  const ctx: CommandContext = { db, onCommitted };
  const packages = registrationValues(db);
  return {
    register: (member: BulkMember, now: Date) =>
      runInTransaction(ctx, async (trx) => {
        const events = [{ streamId: memberStream(member.id), events: [registered(member)], expectedVersion: 0 }];
        await projectMembers(trx, await appendToStreams(trx, events, { metadata: benchMetadata(now) }));
      }, { appends: registrationAppends }),
    activate: async (member: BulkMember, now: Date) => {
      const registrationValue = (await packages).get(member.packageId) ?? 0;
      return runInTransaction(ctx, async (trx) => {
        const events = [{ streamId: memberStream(member.id), events: [activated(member, registrationValue)], expectedVersion: 1 }];
        await projectMembers(trx, await appendToStreams(trx, events, { metadata: benchMetadata(now) }));
      }, { appends: settlingPaymentAppends });
    },
  };
}

export type DrainResult = {
  /** Milliseconds per consumer, over the passes that applied something. */
  perConsumer: Map<string, number>;
  /** performance.now() when the last pass that applied something ended: everything was visible then. */
  settledAt: number;
};

/**
 * Drains every consumer the worker runs (services/src/consumers.ts, as registered now), in list
 * order, pass after pass until one applies nothing: a policy's events (bonuses) reach the
 * projections after it. The closing empty pass only confirms; it is not counted in `settledAt`.
 */
export async function drainAll(db: Db, list: readonly Consumer[] = consumers): Promise<DrainResult> {
  const perConsumer = new Map<string, number>(list.map((c) => [c.name, 0]));
  let settledAt = performance.now();
  for (let pass = 0; pass < 20; pass++) {
    let applied = 0;
    const spent = new Map<string, number>();
    for (const consumer of list) {
      const t0 = performance.now();
      const result = await drainConsumer(db, consumer);
      spent.set(consumer.name, performance.now() - t0);
      if (result.status !== 'caught_up') throw new Error(`consumer ${consumer.name}: ${result.status} ${result.error ?? ''}`);
      applied += result.applied;
    }
    if (applied === 0) return { perConsumer, settledAt };
    settledAt = performance.now();
    for (const [name, ms] of spent) perConsumer.set(name, perConsumer.get(name)! + ms);
  }
  throw new Error('consumers did not settle in 20 passes');
}

export async function rootId(db: Db): Promise<string> {
  const root = await db.selectFrom('members').select('id').where('is_root', '=', true).executeTakeFirstOrThrow();
  return root.id;
}

/** q-quantile of a sample (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Counts rows of a table (bench sanity checks). */
export async function countRows(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
  return rows[0]?.n ?? 0;
}
