import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { inRolledBackTransaction, syntheticLog } from '../../test/synthetic-events';
import { projectMembers } from '../membership/projections';
import { type Rank, rankAchievement } from './policies';
import { creditPathStatement } from './projections';

/**
 * The credit statement judges the ranks of a path in SQL by rankAchievement's rule (the highest
 * rank by (points, id) within the CPV and the package held at the cause, if above the rank
 * recorded; a recorded rank no longer in the catalogue counts as none). Over generated catalogues
 * (ties in points, packages required), chains of members (activated or not, on several packages),
 * CPVs and recorded ranks, the ranks it decides are exactly those rankAchievement decides, and it
 * sets them on member_points and members.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

type Generated = {
  ranks: Array<{ points: number; packageId: number }>;
  chain: Array<{ activated: boolean; packageId: number; cpv: number | null; recorded: number | null }>;
  pv: number;
};

const generated: fc.Arbitrary<Generated> = fc.record({
  // Few distinct points, so ties are common; ids are given in a shuffled order below.
  ranks: fc.array(fc.record({ points: fc.constantFrom(0, 100, 200, 300, 500), packageId: fc.integer({ min: 1, max: 3 }) }), { minLength: 0, maxLength: 7 }),
  chain: fc.array(
    fc.record({
      activated: fc.boolean(),
      packageId: fc.integer({ min: 1, max: 3 }),
      cpv: fc.option(fc.integer({ min: 0, max: 600 })),
      // an index into the catalogue, or one past it: a rank no longer in the catalogue
      recorded: fc.option(fc.nat({ max: 7 })),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  pv: fc.integer({ min: 1, max: 400 }),
});

describe('the credit statement’s rank judgement', () => {
  it('decides exactly the ranks rankAchievement decides, and sets them', async () => {
    await fc.assert(
      fc.asyncProperty(generated, fc.integer({ min: 0, max: 1000 }), async (g, seed) => {
        await inRolledBackTransaction(t.db, async (trx) => {
          const recorded = syntheticLog();
          // The catalogue, ids shuffled against the order generated (ties by id must not follow insertion).
          await sql`delete from ranks`.execute(trx);
          const ids = g.ranks.map((_, i) => 10 + ((i * 7 + seed) % 97));
          const uniqueIds = [...new Set(ids)];
          const ranks: Rank[] = uniqueIds.map((id, i) => ({ id, name: `R${id}`, points: g.ranks[i]!.points, package_id: g.ranks[i]!.packageId }));
          for (const r of ranks) {
            await sql`insert into ranks (id, name, points, is_global_profit_eligible, description, package_id, updated_at) values (${r.id}, ${r.name}, ${r.points}, false, '', ${r.package_id}, now())`.execute(trx);
          }
          // A chain: member 0 at the top, each the next one's placement parent; the credit starts at the bottom.
          const members = g.chain.map(() => randomUUID());
          await projectMembers(
            trx,
            g.chain.flatMap((m, i) => {
              const registered = recorded(
                'MemberRegistered',
                {
                  member_id: members[i], username: `u${members[i]!.slice(0, 8)}`, email: `${members[i]}@test`, first_name: 'F', last_name: 'L', phone: '0', package_id: m.packageId,
                  sponsor_id: i === 0 ? null : members[i - 1], placement_parent_id: i === 0 ? null : members[i - 1], placement_leg: i === 0 ? null : i % 2 === 0 ? 'left' : 'right', is_root: i === 0,
                },
                0,
              );
              return m.activated ? [registered, recorded('MemberActivated', { member_id: members[i], package_id: m.packageId, payment_id: null, point_value: 0 }, 1)] : [registered];
            }),
          );
          const recordedRankOf = (m: Generated['chain'][number]) => (m.recorded === null ? null : (uniqueIds[m.recorded] ?? 999));
          for (const [i, m] of g.chain.entries()) {
            if (m.cpv === null) continue;
            await sql`insert into member_points (member_id, cpv, rank_id, updated_at) values (${members[i]}, ${m.cpv}, ${recordedRankOf(m)}, now())`.execute(trx);
          }
          const cause = recorded('MemberPackageUpgraded', {}, 2);
          const { rows } = await creditPathStatement(members.at(-1)!, g.pv, cause).execute(trx);

          const expected = new Map<string, number>();
          for (const [i, m] of g.chain.entries()) {
            if (!m.activated) continue;
            const decision = rankAchievement({ memberId: members[i]!, cpv: (m.cpv ?? 0) + g.pv, packageId: m.packageId, recordedRankId: m.cpv === null ? null : recordedRankOf(m), ranks, cause: { event_id: cause.eventId, event_type: cause.type, stream_id: cause.streamId, member_id: null } });
            if (decision) expected.set(members[i]!, decision.data.rank_id);
          }
          expect(rows.filter((r) => !r.decided)).toEqual([]);
          expect(new Map(rows.map((r) => [r.member_id, r.rank_id!]))).toEqual(expected);
          for (const r of rows) expect(r.rank_name).toBe(`R${r.rank_id}`);
          const { rows: set } = await sql<{ member_id: string; points_rank: number | null }>`
            select m.id as member_id, p.rank_id as points_rank
            from members m left join member_points p on p.member_id = m.id where m.id = any(${members}::uuid[])`.execute(trx);
          for (const row of set) {
            const i = members.findIndex((id) => id === row.member_id);
            const before = g.chain[i]!.cpv === null ? null : recordedRankOf(g.chain[i]!);
            expect(row.points_rank).toBe(expected.get(row.member_id) ?? before);
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});
