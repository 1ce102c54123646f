import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { ledgerAgainstReference, ledgerRounds, projectLedgerSetBased } from './ledger-reference';
import { walletLedgerProjection } from '../src/compensation/projections';
import { runInTransaction } from '../src/core/command';
import { type Consumer, drainConsumer } from '../src/core/consumers';
import { type Db, createDb } from '../src/core/db';
import { pointsPolicy } from '../src/points/projections';
import { runGlobalProfitShare, runProfitPoolShare } from '../src/profit-sharing/commands';
import { profitSharingPolicy } from '../src/profit-sharing/projections';
import { addMonths } from '../src/profit-sharing/policies';
import { seedDemoCompany } from '../src/seed/demo-company';
import { changeSettings } from '../src/settings/commands';
import { companyDate } from '../src/wallet/payout-schedule';
import { type BenchModule, type Table, fmtInt } from './harness';
import { benchMetadata, commandContext, drainAll, rootId } from './network';

/**
 * Global profit and the profit pool over 10,000, 100,000 and (BENCH_SCALE=1m) 1,000,000 members
 * (BENCH_PROFIT_SCALES to choose; issue 13, item 4): each run's command, then the policy that pays
 * it (`points` for a global profit share, as at the share's place in the log; `profit-sharing`
 * for the pool), the wallet ledger, then every other consumer until quiet. Reference, same run and
 * database: the same bonus events projected set-based (INSERT … SELECT from the log) into a copy
 * of wallet_entries, as the matching benchmark does.
 *
 * The network is written set-based into the tables the policies read, without events (as
 * matching.bench.ts): a complete binary tree under the root, each member's sponsor its placement
 * parent, everyone on the profit-pool package (Crown, 6) and activated 60 days ago; every second
 * member holds a global-profit-eligible rank with a CPV from a hash. The profit pool asks for 2
 * active sponsored members (the tree's inner members qualify, about half), and its basis is one
 * approved registration payment of last month. So each run pays about half the members.
 */

const LEDGER_REFERENCE_TABLE = 'bench_reference_profit_rows';

