import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pino from 'pino';
import { createRuntime } from '../src/api/runtime';
import { consumers } from '../src/consumers';
import { loadConfig } from '../src/core/config';
import { type Db, createDb } from '../src/core/db';
import { seedDemoCompany } from '../src/seed/demo-company';
import { walletLedgerProjection } from '../src/compensation/projections';
import { requestWithdrawal } from '../src/wallet/commands';
import { createFundedMembers } from './funded-members';
import { type CommandOutcome, type UnseenReport, drainAndCheck, explainUnseen, refusal, refusalsByKind, sampleHorizonHolders } from './lag-unseen';
import { type BenchModule, type Table, fmtInt, fmtMs, summarize } from './harness';
import { type BulkMember, appendMembers, memberCommands as bulkMemberCommands, rootId } from './network';

/**
 * Projection lag (issue 13, item 3): an open loop issues commands at a steady rate (200/s by
 * default, BENCH_LAG_RATE) for BENCH_SECONDS × 12 (60 s at the default 5; BENCH_LAG_SECONDS sets it
 * directly), while the real worker process (services/src/worker/worker.ts) runs every consumer,
 * woken by the commands' doorbell as in production. A reader polls the read tables every 2 ms and
 * times each command from its commit (its transaction returned) to its effect being visible:
 *   - 3 in 4 commands: a withdrawal request (the wallet command) → wallets.total_withdrawn
 *     (wallet ledger projection) covers it;
 *   - 1 in 4: a registration (MemberRegistered, appended and projected inline as network.ts's
 *     memberCommands does, declaring what it appends as the real command) → the placement parent's
 *     leg count in genealogy_counts (genealogy projection); a registration is placed under a member
 *     whose registration has committed (the command reads its placement parent before its first
 *     write). Once it has committed, the member is activated by a second command, as an admin's
 *     approval of the payment declares (not timed: its effects are bonuses, item 5's).
 * Open loop: a command starts on schedule whether or not earlier ones finished.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const WALLETS = 32;
const WITHDRAWAL_KOBO = 200_000;
const POLL_MS = 2;
/** Members registered at setup: 2¹⁰ − 1, whose 512 leaves give 1,024 free slots (at 16 s a command, ~800 registrations are in flight). */
const SEEDED = 1023;

/**
 * Placement slots under committed members, breadth first (so the tree stays balanced, as the heap
 * order of earlier sessions did). `take` waits only if every slot is taken by a registration in flight.
 */
