/**
 * Statements per profile update (issue 13 item 2): the real app (buildApp over createRuntime, no
 * consumers) on a fresh database with the demo company and one funded member; N sequential
 * `PUT /api/users/:id/update` through app.inject, each with a new last name (an event every time),
 * every statement sent by `pg` counted (pg.Client.prototype.query) and the second request's printed.
 * Latency here is one client, no concurrency: compare it only with a run of another commit at the
 * same load. Run: `npx tsx services/bench/profile-statements.ts` (N=200 by default); the database
 * is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../src/api/app';
import { createRuntime } from '../src/api/runtime';
import { startSession } from '../src/auth/sessions';
import { loadConfig } from '../src/core/config';
import { createDb } from '../src/core/db';
import { migrateToLatest } from '../src/core/migrate';
import { seedDemoCompany } from '../src/seed/demo-company';
import { createFundedMembers } from './funded-members';

const name = `portal_bench_statements_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`create database ${name}`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
const m = createDb(url, { max: 1 }); await migrateToLatest(m); await m.destroy();
const config = loadConfig({ DATABASE_URL: url, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: `bench-${name}`, JWT_SECRET: 'bench-secret-bench-secret-bench-secret', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', SESSION_IDLE_MINUTES: '600' });
const runtime = createRuntime(config, pino({ level: 'silent' }), { consumers: [] });
await seedDemoCompany(runtime.commands);
const [member] = await createFundedMembers(runtime.commands, 1);
const app = await buildApp({ ...runtime });
const session = await startSession(runtime.db, { kind: 'member', id: member!.id }, { now: new Date() });
const token = app.jwt.sign({ sid: session.id });
let statements = 0;
const seen: string[] = [];
const original = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (this: unknown, ...args: unknown[]) {
  statements++;
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
  if (seen.length < 40) seen.push(String(text).replace(/\s+/g, ' ').slice(0, 90));
  return (original as any).apply(this, args);
};
const n = Number(process.env.N ?? 200);
const times: number[] = [];
for (let i = 0; i < n; i++) {
  if (i === 1) seen.length = 0;
  const before = statements;
  const t0 = performance.now();
  const r = await app.inject({ method: 'PUT', url: `/api/users/${member!.id}/update`, headers: { authorization: `Bearer ${token}` }, payload: { first_name: 'Bench', last_name: `Member ${i}`, phone: '08030000000' } });
  times.push(performance.now() - t0);
  if (r.statusCode !== 200) throw new Error(r.body);
  if (i === 1) console.log(`statements for one update: ${statements - before}\n  ${seen.join('\n  ')}`);
}
times.sort((a, b) => a - b);
console.log(`${n} sequential profile updates: ${(statements / n).toFixed(2)} statements each, p50 ${times[Math.floor(n / 2)]!.toFixed(2)} ms, p95 ${times[Math.floor(n * 0.95)]!.toFixed(2)} ms; load ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`);
await app.close(); await runtime.close();
await admin.query(`drop database ${name} with (force)`); await admin.end();
