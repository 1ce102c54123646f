import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { inRolledBackTransaction, syntheticLog } from '../../test/synthetic-events';
import { type RecordedEvent, appendToStreams, eventHash, readStream } from '../core/event-store';
import { projectMembers } from '../membership/projections';
import type { BonusCause } from '../compensation/events';
import { RANK_EVENTS_PER_MEMBER_UP_TO, type RanksAchieved, rankCascadeStream, rankCompact, rankEntries } from './events';
import { cascadeAppend, creditPathStatement, projectMemberPointsAt } from './projections';

/**
 * A cascade's RanksAchieved appended by the crediting statement itself (decision 80) is the event
 * JavaScript builds from the statement's rows (rankCompact, appended by appendToStreams, as
 * recordRanks does when the statement does not append): the same data, kinds numbered alike,
 * entries alike (rankEntries), a hash eventHash recomputes (so the log verification passes), and
 * member_points replayed from either (projectMemberPointsAt) holds the same rows. Over generated catalogues (rank names with quotes, backslashes, control
 * characters and any Unicode: to_json must escape as JSON.stringify does), chains of 95–125
 * members on several packages with several recorded ranks (several kinds), some (member, rank)
 * keys taken before (not fresh: at most RANK_EVENTS_PER_MEMBER_UP_TO fresh, the statement appends
 * nothing and answers its rows).
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

const rankName = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).map((s) => s.replace(/\0/g, '')).filter((s) => s.length > 0);

const generated = fc.record({
  names: fc.array(fc.oneof(rankName, fc.constantFrom('Crown "Royal"', 'a\\b', 'tab\there\n', 'ünï ✓ 👑', '\u001f\u007f\u2028')), { minLength: 3, maxLength: 3 }),
  length: fc.integer({ min: 95, max: 125 }),
  packages: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 125, maxLength: 125 }),
  recorded: fc.array(fc.constantFrom(null, 0), { minLength: 125, maxLength: 125 }),
  keysBefore: fc.uniqueArray(fc.nat({ max: 124 }), { maxLength: 12 }),
  pv: fc.integer({ min: 300, max: 900 }),
});

describe('a rank cascade appended by the crediting statement', () => {
  it('is the event JavaScript builds from the same judgement: data, entries, hash, and the rows replayed from it', async () => {
    const seen = { appended: 0, notCascade: 0 };
    await fc.assert(
      fc.asyncProperty(generated, async (g) => {
        await inRolledBackTransaction(t.db, async (trx) => {
          const recorded = syntheticLog();
          // Three ranks: 0 points on every package, 200 from package 2, 250 from package 1.
          await sql`delete from ranks`.execute(trx);
          const catalogue = [
            { id: 11, points: 0, package_id: 1 },
            { id: 12, points: 200, package_id: 2 },
            { id: 13, points: 250, package_id: 1 },
          ];
          for (const [i, r] of catalogue.entries()) {
            await sql`insert into ranks (id, name, points, is_global_profit_eligible, description, package_id, updated_at) values (${r.id}, ${g.names[i]!}, ${r.points}, false, '', ${r.package_id}, now())`.execute(trx);
          }
          const members = Array.from({ length: g.length }, () => randomUUID());
          await projectMembers(
            trx,
            members.flatMap((id, i) => [
              recorded('MemberRegistered', {
                member_id: id, username: `u${id.slice(0, 8)}`, email: `${id}@test`, first_name: 'F', last_name: 'L', phone: '0', package_id: g.packages[i],
                sponsor_id: i === 0 ? null : members[i - 1], placement_parent_id: i === 0 ? null : members[i - 1], placement_leg: i === 0 ? null : i % 2 === 0 ? 'left' : 'right', is_root: i === 0,
              }, 0),
              recorded('MemberActivated', { member_id: id, package_id: g.packages[i], payment_id: null, point_value: 0 }, 1),
            ]),
          );
          for (const [i, id] of members.entries()) {
            const rank = g.recorded[i] === null ? null : 11;
            await sql`insert into member_points (member_id, cpv, rank_id, updated_at) values (${id}, 0, ${rank}, now())`.execute(trx);
          }
          const bottom = members.at(-1)!;
          const cause = recorded('MemberActivated', { member_id: bottom, package_id: g.packages[g.length - 1], payment_id: randomUUID(), point_value: g.pv }, 2);
          // (member, rank) keys taken before: those ranks are not fresh. Every member reaches a rank above 11 (pv ≥ 300).
          const rankFor = (_i: number) => 13;
          for (const i of g.keysBefore.filter((i) => i < g.length)) {
            await sql`insert into unique_keys (scope, key, owner) values ('rank', ${`${members[i]}:${rankFor(i)}`}, ${randomUUID()})`.execute(trx);
          }
          const stream = rankCascadeStream(cause.eventId);
          const rowsOf = async () => ({
            points: (await sql`select member_id, cpv, rank_id, rank_achieved_at from member_points order by member_id`.execute(trx)).rows,
          });
          // Replayed from the event alone: the ranks the credit set are taken back, then set from the log.
          const replayed = async (event: RecordedEvent) => {
            await sql`update member_points set rank_id = case when member_id = any(${sql.val(members.filter((_, i) => g.recorded[i] !== null))}::uuid[]) then 11 end, rank_achieved_at = null`.execute(trx);
            await projectMemberPointsAt(trx, [event.globalPosition]);
            return rowsOf();
          };

          // In SQL.
          await sql`savepoint in_sql`.execute(trx);
          const append = cascadeAppend(cause);
          const { rows: inSqlRows } = await creditPathStatement(bottom, g.pv, cause, append).execute(trx);
          const inSql = await readStream(trx, stream);
          const afterInSql = inSql.length > 0 ? await replayed(inSql[0]!) : null;
          await sql`rollback to savepoint in_sql`.execute(trx);

          // In JavaScript, as recordRanks does with the statement's rows.
          const { rows } = await creditPathStatement(bottom, g.pv, cause).execute(trx);
          expect(rows.filter((r) => !r.decided)).toEqual([]);
          const fresh = rows.filter((r) => r.fresh);
          const bonusCause: BonusCause = { event_id: cause.eventId, event_type: cause.type, stream_id: cause.streamId, member_id: bottom };
          if (fresh.length <= RANK_EVENTS_PER_MEMBER_UP_TO) {
            // Not a cascade once the keys taken before are left out: the statement appended nothing and answered its rows.
            expect(inSql).toEqual([]);
            seen.notCascade += 1;
            expect(inSqlRows.map((r) => [r.member_id, r.rank_id, r.fresh])).toEqual(rows.map((r) => [r.member_id, r.rank_id, r.fresh]));
            return;
          }
          expect(inSqlRows).toHaveLength(1);
          expect(inSqlRows[0]!.appended).toBe(true);
          expect(inSql).toHaveLength(1);
          const data: RanksAchieved['data'] = {
            cause: bonusCause,
            ...rankCompact(fresh.map((r) => ({ member_id: r.member_id, rank_id: r.rank_id!, rank_name: r.rank_name!, previous_rank_id: r.recorded_rank_id, cpv: Number(r.cpv), package_id: r.package_at_cause! }))),
          };
          const metadata = JSON.parse(append.metadata);
          const [inJs] = await appendToStreams(trx, [{ streamId: stream, events: [{ type: 'RanksAchieved', data }] }], { metadata });
          const sqlEvent = inSql[0]!;
          expect(sqlEvent.data).toEqual(data);
          expect(sqlEvent.data).toEqual(inJs!.data);
          expect(rankEntries(sqlEvent as RecordedEvent<RanksAchieved>)).toEqual(rankEntries(inJs as RecordedEvent<RanksAchieved>));
          expect(sqlEvent.metadata).toEqual(inJs!.metadata);
          expect([sqlEvent.streamId, sqlEvent.streamPosition, sqlEvent.prevHash, sqlEvent.recordedAt]).toEqual([inJs!.streamId, inJs!.streamPosition, inJs!.prevHash, inJs!.recordedAt]);
          // The hash the statement computed is eventHash's over what was stored (what the log verification recomputes).
          expect(sqlEvent.hash).toBe(eventHash(sqlEvent));
          expect(inJs!.hash).toBe(eventHash({ ...sqlEvent, eventId: inJs!.eventId }));
          // The same rows replayed from either event.
          const [inJsRead] = await readStream(trx, stream);
          expect(await replayed(inJsRead!)).toEqual(afterInSql);
          seen.appended += 1;
        });
      }),
      { numRuns: 25 },
    );
    // Both branches were taken (a chain of 95–125 with up to 12 keys taken before).
    expect(seen.appended).toBeGreaterThan(0);
    expect(seen.notCascade).toBeGreaterThan(0);
  }, 600_000);
});