class FreeSlots {
  private readonly free: { parent: string; leg: 'left' | 'right' }[] = [];
  private readonly waiting: ((slot: { parent: string; leg: 'left' | 'right' }) => void)[] = [];
  waited = 0;
  constructor(parents: readonly string[]) {
    for (const id of parents) this.add(id);
  }
  add(parent: string): void {
    this.giveBack({ parent, leg: 'left' });
    this.giveBack({ parent, leg: 'right' });
  }
  giveBack(slot: { parent: string; leg: 'left' | 'right' }): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }
  take(): Promise<{ parent: string; leg: 'left' | 'right' }> {
    const slot = this.free.shift();
    if (slot) return Promise.resolve(slot);
    this.waited++;
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

type Pending = { id?: string; kind: 'withdrawal' | 'registration'; key: string; needs: number; committedAt: number; startedAt: number; leg?: 'left' | 'right' };

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 once it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Where the CPU went during the timed run: this process (the api's commands, the reader's and the
 * sampler's clients), the worker, and this database's PostgreSQL backends by application (the
 * pools' connections are long-lived): the api's (`portal`), the worker's, and the measuring
 * apparatus's own (`lag-reader`, `lag-holders`). Other databases' work on the machine is not counted.
 */
async function cpuSnapshot(db: Db, workerPid: number | undefined): Promise<{ bench: number; worker: number; backends: Map<string, number>; at: number }> {
  const { rows } = await sql<{ pid: number; app: string }>`select pid, application_name as app from pg_stat_activity where datname = current_database()`.execute(db);
  const backends = new Map<string, number>();
  for (const r of rows) backends.set(r.app, (backends.get(r.app) ?? 0) + cpuSecondsOf(r.pid));
  return { bench: (({ user, system }) => (user + system) / 1e6)(process.cpuUsage()), worker: workerPid ? cpuSecondsOf(workerPid) : 0, backends, at: performance.now() };
}

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(path.resolve(here, '../src/worker/worker.ts'), [], {
    env: { ...process.env, ...env },
    execArgv: [...process.execArgv, '--import', pathToFileURL(path.resolve(here, 'count-statements.ts')).href],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return Promise.resolve(child);
}

type StatementCounts = { counts: Record<string, number>; millis: Record<string, number> };

/** The worker's statements so far, by shape, and the milliseconds spent waiting for each shape's answers (count-statements.ts). */
function workerStatements(worker: ChildProcess): Promise<StatementCounts> {
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      worker.off('message', onMessage);
      reject(new Error('the worker did not answer its statement counts in 10 s'));
    }, 10_000);
    const onMessage = (message: unknown) => {
      const { statementCounts, statementMillis } = message as { statementCounts?: Record<string, number>; statementMillis?: Record<string, number> };
      if (!statementCounts) return;
      clearTimeout(timeout);
      worker.off('message', onMessage);
      resolve({ counts: statementCounts, millis: statementMillis ?? {} });
    };
    worker.on('message', onMessage);
    worker.send('statement-counts');
  });
}

function statementsBetween(before: StatementCounts, after: StatementCounts): { total: number; transactions: number; top: [string, number][]; slowest: [string, number, number][] } {
  const diff = Object.entries(after.counts).map(([shape, n]) => [shape, n - (before.counts[shape] ?? 0)] as [string, number]).filter(([, n]) => n > 0);
  diff.sort((a, b) => b[1] - a[1]);
  const counted = new Map(diff);
  const slowest = Object.entries(after.millis)
    .map(([shape, ms]) => [shape, ms - (before.millis[shape] ?? 0), counted.get(shape) ?? 0] as [string, number, number])
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  return { total: diff.reduce((sum, [, n]) => sum + n, 0), transactions: diff.filter(([shape]) => shape.toLowerCase() === 'begin').reduce((sum, [, n]) => sum + n, 0), top: diff.slice(0, 12), slowest };
}

