/**
 * Where the points policy's credit statement spends its time (issue 13 item 5): EXPLAIN (ANALYZE,
 * BUFFERS, WAL) of creditPath's statement for one member of a kept bench database, inside a
 * transaction rolled back (nothing changes). Keep a database with
 * `BENCH_KEEP_DATABASES=1 BENCH_ONLY=activation npm run bench`, then:
 *   PROFILE_DB=portal_bench_…_activation PROFILE_MEMBER=p10000 PROFILE_PV=100 npx tsx services/bench/profile-credit.ts
 * PROFILE_MEMBER is a username (p10000: the bottom of the 10,000-deep chain); PROFILE_PV the PV
 * credited (large enough to lift the chain to its next rank: a cascade; small: a plain credit).
 * PROFILE_REPEAT (3) runs it that many times (each rolled back), printing every plan;
 * PROFILE_EXPLAIN=0 runs the statement itself instead and prints its times (median last).
 * PROFILE_APPEND (1) gives the statement the cascade's append (cascadeAppendCtes), as the policy
 * does when its transaction may append RanksAchieved; 0: the statement without it. Each run
 * starts after a VACUUM of the tables it writes: a rolled-back run leaves 10,000 dead row versions
 * that would otherwise take the next run's room on the pages (its updates then stop being HOT).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createDb } from '../src/core/db';
import { cascadeAppend, creditPathStatement } from '../src/points/projections';
import { rolledBackRuns } from './rolled-back-runs';

const database = process.env.PROFILE_DB;
if (!database) throw new Error('PROFILE_DB: a kept bench database');
const db = createDb(`postgres://postgres@127.0.0.1:5432/${database}`, { max: 1, applicationName: 'portal-profile-credit' });
const username = process.env.PROFILE_MEMBER ?? 'p10000';
const pv = Number(process.env.PROFILE_PV ?? 100);
const repeat = Number(process.env.PROFILE_REPEAT ?? 3);
const explain = process.env.PROFILE_EXPLAIN !== '0';
try {
  const member = await db.selectFrom('members').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  await rolledBackRuns(db, { repeat, vacuumTables: 'member_points, members, unique_keys' }, async (trx, run) => {
    // PROFILE_SETUP: SQL run first in the same (rolled-back) transaction, to try a schema change.
    if (process.env.PROFILE_SETUP) await sql.raw(process.env.PROFILE_SETUP).execute(trx);
    const { rows: at } = await sql<{ xid: string; position: string }>`select pg_current_xact_id()::text as xid, (select max(global_position) + 1 from events)::text as position`.execute(trx);
    const cause = { eventId: randomUUID(), recordedAt: new Date().toISOString(), transactionId: at[0]!.xid, globalPosition: Number(at[0]!.position) };
    const append = process.env.PROFILE_APPEND === '0' ? undefined : cascadeAppend({
      ...cause, type: 'MemberActivated', streamId: `member-${member.id}`, streamPosition: 2, schemaVersion: 1,
      data: { member_id: member.id }, metadata: { actor: { type: 'system', id: 'profile' }, now: cause.recordedAt },
    } as unknown as Parameters<typeof cascadeAppend>[0]);
    const statement = creditPathStatement(member.id, pv, cause, append).compile(trx);
    const t0 = performance.now();
    const { rows } = await trx.executeQuery<Record<string, unknown>>(explain ? { ...statement, sql: `explain (analyze, buffers, wal, costs off) ${statement.sql}` } : statement);
    const ms = performance.now() - t0;
    console.log(`--- run ${run + 1}: ${username}, pv ${pv}, ${ms.toFixed(1)} ms round trip${explain ? '' : `, ${rows.length} rows`}`);
    if (explain) console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
    return ms;
  });
} finally {
  await db.destroy();
}
