/**
 * Where a command's cost goes, per request (issue 13 item 2): the real app (buildApp over
 * createRuntime, its doorbell ringing, no worker) on a fresh database with the demo company and 32 funded members (MEMBERS), taken in turn;
 * N sequential requests of each route through app.inject (no socket: the HTTP layer is the same
 * for every route), in alternating slices. For each route: statements sent by `pg`, the api
 * process's CPU (process.cpuUsage), the CPU of the database's backends (/proc/<pid>/stat of every
 * backend of the database: run as a user that may read them) and Redis's, and the wall time.
 * Sequential, one client: CPU per request is what a loaded machine pays for it, whatever the load.
 * Run: `npx tsx services/bench/command-cost.ts` (N=400 a route by default); the database is dropped.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
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
import { REFERENCE_TABLE } from './http-api';
import { z } from 'zod';
import { requireMember, requireSelfOrAdmin } from '../src/auth/guards';
import { envelope } from '../src/contracts/http';
import { type Withdrawal, initiateWithdrawalBody, withdrawal } from '../src/contracts/wallet';

const FIXED_WITHDRAWAL: Withdrawal = {
  id: randomUUID(), member_uuid: randomUUID(), username: 'bench', first_name: 'Bench', last_name: 'Member', amount: 20, fee: 1, charge: 1, net_amount: 19,
  status: 'pending', type: 'withdrawal', automatic: false, reason: 'Wallet withdrawal', bank_name: 'Bench Bank', account_number: '0123456789', account_name: 'Bench',
  transfer_reference: 'ref', failure_reason: null, created_at: new Date().toISOString(), payout_date: null, completed_at: null,
};

const name = `portal_bench_cost_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`create database ${name}`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
try {
  const m = createDb(url, { max: 1 });
  await migrateToLatest(m);
  await m.destroy();
  const config = loadConfig({ DATABASE_URL: url, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: `bench-${name}`, JWT_SECRET: 'bench-secret-bench-secret-bench-secret', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', SESSION_IDLE_MINUTES: '600' });
  // The consumers' doorbell rings as in the HTTP bench (CONSUMERS=0: silent); no worker runs.
  const runtime = createRuntime(config, pino({ level: 'silent' }), process.env.CONSUMERS === '0' ? { consumers: [] } : {});
  await seedDemoCompany(runtime.commands);
  // As many members as the HTTP bench's connections, taken in turn: a wallet's state grows with its withdrawals.
  const members = await createFundedMembers(runtime.commands, Number(process.env.MEMBERS ?? 32));
  const app = await buildApp({ ...runtime });
  const db = runtime.db;
  await sql`create table if not exists ${sql.table(REFERENCE_TABLE)} (like events including all)`.execute(db);
  app.post('/bench/reference-insert', async () => {
    const id = randomUUID();
    await sql`insert into ${sql.table(REFERENCE_TABLE)} (stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash)
      values (${`bench-${id}`}, 1, 'BenchReference', ${JSON.stringify({ id })}::jsonb, '{}'::jsonb, now(), ${id}::uuid, '', '')`.execute(db);
    return { success: true, message: 'Inserted', data: null };
  });
  // Stages of a command, to split its cost (bench only): the session check alone; the session check
  // with the withdrawal's schemas (params, body, the response's zod serialisation) and a fixed answer.
  app.post('/bench/bare', async () => ({ success: true, message: 'Nothing', data: null }));
  app.post('/bench/session', { preHandler: requireMember }, async () => ({ success: true, message: 'Signed in', data: null }));
  app.post(
    '/bench/session-schema/:id',
    { preHandler: [requireMember, requireSelfOrAdmin('id')], schema: { params: z.object({ id: z.uuid() }), body: initiateWithdrawalBody, response: { 200: envelope(withdrawal) } } },
    async () => ({ success: true, message: 'Withdrawal Request successful', data: FIXED_WITHDRAWAL }),
  );
  const signedIn: Array<{ id: string; token: string }> = [];
  for (const m of members) signedIn.push({ id: m.id, token: app.jwt.sign({ sid: (await startSession(db, { kind: 'member', id: m.id }, { now: new Date() })).id }) });
  let statements = 0;
  const original = pg.Client.prototype.query;
  (pg.Client.prototype as unknown as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  const redisPid = (() => {
    try {
      return execSync('pgrep -x redis-server').toString().trim().split('\n')[0] ?? null;
    } catch {
      return null;
    }
  })();
  const ticks = (pid: string) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  const backends = async () => (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])).rows.map((r) => String(r.pid));
  const tickMs = 1000 / Number(execSync('getconf CLK_TCK').toString().trim());

  type Route = 'bare' | 'reference' | 'session' | 'session-schema' | 'withdrawal' | 'profile';
  let counter = 0;
  const request = (route: Route) => {
    counter++;
    const member = signedIn[counter % signedIn.length]!;
    const auth = { authorization: `Bearer ${member.token}` };
    if (route === 'reference') return app.inject({ method: 'POST', url: '/bench/reference-insert', payload: {} });
    if (route === 'bare') return app.inject({ method: 'POST', url: '/bench/bare', payload: {} });
    if (route === 'session') return app.inject({ method: 'POST', url: '/bench/session', headers: auth, payload: {} });
    if (route === 'session-schema') return app.inject({ method: 'POST', url: `/bench/session-schema/${member.id}`, headers: auth, payload: { amount: 2000 } });
    if (route === 'withdrawal') return app.inject({ method: 'POST', url: `/api/withdrawals/${member.id}/initiate`, headers: auth, payload: { amount: 2000 } });
    return app.inject({ method: 'PUT', url: `/api/users/${member.id}/update`, headers: auth, payload: { first_name: 'Bench', last_name: `Member ${counter}`, phone: '08030000000' } });
  };
  const n = Number(process.env.N ?? 400);
  const rounds = 4;
  const order = (process.env.ROUTES ?? 'bare,reference,session,session-schema,withdrawal,profile').split(',') as Route[];
  const totals = Object.fromEntries(order.map((r) => [r, { n: 0, statements: 0, apiMs: 0, pgMs: 0, redisMs: 0, wallMs: 0, times: [] as number[] }]));
  for (const route of order) for (let i = 0; i < 50; i++) await request(route); // warm-up: JIT, plans, the pool's connections
  for (let round = 0; round < rounds; round++) {
    for (const route of round % 2 === 0 ? order : [...order].reverse()) {
      const pids = await backends();
      const pg0 = pids.reduce((s, p) => s + ticks(p), 0);
      const r0 = redisPid ? ticks(redisPid) : 0;
      const s0 = statements;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < n / rounds; i++) {
        const ti = performance.now();
        const r = await request(route);
        totals[route]!.times.push(performance.now() - ti);
        if (r.statusCode !== 200) throw new Error(`${route}: ${r.statusCode} ${r.body}`);
      }
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const t = totals[route]!;
      t.n += n / rounds;
      t.statements += statements - s0;
      t.apiMs += (cpu.user + cpu.system) / 1000;
      t.pgMs += ((await backends()).reduce((s, p) => s + ticks(p), 0) - pg0) * tickMs;
      t.redisMs += redisPid ? (ticks(redisPid) - r0) * tickMs : 0;
      t.wallMs += wall;
    }
  }
  const us = (ms: number, k: number) => `${Math.round((1000 * ms) / k)}`.padStart(6);
  console.log(`per request (µs), ${n} sequential requests a route in ${rounds} alternating slices; load ${os.loadavg()[0]!.toFixed(2)}`);
  console.log('route          stmts   api CPU  pg CPU  redis  total   wall p50');
  for (const route of order) {
    const t = totals[route]!;
    t.times.sort((a, b) => a - b);
    console.log(`${route.padEnd(14)} ${(t.statements / t.n).toFixed(2).padStart(5)} ${us(t.apiMs, t.n)}   ${us(t.pgMs, t.n)}  ${us(t.redisMs, t.n)} ${us(t.apiMs + t.pgMs + t.redisMs, t.n)}   ${t.times[Math.floor(t.times.length / 2)]!.toFixed(2)} ms`);
  }
  await app.close();
  await runtime.close();
} finally {
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
