/**
 * What event-search's row for one event costs (issue 13 item 5: a rank cascade's row): the
 * projection's statement for the event at PROFILE_POSITION of a kept bench database, its row
 * deleted first, inside a transaction rolled back (nothing changes); the plan through auto_explain
 * (ANALYZE, BUFFERS, WAL) unless PROFILE_EXPLAIN=0. PROFILE_POSITION defaults to the last
 * RanksAchieved; PROFILE_REPEAT (5) runs; the median last.
 *   PROFILE_DB=portal_bench_…_activation npx tsx services/bench/profile-search.ts
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/database';
import { eventSearchProjection } from '../src/audit/projections';
import { rolledBackRuns } from './rolled-back-runs';

const database = process.env.PROFILE_DB;
if (!database) throw new Error('PROFILE_DB: a kept bench database');
const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:5432/${database}`, max: 1, application_name: 'portal-profile-search' });
// auto_explain's plans arrive as notices (client_min_messages = log).
pool.on('connect', (client) => client.on('notice', (notice) => console.log(notice.message)));
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
const repeat = Number(process.env.PROFILE_REPEAT ?? 5);
const explain = process.env.PROFILE_EXPLAIN !== '0';
try {
  const position = Number(process.env.PROFILE_POSITION ?? (await sql<{ p: string }>`select max(global_position)::text as p from events where type = 'RanksAchieved'`.execute(db)).rows[0]!.p);
  await rolledBackRuns(db, { repeat, vacuumTables: 'event_search' }, async (trx, run) => {
    await sql`delete from event_search where global_position = ${position}`.execute(trx);
    if (explain) {
      await sql`load 'auto_explain'`.execute(trx);
      await sql.raw(`set local auto_explain.log_min_duration = 0; set local auto_explain.log_analyze = on; set local auto_explain.log_buffers = on; set local auto_explain.log_wal = on; set local auto_explain.log_timing = on; set local client_min_messages = log`).execute(trx);
    }
    const t0 = performance.now();
    await eventSearchProjection.applyAt!(trx, [position]);
    const ms = performance.now() - t0;
    console.log(`--- run ${run + 1}: position ${position}, ${ms.toFixed(1)} ms round trip`);
    return ms;
  });
} finally {
  await db.destroy();
}
