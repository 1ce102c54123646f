import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { bothSidesFromLog, cutIntoBatches, inRolledBackTransaction, syntheticLog, tableRows } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import { projectMembers } from '../membership/projections';
import { projectMemberPoints, projectMemberPointsAt, projectMemberPointsEventByEvent } from './projections';
import { rankColumns, rankCompact } from './events';

/**
 * The batched member-points projection (one statement a batch) leaves exactly the rows the events
 * applied one by one leave, over generated placement trees and generated sequences of PV and rank
 * events cut into random batches: credits of several events meeting on shared ancestors, rank
 * events before and after their member's first credit (in the same batch and in earlier ones),
 * members absent from `members`, PV of zero, and times out of order (the last event wins, not the
 * latest time).
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Trx = Transaction<Database>;

const recorded = syntheticLog();

type Step =
  | { kind: 'activate'; member: number; paid: boolean; pv: number; minute: number }
  | { kind: 'upgrade'; member: number; pv: number; minute: number }
  | { kind: 'purchase'; member: number; repurchase: boolean; pv: number; minute: number }
  | { kind: 'rank'; member: number; rank: number; minute: number }
  | { kind: 'ranks'; members: number[]; rank: number; minute: number };

const MEMBERS = 12; // index MEMBERS is a member absent from `members`
const member = fc.integer({ min: 0, max: MEMBERS });
const minute = fc.integer({ min: 0, max: 500 });
const pv = fc.integer({ min: 0, max: 300 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('activate' as const), member, paid: fc.boolean(), pv, minute }),
  fc.record({ kind: fc.constant('upgrade' as const), member, pv, minute }),
  fc.record({ kind: fc.constant('purchase' as const), member, repurchase: fc.boolean(), pv, minute }),
  fc.record({ kind: fc.constant('rank' as const), member, rank: fc.integer({ min: 1, max: 5 }), minute }),
  fc.record({ kind: fc.constant('ranks' as const), members: fc.uniqueArray(member, { minLength: 1, maxLength: 4 }), rank: fc.integer({ min: 1, max: 5 }), minute }),
);
/** Each member's placement parent among the members before it (member 0 is the top). */
const tree = fc.array(fc.nat(), { minLength: MEMBERS - 1, maxLength: MEMBERS - 1 }).map((picks) => picks.map((pick, i) => pick % (i + 1)));

function events(ids: string[], steps: Step[]): RecordedEvent[] {
  return steps.map((s) => {
    switch (s.kind) {
      case 'activate':
        return recorded('MemberActivated', { member_id: ids[s.member], package_id: 1, payment_id: s.paid ? randomUUID() : null, point_value: s.pv }, s.minute);
      case 'upgrade':
        return recorded('MemberPackageUpgraded', { member_id: ids[s.member], payment_id: randomUUID(), from_package_id: 1, to_package_id: 2, difference_kobo: 0, point_value_added: s.pv, pickup_allowance_kobo: 0 }, s.minute);
      case 'purchase':
        return recorded('ProductPurchasePaid', { purchase_id: randomUUID(), member_id: ids[s.member], pickup_type: s.repurchase ? 'repurchase_pickup' : 'registration_pickup', total_points: s.pv, total_price_kobo: 0, lines: [], payment_method: 'wallet' }, s.minute);
      case 'rank':
        return recorded('RankAchieved', { member_id: ids[s.member], rank_id: s.rank, cause: { event_id: randomUUID(), event_type: 'Test', stream_id: 'test', member_id: null } }, s.minute);
      case 'ranks': {
        // The three shapes of RanksAchieved: compact (since decision 80), in columns (decisions 67–79) and an array of objects (before).
        const cause = { event_id: randomUUID(), event_type: 'Test', stream_id: 'test', member_id: null };
        // Two kinds in a compact cascade: every other member from a previous rank.
        const entries = s.members.map((m, i) => ({ member_id: ids[m]!, rank_id: s.rank, rank_name: `R${s.rank}`, previous_rank_id: i % 2 === 0 ? null : 1, cpv: i, package_id: 1 }));
        const shape = s.minute % 3;
        return recorded('RanksAchieved', shape === 0 ? { cause, columns: rankColumns(entries) } : shape === 1 ? { cause, ranks: entries } : { cause, ...rankCompact(entries) }, s.minute);
      }
    }
  });
}

/** The members of the tree registered (member 0 the root), each placed and sponsored by its parent. */
function registrationsOf(ids: string[], parents: number[]): RecordedEvent[] {
  return ids.slice(0, MEMBERS).map((id, i) =>
    recorded('MemberRegistered', {
      member_id: id, username: `u${id.slice(0, 8)}`, email: `${id}@test`, first_name: 'F', last_name: 'L', phone: '0', package_id: 1,
      sponsor_id: i === 0 ? null : ids[parents[i - 1]!], placement_parent_id: i === 0 ? null : ids[parents[i - 1]!],
      placement_leg: i === 0 ? null : i % 2 === 0 ? 'left' : 'right', is_root: i === 0,
    }, 0),
  );
}

const memberPointsRows = (trx: Trx) => tableRows(trx, 'select to_jsonb(p) as row from member_points p order by member_id');

/** Runs `apply` in a transaction that is rolled back, returning member_points as it stood at the end. */
async function rowsAfter(apply: (trx: Trx) => Promise<void>): Promise<unknown[]> {
  let rows: unknown[] = [];
  await inRolledBackTransaction(t.db, async (trx) => {
    await apply(trx);
    rows = await memberPointsRows(trx);
  });
  return rows;
}

describe('member-points, one statement a batch', () => {
  it('leaves the same member_points rows as applying the events one by one', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.array(step, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 6 }), async (parents, steps, cuts) => {
        const ids = Array.from({ length: MEMBERS + 1 }, () => randomUUID());
        const registrations = registrationsOf(ids, parents);
        const log = events(ids, steps);
        const batches = cutIntoBatches(log, cuts);
        const expected = await rowsAfter(async (trx) => {
          await projectMembers(trx, registrations);
          await projectMemberPointsEventByEvent(trx, log);
        });
        const actual = await rowsAfter(async (trx) => {
          await projectMembers(trx, registrations);
          for (const batch of batches) await projectMemberPoints(trx, batch);
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('in SQL (rebuilds’ applyAt, the batch by log position) leaves the same rows as applying the events one by one', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.array(step, { minLength: 10, maxLength: 40, size: 'max' }), fc.array(fc.nat(), { maxLength: 6 }), async (parents, steps, cuts) => {
        const ids = Array.from({ length: MEMBERS + 1 }, () => randomUUID());
        const registrations = registrationsOf(ids, parents);
        const log = events(ids, steps);
        const { expected, actual } = await bothSidesFromLog(t.db, log, cuts, {
          setUp: (trx) => projectMembers(trx, registrations),
          eventByEvent: projectMemberPointsEventByEvent,
          atPositions: projectMemberPointsAt,
          rows: memberPointsRows,
        });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
