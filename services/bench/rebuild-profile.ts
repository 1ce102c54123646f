/**
 * Where a read model's rebuild spends its time (issue 13 item 6): every statement the rebuild sends
 * through `pg` is timed (pg.Client.prototype.query), grouped by its text, and the groups printed by
 * total time. Run: `npx tsx services/bench/rebuild-profile.ts <read model>…` (the rebuild bench's log
 * of PROFILE_EVENTS events, 20,000 by default, in a database named PROFILE_DATABASE, created, seeded
 * and filled once and kept: drop it by hand). Always under the bench lock:
 * `flock /tmp/bench.lock npx tsx services/bench/rebuild-profile.ts members`.
 * PROFILE_EXPLAIN=1 also prints EXPLAIN (ANALYZE, BUFFERS) of each statement of a batch that reads
 * the log (its text names `events`), once each, at its second call (a full batch, not the first):
 * run with the batch's own parameters inside the batch's transaction, under a savepoint rolled back
 * (the statement then runs for real), so the rebuild's result is unchanged; the times of those
 * batches include the EXPLAIN's.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { drainConsumer } from '../src/core/consumers';
import { createDb } from '../src/core/db';
import { migrateToLatest } from '../src/core/migrate';
import { pointsPolicy } from '../src/points/projections';
import { findReadModel, rebuildReadModel } from '../src/read-models';
import { seedDemoCompany } from '../src/seed/demo-company';
import { commandContext, drainAll } from './network';
import { EVENTS_PER_MEMBER, generateLog } from './rebuild.bench';

const events = Number(process.env.PROFILE_EVENTS ?? 20_000);
const name = process.env.PROFILE_DATABASE ?? `portal_rebuild_profile_${events}`;
const adminUrl = process.env.DATABASE_URL?.replace(/\/[^/]*$/, '/postgres') ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = adminUrl.replace(/\/postgres$/, `/${name}`);
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
await admin.end();
const log = (message: string) => process.stderr.write(`[profile] ${message}\n`);
if (!exists) {
  const a = new pg.Client({ connectionString: adminUrl });
  await a.connect();
  await a.query(`create database "${name}"`);
  await a.end();
  const m = createDb(url, { max: 1 });
  await migrateToLatest(m);
  await seedDemoCompany(commandContext(m), new Date());
  await drainAll(m);
  await generateLog({ log }, m, Math.ceil(events / EVENTS_PER_MEMBER));
  const points = await drainConsumer(m, pointsPolicy);
  if (points.status !== 'caught_up') throw new Error(`points: ${points.status}`);
  await sql`vacuum analyze events`.execute(m);
  await m.destroy();
  log(`created ${name}`);
}

type Timing = { n: number; ms: number };
const timings = new Map<string, Timing>();
let current: string | null = null;
const original = pg.Client.prototype.query;
const explain = process.env.PROFILE_EXPLAIN === '1';
const explained = new Set<string>();
(pg.Client.prototype as any).query = function (this: unknown, ...args: unknown[]) {
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text ?? '?';
  const values = typeof args[0] === 'string' ? args[1] : (args[0] as { values?: unknown[] })?.values;
  const key = text.replace(/\s+/g, ' ').slice(0, 160);
  if (explain && current && !explained.has(key) && (timings.get(key)?.n ?? 0) >= 1 && /\bevents\b/.test(text) && /^\s*(with|select|insert|update)\b/i.test(text)) {
    explained.add(key);
    // Queued on this client before the statement itself: the savepoint, the EXPLAIN, the rollback to it.
    const q = (t: string, v?: unknown) => (original as any).call(this, t, v) as Promise<{ rows: Array<Record<string, string>> }>;
    q('savepoint profile_explain').catch(() => {});
    q(`explain (analyze, buffers) ${text}`, values).then(
      (r) => log(`EXPLAIN ANALYZE (${current}) ${key}\n${r.rows.map((row) => `    ${row['QUERY PLAN']}`).join('\n')}`),
      (error: Error) => log(`EXPLAIN failed for ${key}: ${error.message}`),
    );
    q('rollback to savepoint profile_explain').catch(() => {});
  }
  const started = performance.now();
  const result = (original as any).apply(this, args);
  if (current && result && typeof result.then === 'function') {
    result.then(
      () => {
        const t = timings.get(key) ?? { n: 0, ms: 0 };
        t.n++;
        t.ms += performance.now() - started;
        timings.set(key, t);
      },
      () => {},
    );
  }
  return result;
};

const db = createDb(url, { max: 4, applicationName: 'portal-rebuild-profile' });
for (const modelName of process.argv.slice(2)) {
  const model = findReadModel(modelName);
  if (!model) throw new Error(`no read model ${modelName}`);
  timings.clear();
  current = modelName;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { applied } = await rebuildReadModel(db, model, { swap: true });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  current = null;
  const total = [...timings.values()].reduce((s, t) => s + t.ms, 0);
  log(`${modelName}: ${applied} events in ${seconds.toFixed(2)} s (${Math.round(applied / seconds)}/s); statements ${(total / 1000).toFixed(2)} s; process CPU ${((used.user + used.system) / 1e6).toFixed(2)} s`);
  for (const [key, t] of [...timings].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) {
    log(`  ${t.ms.toFixed(0).padStart(7)} ms ${String(t.n).padStart(5)}× ${key}`);
  }
}
await db.destroy();