function profitScales(): number[] {
  const explicit = process.env.BENCH_PROFIT_SCALES;
  if (explicit) {
    return explicit.split(',').map((raw) => {
      const n = Number(raw.trim());
      if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_PROFIT_SCALES: bad member count ${raw}`);
      return n;
    });
  }
  return process.env.BENCH_SCALE === '1m' ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
}

type RunKind = 'global_profit' | 'profit_pool';

type RunResult = {
  run: RunKind;
  members: number;
  /** The run's command → every bonus event and wallet line recorded (policy and wallet ledger drained). */
  recordedSeconds: number;
  /** The run's command → every consumer drained (member notifications of each credit included). */
  oursSeconds: number;
  commandSeconds: number;
  policySeconds: number;
  walletLedgerSeconds: number;
  walletLedgerRowsPerSecond: number;
  referenceLedgerSeconds: number;
  referenceLedgerRowsPerSecond: number;
  /** walletLedgerRowsPerSecond ÷ referenceLedgerRowsPerSecond (goal ≥ 0.5). */
  ledgerRatio: number;
  /** The whole ledger and its reference re-run alternately (ledgerAgainstReference): medians and their ratio (the goal's figure). */
  ledgerMedianSeconds: number;
  referenceLedgerMedianSeconds: number;
  ledgerRatioMedian: number;
  walletRows: number;
  bonusEvents: number;
  perConsumerMs: Record<string, number>;
};

/** Members and the facts the two runs read, set-based (see the file's comment). */
async function buildNetwork(db: Db, members: number, now: Date): Promise<void> {
  const root = await rootId(db);
  const activatedAt = new Date(now.getTime() - 60 * 86_400_000);
  const { rows } = await sql<{ id: number }>`select id from ranks where is_global_profit_eligible order by points limit 1`.execute(db);
  const eligibleRank = rows[0]?.id;
  if (eligibleRank === undefined) throw new Error('no global-profit-eligible rank in the seed');
  await db.transaction().execute(async (trx) => {
    // The bench's own bulk setup is not the app's work: the app's 30 s statement timeout does not apply to it.
    await sql`set local statement_timeout = 0`.execute(trx);
    await sql`create temporary table bench_heap (k integer primary key, id uuid not null) on commit drop`.execute(trx);
    await sql`insert into bench_heap values (1, ${root}::uuid)`.execute(trx);
    await sql`insert into bench_heap select k, gen_random_uuid() from generate_series(2, ${members + 1}::int) k`.execute(trx);
    await sql`
      insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, sponsor_id,
                           placement_parent_id, placement_leg, email_verified_at, activated_at, created_at, updated_at,
                           registered_xid, registered_position, activated_xid, activated_position, package_xid, package_position)
      select h.id, 'pb' || h.k, 'pb' || h.k || '@bench.test', 'Bench', 'Member ' || h.k, '08030000000', 6, 6, p.id,
             p.id, case when h.k % 2 = 0 then 'left' else 'right' end, ${activatedAt}, ${activatedAt}, ${activatedAt}, ${activatedAt},
             pg_current_xact_id(), 0, pg_current_xact_id(), 0, pg_current_xact_id(), 0
      from bench_heap h join bench_heap p on p.k = h.k / 2
      where h.k >= 2
      order by h.k`.execute(trx);
    await sql`
      insert into member_points (member_id, personal_pv, cpv, left_pv, right_pv, rank_id, updated_at)
      select id, 0, 50000 + abs(hashtext('cpv' || k)) % 100000, 0, 0, case when k % 2 = 0 then ${eligibleRank}::int end, ${now}
      from bench_heap where k >= 2`.execute(trx);
    // The pool's basis: one approved registration payment of last month (a read-model row, no events).
    const lastMonth = `${addMonths(`${companyDate(now).slice(0, 7)}-01`, -1).slice(0, 7)}-15T12:00:00+01:00`;
    await sql`
      insert into package_payments (id, member_id, purpose, method, package_id, from_package_id, amount_due, amount_paid, reference, receipt_path,
                                    status, status_reason, decided_by, decided_at, created_at, updated_at)
      values (${randomUUID()}, ${root}::uuid, 'registration', 'pop', 6, null, 50000000000, 50000000000, null, null,
              'approved', null, null, ${lastMonth}::timestamptz, ${lastMonth}::timestamptz, ${lastMonth}::timestamptz)`.execute(trx);
  });
  await sql`analyze members`.execute(db);
  await sql`analyze member_points`.execute(db);
}

async function measureRun(
  ctx: Parameters<BenchModule['run']>[0],
  db: Db,
  input: { run: RunKind; members: number; policy: Consumer; command: () => Promise<{ ran: boolean }> },
): Promise<RunResult> {
  const positionBefore = (await sql<{ p: number }>`select coalesce(max(global_position), 0)::bigint as p from events`.execute(db)).rows[0]!.p;
  ctx.log(`profit-sharing ${fmtInt(input.members)}: ${input.run}`);
  const t0 = performance.now();
  const ran = await input.command();
  if (!ran.ran) throw new Error(`${input.run}: the run was not due`);
  const commandSeconds = (performance.now() - t0) / 1000;
  const p0 = performance.now();
  const paid = await drainConsumer(db, input.policy);
  if (paid.status !== 'caught_up') throw new Error(`${input.policy.name}: ${paid.status} ${paid.error ?? ''}`);
  const policySeconds = (performance.now() - p0) / 1000;
  const w0 = performance.now();
  const projected = await drainConsumer(db, walletLedgerProjection);
  if (projected.status !== 'caught_up') throw new Error(`wallet-ledger: ${projected.status}`);
  const walletLedgerSeconds = (performance.now() - w0) / 1000;
  const recordedSeconds = (performance.now() - t0) / 1000;
  const { perConsumer, settledAt } = await drainAll(db);
  const oursSeconds = (Math.max(settledAt, t0) - t0) / 1000;
  perConsumer.set(input.policy.name, (perConsumer.get(input.policy.name) ?? 0) + policySeconds * 1000);
  perConsumer.set('wallet-ledger', (perConsumer.get('wallet-ledger') ?? 0) + walletLedgerSeconds * 1000);
  const bonusEvents = (
    await sql<{ n: number }>`select count(*)::int as n from events where global_position > ${positionBefore} and type in ('BonusCredited', 'BonusWithheld') and data->>'kind' = ${input.run}`.execute(db)
  ).rows[0]!.n;
  const walletRows = (await sql<{ n: number }>`select count(*)::int as n from wallet_entries where kind = ${input.run}`.execute(db)).rows[0]!.n;
  if (walletRows !== bonusEvents || walletRows === 0) throw new Error(`${input.run}: ${bonusEvents} bonus events but ${walletRows} wallet rows`);

  // Reference: the same events projected set-based from the log, in keyset batches of the ledger's size.
  const referenceLedgerSeconds = await projectLedgerSetBased(db, LEDGER_REFERENCE_TABLE, Number(positionBefore));
  // Again, alternately, median of BENCH_LEDGER_ROUNDS (3): the whole log's wallet events (this run's and any before it).
  const again = await ledgerAgainstReference(db, LEDGER_REFERENCE_TABLE, ledgerRounds());
  const result: RunResult = {
    run: input.run,
    members: input.members,
    recordedSeconds,
    oursSeconds,
    commandSeconds,
    policySeconds,
    walletLedgerSeconds,
    walletLedgerRowsPerSecond: walletRows / walletLedgerSeconds,
    referenceLedgerSeconds,
    referenceLedgerRowsPerSecond: walletRows / referenceLedgerSeconds,
    ledgerRatio: referenceLedgerSeconds / walletLedgerSeconds,
    ledgerMedianSeconds: again.oursSeconds,
    referenceLedgerMedianSeconds: again.referenceSeconds,
    ledgerRatioMedian: again.referenceSeconds / again.oursSeconds,
    walletRows,
    bonusEvents,
    perConsumerMs: Object.fromEntries(perConsumer),
  };
  ctx.log(`profit-sharing ${fmtInt(input.members)} ${input.run}: ${fmtInt(walletRows)} bonuses, ${recordedSeconds.toFixed(1)} s recorded (policy ${policySeconds.toFixed(1)} s, ledger ${walletLedgerSeconds.toFixed(1)} s = ${result.ledgerRatio.toFixed(2)}× the reference; re-run alternately, median ${result.ledgerRatioMedian.toFixed(2)}×), ${oursSeconds.toFixed(1)} s until quiet`);
  return result;
}

async function measureScale(ctx: Parameters<BenchModule['run']>[0], members: number): Promise<RunResult[]> {
  const database = await ctx.freshDatabase(`profit_${members}`);
  const db = createDb(database.connectionString, { max: 4, applicationName: 'portal-bench-profit-sharing' });
  const now = new Date();
  const commands = commandContext(db);
  try {
    await seedDemoCompany(commands, now);
    const today = companyDate(now);
    // The share date is today (set today: the anchor), and the pool asks for 2 active sponsored members.
    await runInTransaction(commands, (trx) =>
      changeSettings(trx, { next_global_profit_share_month: Number(today.slice(5, 7)), next_global_profit_share_day: Number(today.slice(8, 10)), profit_pool_num_of_downlines: 2 }, benchMetadata(now)),
    );
    await drainAll(db);
    ctx.log(`profit-sharing ${fmtInt(members)}: writing the members, their ranks and CPV`);
    const b0 = performance.now();
    await buildNetwork(db, members, now);
    ctx.log(`profit-sharing ${fmtInt(members)}: network written in ${((performance.now() - b0) / 1000).toFixed(1)} s`);
    const global = await measureRun(ctx, db, { run: 'global_profit', members, policy: pointsPolicy, command: () => runGlobalProfitShare(commands, now) });
    const pool = await measureRun(ctx, db, { run: 'profit_pool', members, policy: profitSharingPolicy, command: () => runProfitPoolShare(commands, now) });
    return [global, pool];
  } finally {
    await db.destroy();
  }
}

const profitSharingBench: BenchModule = {
  name: 'profit-sharing',
  description: 'a global profit share and a profit pool over 10,000 / 100,000 (/ 1,000,000 with BENCH_SCALE=1m) members until every bonus is in the wallet tables',
  async run(ctx) {
    const results: RunResult[] = [];
    for (const members of profitScales()) results.push(...(await measureScale(ctx, members)));
    const table: Table = {
      title: 'global profit and profit pool: the run → every bonus event and wallet line recorded (goal: ledger ≥ 0.5× the set-based reference)',
      columns: ['members', 'run', 'bonus rows', 'events + wallet lines s', 'every consumer quiet s', 'policy s', 'wallet ledger s', 'ledger rows/s', 'reference ledger rows/s', 'ledger ÷ reference', `ledger ÷ reference, median of ${ledgerRounds()} alternating`],
      rows: results.map((r) => [
        fmtInt(r.members),
        r.run === 'global_profit' ? 'global profit' : 'profit pool',
        fmtInt(r.walletRows),
        r.recordedSeconds.toFixed(2),
        r.oursSeconds.toFixed(2),
        r.policySeconds.toFixed(2),
        r.walletLedgerSeconds.toFixed(2),
        fmtInt(r.walletLedgerRowsPerSecond),
        fmtInt(r.referenceLedgerRowsPerSecond),
        `${r.ledgerRatio.toFixed(2)}×`,
        `${r.ledgerRatioMedian.toFixed(2)}× (${r.ledgerMedianSeconds.toFixed(2)} ÷ ${r.referenceLedgerMedianSeconds.toFixed(2)} s)`,
      ]),
      notes: [
        'each size in a fresh database; members written set-based (a complete binary tree, all on the profit-pool package, activated 60 days ago; every second member on a global-profit-eligible rank, CPV from a hash)',
        'global profit: runGlobalProfitShare, paid by the points policy at the share (decide, reserve keys, append BonusCredited); profit pool: runProfitPoolShare, paid by the profit-sharing policy (2 active sponsored members required)',
        'reference ledger: the same events projected by INSERT … SELECT from the log in keyset batches of the same size, into a copy of wallet_entries (no wallets totals)',
        `median of ${ledgerRounds()} alternating: the whole log's wallet events projected again from scratch and the reference again, in turn, ${ledgerRounds()} times (BENCH_LEDGER_ROUNDS), the medians' ratio (the goal is judged on it)`,
        ...results.map((r) => `${fmtInt(r.members)} ${r.run}: time per consumer ${Object.entries(r.perConsumerMs).filter(([, ms]) => ms >= 1).map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`).join(', ')}`),
      ],
    };
    return {
      tables: [table],
      data: {
        // Growth curves (issue 13, item 4), one point per network size and run, for the HTML report.
        growthCurve: results.map((r) => ({ ...r, goalLedgerMet: r.ledgerRatioMedian >= 0.5 })),
      },
    };
  },
};

export default profitSharingBench;
