/**
 * `npm run bench`: creates fresh databases on the configured PostgreSQL server (one per benchmark
 * module, migrated with migrateToLatest), runs the benchmark modules, prints a report, writes it as
 * JSON to services/bench/last-run.json, and drops the databases.
 *
 * Environment: DATABASE_URL (server to use; its database name is ignored), BENCH_SECONDS (5),
 * BENCH_WARMUP_SECONDS (1), BENCH_EVENTS (100000), BENCH_EMMETT_PROCESSOR_EVENTS (20000),
 * BENCH_CONCURRENCY (1,8,32),
 * BENCH_ONLY (comma-separated module names), BENCH_KEEP_DATABASES=1 (keep them, for inspection; drop by hand).
 *
 * A benchmark is a `<name>.bench.ts` module exporting `{ name, description, run(ctx) }`; add it to
 * `modules` below.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb } from '../src/core/db';
import { migrateToLatest } from '../src/core/migrate';
import activationBench from './activation.bench';
import appendBench from './append.bench';
import consumerBench from './consumer.bench';
import httpBench from './http.bench';
import lagBench from './lag.bench';
import matchingBench from './matching.bench';
import profitSharingBench from './profit-sharing.bench';
import { writeHtmlReport } from './report-html';
import memberPagesBench from './member-pages.bench';
import readsBench from './reads.bench';
import rebuildBench from './rebuild.bench';
import type { BenchContext, BenchModule, BenchReport, EmmettTask, FreshDatabase, Settings, Table } from './harness';

const modules: BenchModule[] = [appendBench, consumerBench, activationBench, matchingBench, memberPagesBench];
// Issue 13: commands through HTTP under load, projection lag.
modules.push(httpBench, lagBench);
// Issue 13, item 4: global profit and the profit pool at scale.
modules.push(profitSharingBench);
// Issue 13 item 7: reads at 100,000 (BENCH_SCALE=1m: 1,000,000) members.
modules.push(readsBench);
modules.push(rebuildBench);

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${raw}`);
  return n;
}

const settings: Settings = {
  seconds: envNumber('BENCH_SECONDS', 5),
  warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 1),
  events: Math.round(envNumber('BENCH_EVENTS', 100_000)),
  emmettProcessorEvents: Math.round(envNumber('BENCH_EMMETT_PROCESSOR_EVENTS', 20_000)),
  concurrency: (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_CONCURRENCY: bad writer count ${s}`);
    return n;
  }),
};

const serverUrl = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const urlFor = (database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};
const runId = randomBytes(3).toString('hex');
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Databases

const admin = new pg.Pool({ connectionString: urlFor('postgres'), max: 1, application_name: 'portal-bench-admin' });
const created = new Set<string>();

async function freshDatabase(label: string): Promise<FreshDatabase> {
  const name = `portal_bench_${runId}_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`.slice(0, 63);
  await admin.query(`create database "${name}"`);
  created.add(name);
  const connectionString = urlFor(name);
  const db = createDb(connectionString, { max: 1, applicationName: 'portal-bench-migrate' });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  log(`created and migrated database ${name}`);
  return { name, connectionString };
}

async function dropDatabases(): Promise<void> {
  if (process.env.BENCH_KEEP_DATABASES === '1') {
    if (created.size > 0) log(`BENCH_KEEP_DATABASES=1: keeping ${[...created].join(', ')}`);
    created.clear();
    return;
  }
  for (const name of [...created]) {
    try {
      await admin.query(`drop database if exists "${name}" with (force)`);
      created.delete(name);
      log(`dropped database ${name}`);
    } catch (error) {
      log(`could not drop database ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The Emmett worker process

let worker: ChildProcess | null = null;
let queue: Promise<unknown> = Promise.resolve();

function emmett<T>(task: EmmettTask): Promise<T> {
  const run = async (): Promise<T> => {
    // fork() reuses our execArgv, so tsx's loader comes along.
    worker ??= fork(path.join(here, 'emmett-worker.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const child = worker;
    return new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`Emmett worker exited (${code}) during ${task.kind}`));
      child.once('exit', onExit);
      child.once('message', (reply: { ok: boolean; result?: T; error?: string }) => {
        child.off('exit', onExit);
        if (reply.ok) resolve(reply.result as T);
        else reject(new Error(`Emmett worker, ${task.kind}: ${reply.error}`));
      });
      child.send(task);
    });
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Machine facts

async function machineFacts() {
  const { rows } = await admin.query<{ name: string; setting: string }>(
    `select name, current_setting(name) as setting from pg_settings
     where name in ('server_version', 'shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', 'max_wal_size',
                    'max_connections', 'work_mem')`,
  );
  const pgSettings = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  const packageVersion = (name: string) => {
    try {
      return (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'not installed';
    }
  };
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
    node: process.version,
    postgres: pgSettings,
    server: `${serverUrl.hostname}:${serverUrl.port || 5432}`,
    packages: {
      pg: packageVersion('pg'),
      kysely: packageVersion('kysely'),
      '@event-driven-io/emmett': packageVersion('@event-driven-io/emmett'),
      '@event-driven-io/emmett-postgresql': packageVersion('@event-driven-io/emmett-postgresql'),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Printing

function renderTable(table: Table): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map((c) => (c === null ? '' : String(c))))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const isNumeric = (s: string) => /^[\d,.\-×%]+( ?(ms|s|×))?$|^n\/a$/.test(s);
  const line = (row: string[]) =>
    row.map((c, i) => (i > 0 && isNumeric(c) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [`  ${table.title}`, `  ${line(cells[0]!)}`, `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`];
  for (const row of cells.slice(1)) out.push(`  ${line(row)}`);
  for (const note of table.notes ?? []) out.push(`  * ${note}`);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
  const selected = only ? modules.filter((m) => only.includes(m.name)) : modules;
  if (selected.length === 0) throw new Error(`BENCH_ONLY matched no module (have: ${modules.map((m) => m.name).join(', ')})`);

  const machine = await machineFacts();
  const startedAt = new Date();
  const header = [
    '',
    `Event store benchmarks — ${startedAt.toISOString()}`,
    `  machine     ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGb} GB RAM, ${machine.platform}, load avg ${machine.loadAverage.join(' / ')}`,
    `  node        ${machine.node}; pg ${machine.packages.pg}, kysely ${machine.packages.kysely}, emmett-postgresql ${machine.packages['@event-driven-io/emmett-postgresql']}`,
    `  postgres    ${machine.postgres.server_version} at ${machine.server} (same machine: client and server share the CPUs); ` +
      `shared_buffers=${machine.postgres.shared_buffers}, synchronous_commit=${machine.postgres.synchronous_commit}, ` +
      `fsync=${machine.postgres.fsync}, max_wal_size=${machine.postgres.max_wal_size}`,
    `  settings    BENCH_SECONDS=${settings.seconds}, BENCH_WARMUP_SECONDS=${settings.warmupSeconds}, ` +
      `BENCH_EVENTS=${settings.events}, BENCH_EMMETT_PROCESSOR_EVENTS=${settings.emmettProcessorEvents}, BENCH_CONCURRENCY=${settings.concurrency.join(',')}`,
    `  databases   portal_bench_${runId}_* (fresh, dropped at the end)`,
    '',
  ].join('\n');
  process.stdout.write(header + '\n');

  const ctx: BenchContext = { settings, freshDatabase, emmett, log };
  const results: Record<string, { description: string; seconds: number; loadAverage1m: { before: number; after: number }; tables: Table[]; notes?: string[]; data: unknown }> = {};
  for (const module of selected) {
    log(`running ${module.name}: ${module.description}`);
    const t0 = performance.now();
    const loadBefore = os.loadavg()[0]!;
    const report: BenchReport = await module.run(ctx);
    const seconds = (performance.now() - t0) / 1000;
    const loadAverage1m = { before: Number(loadBefore.toFixed(2)), after: Number(os.loadavg()[0]!.toFixed(2)) };
    results[module.name] = { description: module.description, seconds, loadAverage1m, ...report };
    await dropDatabases();
    const block = [
      `== ${module.name}: ${module.description} (${seconds.toFixed(0)} s; 1-min load average ${loadAverage1m.before} before, ${loadAverage1m.after} after, on ${machine.cpus} CPUs)`,
      ...report.tables.map((t) => '\n' + renderTable(t)),
      ...(report.notes?.length ? ['', ...report.notes.map((n) => `  ${n}`)] : []),
      '',
    ];
    process.stdout.write(block.join('\n') + '\n');
  }

  const file = path.join(here, 'last-run.json');
  writeFileSync(file, JSON.stringify({ startedAt: startedAt.toISOString(), runId, machine, settings, results }, null, 2) + '\n');
  process.stdout.write(`Results written to ${path.relative(process.cwd(), file)}\n`);
  // Charts of the same run (issue 13, item 8): open it in a browser.
  const html = path.join(here, 'last-run.html');
  writeHtmlReport(file, html);
  process.stdout.write(`Charts written to ${path.relative(process.cwd(), html)}\n`);
}

let exiting = false;
async function shutdown(code: number): Promise<never> {
  if (!exiting) {
    exiting = true;
    worker?.kill();
    await dropDatabases();
    await admin.end().catch(() => undefined);
  }
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));
main().then(
  () => shutdown(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return shutdown(1);
  },
);