const lagBench: BenchModule = {
  name: 'lag',
  description: 'projection lag under a steady open loop of commands, the real worker projecting',
  async run(ctx) {
    const rate = Number(process.env.BENCH_LAG_RATE ?? 200);
    const seconds = Number(process.env.BENCH_LAG_SECONDS ?? ctx.settings.seconds * 12);
    const database = await ctx.freshDatabase('lag');
    const queuePrefix = `bench-${randomBytes(4).toString('hex')}`;
    const env = { DATABASE_URL: database.connectionString, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'silent', SMTP_PORT: '1', ...(process.env.PG_PREPARED_STATEMENTS ? { PG_PREPARED_STATEMENTS: process.env.PG_PREPARED_STATEMENTS } : {}) };
    const runtime = createRuntime(loadConfig(env), pino({ level: 'silent' }));
    const db = runtime.db;
    // The reader has a connection of its own: it must see an effect when PostgreSQL does, not when
    // the commands' pool frees a connection (an open loop can queue hundreds of commands on it).
    const readerDb = createDb(database.connectionString, { max: 1, applicationName: 'lag-reader' });
    await seedDemoCompany(runtime.commands);
    const wallets = await createFundedMembers(runtime.commands, WALLETS);
    // Registrations fill a binary tree on the root's right leg, breadth first, each under a member
    // whose own registration has committed, as the registration command reads its placement parent
    // before its first write. Appended before its parent committed (the open loop did, when the pool
    // reordered them), a child's MemberRegistered could sort before the parent's, and the genealogy
    // projection then placed it at the top of a tree of its own: the "effects not seen" of session
    // 12 (README, item 3). The top SEEDED members are registered at setup, so that the free slots
    // (two per committed member, taken in order) stay ahead of the registrations in flight.
    const root = await rootId(db);
    const seeded: BulkMember[] = [];
    for (let i = 0; i < SEEDED; i++) {
      const parent = i === 0 ? root : seeded[(i - 1) >> 1]!.id;
      seeded.push({ id: randomUUID(), username: `lag_seed_${i}_${randomUUID().slice(0, 6)}`, sponsorId: root, placementParentId: parent, leg: i === 0 ? 'right' : i % 2 === 1 ? 'left' : 'right', packageId: 1 });
    }
    await appendMembers(db, seeded, new Date());
    const slots = new FreeSlots(seeded.slice(SEEDED >> 1).map((m) => m.id));
    const worker = await startWorker(env);
    try {
      // Wait for the worker to catch up with the setup (every consumer at the log's end).
      ctx.log('lag: waiting for the worker to catch up with the setup');
      const caughtUp = async () => {
        const { rows } = await sql<{ behind: number }>`select count(*)::int as behind from consumer_checkpoints c
          where (c.last_transaction_id, c.last_global_position) < (select transaction_id, global_position from events order by transaction_id desc, global_position desc limit 1)`.execute(db);
        const { rows: counts } = await sql<{ n: number }>`select count(*)::int as n from consumer_checkpoints`.execute(db);
        return (counts[0]?.n ?? 0) > 0 && rows[0]!.behind === 0;
      };
      const catchUpStart = performance.now();
      for (const deadline = Date.now() + 120_000; !(await caughtUp()); ) {
        if (Date.now() > deadline) {
          ctx.log('lag: the worker did not catch up with the setup in 120 s; measuring anyway');
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }

      // A catch-up measure (the worker's start, then ~1,060 activations through every consumer).
      const setupCatchUpSeconds = (performance.now() - catchUpStart) / 1000;
      ctx.log(`lag: the worker caught up with the setup in ${setupCatchUpSeconds.toFixed(1)} s`);

      // Statistics, as autovacuum keeps them in production (it is off on this machine,
      // /etc/postgresql/15/main/conf.d/90-ci.conf): without them a consumer's read of the log can be
      // planned through events_by_type, every event of its types, instead of the few after its checkpoint.
      const analyze = () => sql`analyze`.execute(db);
      await analyze();
      const analyzing = setInterval(() => void analyze().catch(() => undefined), 15_000);

      const pending = new Map<string, Pending[]>();
      const withdrawn = new Map<string, number>(wallets.map((w) => [w.id, 0]));
      const lags: Record<Pending['kind'], number[]> = { withdrawal: [], registration: [] };
      const lagsFromStart: number[] = [];
      const commitMs: number[] = [];
      // How every command ended (lag-unseen.ts): an effect not seen is told from a refused command.
      const outcomes: { kind: Pending['kind'] | 'activation'; outcome: CommandOutcome }[] = [];
      const track = (p: Pending) => {
        const list = pending.get(p.key) ?? [];
        list.push(p);
        pending.set(p.key, list);
      };

      const memberCommands = bulkMemberCommands(runtime.commands.db, (appended) => runtime.commands.onCommitted(appended));
      const metadata = () => ({ actor: { type: 'system' as const, id: 'bench' }, now: new Date().toISOString() });
      const issue = async (n: number) => {
        const startedAt = performance.now();
        if (n % 4 !== 3) {
          const member = wallets[n % WALLETS]!;
          const withdrawalId = randomUUID();
          let recorded: boolean;
          try {
            ({ recorded } = await requestWithdrawal(runtime.commands, { withdrawalId, memberId: member.id, kind: 'withdrawal', amountKobo: WITHDRAWAL_KOBO, reason: 'Bench withdrawal' }, metadata()));
          } catch (error) {
            outcomes.push({ kind: 'withdrawal', outcome: refusal(error) });
            return;
          }
          const committedAt = performance.now();
          outcomes.push({ kind: 'withdrawal', outcome: { ok: true, recorded } });
          // Answered without an event (a replay): nothing new to see.
          if (!recorded) return;
          const total = withdrawn.get(member.id)! + WITHDRAWAL_KOBO;
          withdrawn.set(member.id, total);
          commitMs.push(committedAt - startedAt);
          track({ id: withdrawalId, kind: 'withdrawal', key: member.id, needs: total, committedAt, startedAt });
        } else {
          const { parent, leg } = await slots.take();
          const member: BulkMember = { id: randomUUID(), username: `lag_${n}_${randomUUID().slice(0, 6)}`, sponsorId: root, placementParentId: parent, leg, packageId: 1 };
          try {
            await memberCommands.register(member, new Date());
          } catch (error) {
            outcomes.push({ kind: 'registration', outcome: refusal(error) });
            slots.giveBack({ parent, leg });
            return;
          }
          slots.add(member.id);
          const committedAt = performance.now();
          outcomes.push({ kind: 'registration', outcome: { ok: true, recorded: true } });
          commitMs.push(committedAt - startedAt);
          track({ id: member.id, kind: 'registration', key: parent, needs: 1, committedAt, startedAt, leg });
          // Then the payment's approval activates them (its effects, the bonuses, are not timed here).
          try {
            await memberCommands.activate(member, new Date());
          } catch (error) {
            outcomes.push({ kind: 'activation', outcome: refusal(error) });
          }
        }
      };

      // The reader.
      let reading = true;
      let stoppedAt = Number.POSITIVE_INFINITY;
      const reader = (async () => {
        while (reading || pending.size > 0) {
          const keys = [...pending.keys()];
          if (keys.length > 0) {
            const { rows: walletRows } = await sql<{ member_id: string; total_withdrawn: string }>`
              select member_id, total_withdrawn::text from wallets where member_id = any(${sql.val(keys)}::uuid[])`.execute(readerDb);
            const { rows: countRows } = await sql<{ member_id: string; left_count: number; right_count: number }>`
              select member_id, left_count, right_count from genealogy_counts where member_id = any(${sql.val(keys)}::uuid[])`.execute(readerDb);
            const seenAt = performance.now();
            const withdrawnNow = new Map(walletRows.map((r) => [r.member_id, Number(r.total_withdrawn)]));
            const countsNow = new Map(countRows.map((r) => [r.member_id, r]));
            for (const key of keys) {
              const still = pending.get(key)!.filter((p) => {
                const visible = p.kind === 'withdrawal'
                  ? (withdrawnNow.get(key) ?? 0) >= p.needs
                  : ((p.leg === 'left' ? countsNow.get(key)?.left_count : countsNow.get(key)?.right_count) ?? 0) >= p.needs;
                if (visible) {
                  lags[p.kind].push(seenAt - p.committedAt);
                  lagsFromStart.push(seenAt - p.startedAt);
                }
                return !visible;
              });
              if (still.length === 0) pending.delete(key);
              else pending.set(key, still);
            }
          }
          if (!reading && pending.size > 0 && performance.now() - stoppedAt > 30_000) break;
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      })();

      const holdersDb = process.env.BENCH_LAG_HOLDERS ? createDb(database.connectionString, { max: 1, applicationName: 'lag-holders' }) : null;
      // The withdrawals' reader: 3 in 4 effects.
      const holders = holdersDb ? sampleHorizonHolders(holdersDb, walletLedgerProjection.eventTypes ?? [], consumers.map((c) => c.name)) : null;
      const statementsAtStart = await workerStatements(worker);
      const cpuAtStart = await cpuSnapshot(readerDb, worker.pid);
      ctx.log(`lag: ${rate} commands/s for ${seconds} s`);
      const inFlight: Promise<void>[] = [];
      const start = performance.now();
      const total = Math.round(rate * seconds);
      for (let n = 0; n < total; n++) {
        const due = start + (n * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        inFlight.push(issue(n));
      }
      await Promise.all(inFlight);
      clearInterval(analyzing);
      const held = await holders?.stop();
      await holdersDb?.destroy();
      if (held) for (const h of held.holders) ctx.log(`lag: the wallet ledger's horizon held ${(h.share * 100).toFixed(1)} % of ${held.samples} samples by ${h.holder} (open p50 ${h.p50OpenMs.toFixed(0)} ms, max ${h.maxOpenMs.toFixed(0)} ms)`);
      const issuedSeconds = (performance.now() - start) / 1000;
      stoppedAt = performance.now();
      reading = false;
      await reader;
      const worked = statementsBetween(statementsAtStart, await workerStatements(worker));
      const cpuAtEnd = await cpuSnapshot(readerDb, worker.pid);
      const wallSeconds = (cpuAtEnd.at - cpuAtStart.at) / 1000;
      const cpu = {
        wallSeconds,
        cpus: os.availableParallelism(),
        bench: cpuAtEnd.bench - cpuAtStart.bench,
        worker: cpuAtEnd.worker - cpuAtStart.worker,
        // A backend that ended during the run is not counted (its start only); the pools keep theirs.
        backends: Object.fromEntries([...cpuAtEnd.backends].map(([app, seconds]) => [app || '(unnamed)', seconds - (cpuAtStart.backends.get(app) ?? 0)])),
      };
      const unseenList = [...pending.values()].flat();
      const unseen = unseenList.length;
      const refused = refusalsByKind(outcomes);
      const failures = refused.reduce((n, r) => n + r.count, 0);
      const replays = outcomes.filter((o) => o.outcome.ok && !o.outcome.recorded).length;
      // Each unseen effect against the log now, then after its reader is drained once more (the
      // worker stopped) and against a rebuild of its read model beside the live tables.
      const explained: UnseenReport[] = [];
      for (const u of unseenList) explained.push(await explainUnseen(db, { kind: u.kind, id: u.id!, key: u.key, needs: u.needs, ...(u.leg ? { leg: u.leg } : {}) }));
      let afterDrain: { stillUnseen: number; drained: Record<string, number>; differences: Awaited<ReturnType<typeof drainAndCheck>>['differences'] } | undefined;
      if (unseen > 0) {
        worker.kill('SIGTERM');
        await new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve)));
        const checked = await drainAndCheck(db);
        let stillUnseen = 0;
        for (const u of unseenList) {
          const again = await explainUnseen(db, { kind: u.kind, id: u.id!, key: u.key, needs: u.needs, ...(u.leg ? { leg: u.leg } : {}) });
          if (!again.visible) stillUnseen++;
        }
        afterDrain = { stillUnseen, ...checked };
        for (const e of explained) ctx.log(`lag: not seen: ${JSON.stringify(e)}`);
        ctx.log(`lag: after one more drain (${JSON.stringify(checked.drained)}): ${stillUnseen} of ${unseen} still not visible; rebuilt beside the live tables: ${JSON.stringify(checked.differences)}`);
      }

      const all = summarize([...lags.withdrawal, ...lags.registration]);
      const w = summarize(lags.withdrawal);
      const r = summarize(lags.registration);
      const fromStart = summarize(lagsFromStart);
      const commit = summarize(commitMs);
      const table: Table = {
        title: `Projection lag: ${fmtInt(total)} commands at ${rate}/s open loop (issued in ${issuedSeconds.toFixed(1)} s), the real worker projecting; ms`,
        columns: ['effect', 'commands', 'p50', 'p99', 'max'],
        rows: [
          ['withdrawal → wallets.total_withdrawn', w.count, fmtMs(w.p50Ms), fmtMs(w.p99Ms), fmtMs(w.maxMs)],
          ['registration → parent leg in genealogy_counts', r.count, fmtMs(r.p50Ms), fmtMs(r.p99Ms), fmtMs(r.maxMs)],
          ['all, commit → visible', all.count, fmtMs(all.p50Ms), fmtMs(all.p99Ms), fmtMs(all.maxMs)],
          ['all, command start → visible', fromStart.count, fmtMs(fromStart.p50Ms), fmtMs(fromStart.p99Ms), fmtMs(fromStart.maxMs)],
          ['(the command itself, start → commit)', commit.count, fmtMs(commit.p50Ms), fmtMs(commit.p99Ms), fmtMs(commit.maxMs)],
        ],
        notes: [
          `commit → visible: from the command's transaction returning to the reader (its own connection, polling every ${POLL_MS} ms, one query per table for every pending key) seeing the effect; includes the doorbell (Redis) waking the worker's consumer job (BullMQ), its read of the log, the projection and its commit`,
          'goal (issue 13): p99 < 50 ms',
          `the worker sent ${fmtInt(worked.total)} statements in ${fmtInt(worked.transactions)} transactions (${(worked.total / total).toFixed(1)} statements and ${(worked.transactions / total).toFixed(2)} transactions a command); most sent: ${worked.top.map(([shape, n]) => `${n}× "${shape.slice(0, 40)}"`).join(', ')}; longest waited for (ms in all, count): ${worked.slowest.map(([shape, ms, n]) => `"${shape.slice(0, 40)}" ${fmtInt(ms)} (${fmtInt(n)})`).join(', ')}`,
          `CPU from the first command to the last effect seen (${cpu.wallSeconds.toFixed(1)} s × ${cpu.cpus} CPUs = ${(cpu.wallSeconds * cpu.cpus).toFixed(0)} CPU-s), per command: this process (commands, reader, sampler) ${((cpu.bench * 1000) / total).toFixed(2)} ms, the worker ${((cpu.worker * 1000) / total).toFixed(2)} ms; PostgreSQL backends by application: ${Object.entries(cpu.backends).sort((a, b) => b[1] - a[1]).map(([app, seconds]) => `${app} ${((seconds * 1000) / total).toFixed(2)} ms`).join(', ')}`,
          ...(failures > 0 ? [`${failures} commands refused (no effect to see): ${refused.map((f) => `${f.count} ${f.kind} ${f.status} ${f.error} "${f.message}"`).join('; ')}`] : []),
          ...(replays > 0 ? [`${replays} withdrawals answered without an event`] : []),
          ...(slots.waited > 0 ? [`${slots.waited} registrations waited for a free placement slot under a committed member`] : []),
          ...(unseen > 0
            ? [
                `${unseen} effects of committed commands not seen within 30 s of the last command: ${explained.filter((e) => e.event).length} with their event in the log, ${explained.filter((e) => e.checkpointPassed).length} behind their reader's checkpoint; ${[...new Set(explained.map((e) => e.explanation ?? 'unexplained'))].join('; ')}`,
                `after one more drain of their readers ${afterDrain?.stillUnseen} still not visible; a rebuild beside the live tables differs in ${Object.entries(afterDrain?.differences ?? {}).map(([name, d]) => `${name}: ${d.reduce((n, t) => n + t.onlyLive, 0)} rows`).join(', ')}`,
              ]
            : []),
        ],
      };
      return { tables: [table], data: { rate, seconds, issuedSeconds, total, failures, refused, slotWaits: slots.waited, setupCatchUpSeconds, horizonHolders: held, replays, unseen, unseenExplained: explained, afterDrain, workerStatements: worked, cpu, withdrawal: w, registration: r, all, fromStart, commit } };
    } finally {
      if (worker.exitCode === null && worker.signalCode === null) {
        worker.kill('SIGTERM');
        await new Promise((resolve) => worker.once('exit', resolve));
      }
      await readerDb.destroy();
      await runtime.close();
    }
  },
};

export default lagBench;
