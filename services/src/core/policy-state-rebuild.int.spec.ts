import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { syntheticLog } from '../../test/synthetic-events';
import { projectMembers } from '../membership/projections';
import { policyStateModels } from '../read-models';
import { rebuildPolicyState } from './policy-state-rebuild';

/**
 * A policy's working state replayed from the log in commit order, (transaction id, position), as
 * numbers. The batch read once ordered by its own select list's `transaction_id::text` alias: when
 * a log's transaction ids crossed a power of ten ('10' < '9' as text), a batch came out in the wrong
 * order and the cursor, left at its last row, made the next batch read the larger ids again, so
 * the member-points rebuild credited their PV twice (seen in points.int.spec.ts whenever the
 * machine's transaction counter passed 1,000,000 during the file).
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

describe('rebuildPolicyState', () => {
  it('replays events in commit order when their transaction ids have different numbers of digits', async () => {
    const recorded = syntheticLog();
    const [root, child] = [randomUUID(), randomUUID()];
    await t.db.transaction().execute(async (trx) => {
      await projectMembers(trx, [
        recorded('MemberRegistered', { member_id: root, username: `r${root.slice(0, 8)}`, email: `${root}@test`, first_name: 'R', last_name: 'Oot', phone: '0', package_id: 1, sponsor_id: null, placement_parent_id: null, placement_leg: null, is_root: false }, 0),
        recorded('MemberRegistered', { member_id: child, username: `c${child.slice(0, 8)}`, email: `${child}@test`, first_name: 'C', last_name: 'Hild', phone: '0', package_id: 1, sponsor_id: root, placement_parent_id: root, placement_leg: 'left', is_root: false }, 1),
      ]);
    });
    // Two activations in the log with the transaction ids 9 and 10: 9 committed first.
    const activation = async (memberId: string, pv: number, xid: number) =>
      (await sql<{ global_position: string }>`
        insert into events (stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash, transaction_id)
        values (${`member-${memberId}`}, 2, 'MemberActivated', ${JSON.stringify({ member_id: memberId, package_id: 1, payment_id: randomUUID(), point_value: pv })}::jsonb,
          '{}'::jsonb, now(), ${randomUUID()}, '', '', ${String(xid)}::xid8)
        returning global_position`.execute(t.db)).rows[0]!.global_position;
    await activation(child, 100, 9);
    const last = await activation(root, 30, 10);
    await sql`
      insert into consumer_checkpoints (name, last_transaction_id, last_global_position) values ('points', '10', ${last})
      on conflict (name) do update set last_transaction_id = excluded.last_transaction_id, last_global_position = excluded.last_global_position`.execute(t.db);

    const model = policyStateModels.find((m) => m.name === 'member-points')!;
    const { applied } = await rebuildPolicyState(t.db, model);
    expect(applied).toBe(2);
    const rows = await t.db.selectFrom('member_points').select(['member_id', 'personal_pv', 'cpv', 'left_pv', 'right_pv']).where('member_id', 'in', [root, child]).execute();
    expect(new Map(rows.map((r) => [r.member_id, [Number(r.personal_pv), Number(r.cpv), Number(r.left_pv), Number(r.right_pv)]]))).toEqual(
      new Map([
        [child, [100, 100, 0, 0]],
        [root, [30, 130, 100, 0]],
      ]),
    );
  });
});
