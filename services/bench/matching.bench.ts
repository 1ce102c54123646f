import { sql } from 'kysely';
import { createDb } from '../src/core/db';
import { closeMatchingCycle } from '../src/matching/commands';
import { seedDemoCompany } from '../src/seed/demo-company';
import { getSettings } from '../src/settings/projections';
import { companyDate } from '../src/wallet/payout-schedule';
import { type BenchModule, type Table, fmtInt } from './harness';
import { commandContext, drainAll, quantile, rootId } from './network';

/**
 * A matching cycle over BENCH_MATCHING_MEMBERS (100,000) members: closeMatchingCycle, then every
 * consumer drained until quiet (the `matching` policy pays every member with a pair through
 * appendToStreams, the wallet ledger projects the bonuses), timed until all bonuses are in the
 * wallet tables. Reference, same run and database: one plain set-based INSERT … SELECT of the same
 * number of rows into a copy of wallet_entries (the physical floor of writing that many rows).
 *
 * The network is written straight into the tables the policy reads, set-based, without events:
 * members (a complete binary tree under the root, each member's sponsor its placement parent,
 * packages 1–6 in turn, all active) and member_points (leg volumes 0–2,999 PV each, from a hash of
 * the member's number, so the run is the same every time). Without events no consumer has setup
 * work; the matching policy reads only these rows (and writes wallet streams).
 */

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

const PLAIN_TABLE = 'bench_plain_wallet_rows';

const matchingBench: BenchModule = {
  name: 'matching',
  description: 'one matching cycle over BENCH_MATCHING_MEMBERS (100,000) members until every bonus is in the wallet tables',
  async run(ctx) {
    const members = envInt('BENCH_MATCHING_MEMBERS', 100_000);
    const database = await ctx.freshDatabase('matching');
    const db = createDb(database.connectionString, { max: 4, applicationName: 'portal-bench-matching' });
    const now = new Date();
    try {
      await seedDemoCompany(commandContext(db), now);
      await drainAll(db);
      const root = await rootId(db);

      ctx.log(`matching: writing ${fmtInt(members)} members and their leg volumes`);
      let t0 = performance.now();
      await db.transaction().execute(async (trx) => {
        // Heap numbering: the root is 1, member k's placement parent (and sponsor) is k / 2, on the left when k is even.
        await sql`create temporary table bench_heap (k integer primary key, id uuid not null) on commit drop`.execute(trx);
        await sql`insert into bench_heap values (1, ${root}::uuid)`.execute(trx);
        await sql`insert into bench_heap select k, gen_random_uuid() from generate_series(2, ${members + 1}::int) k`.execute(trx);
        await sql`
          insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, sponsor_id,
                               placement_parent_id, placement_leg, email_verified_at, activated_at, created_at, updated_at)
          select h.id, 'mb' || h.k, 'mb' || h.k || '@bench.test', 'Bench', 'Member ' || h.k, '08030000000', 1 + h.k % 6, 1 + h.k % 6, p.id,
                 p.id, case when h.k % 2 = 0 then 'left' else 'right' end, ${now}, ${now}, ${now}, ${now}
          from bench_heap h join bench_heap p on p.k = h.k / 2
          where h.k >= 2
          order by h.k`.execute(trx);
        await sql`
          insert into member_points (member_id, personal_pv, cpv, left_pv, right_pv, updated_at)
          select id, 0, 0, abs(hashtext('left' || k)) % 3000, abs(hashtext('right' || k)) % 3000, ${now}
          from bench_heap where k >= 2`.execute(trx);
      });
      await sql`analyze members`.execute(db);
      await sql`analyze member_points`.execute(db);
      const buildSeconds = (performance.now() - t0) / 1000;
      const settings = await getSettings(db);

      // --- Ours: close the cycle that ended yesterday, drain until quiet.
      const cycleEnd = companyDate(new Date(now.getTime() - 86_400_000));
      ctx.log(`matching: closing the cycle ending ${cycleEnd}`);
      const positionBefore = (await sql<{ p: number }>`select coalesce(max(global_position), 0)::bigint as p from events`.execute(db)).rows[0]!.p;
      t0 = performance.now();
      const closed = await closeMatchingCycle(db, cycleEnd, now);
      if (!closed.closed) throw new Error(`cycle ${cycleEnd} was already closed`);
      const { perConsumer, settledAt } = await drainAll(db);
      const oursSeconds = (settledAt - t0) / 1000;
      const bonusEvents = (
        await sql<{ n: number }>`select count(*)::int as n from events where global_position > ${positionBefore} and type in ('BonusCredited', 'BonusWithheld')`.execute(db)
      ).rows[0]!.n;
      const walletRows = (await sql<{ n: number }>`select count(*)::int as n from wallet_entries where kind = 'matching'`.execute(db)).rows[0]!.n;
      if (walletRows !== bonusEvents || walletRows === 0) throw new Error(`matching: ${bonusEvents} bonus events but ${walletRows} wallet rows`);
      const cycle = (await sql<{ members_matched: number; credited_kobo: number; withheld_kobo: number }>`
        select members_matched, credited_kobo, withheld_kobo from matching_cycles where cycle_end = ${cycleEnd}::date`.execute(db)).rows[0]!;

      // --- Reference: the same number of rows, one set-based INSERT, same database, three times (median).
      await sql`create table ${sql.table(PLAIN_TABLE)} (like wallet_entries including all)`.execute(db);
      const sample = (await sql<{ inputs: unknown }>`select inputs from wallet_entries where kind = 'matching' limit 1`.execute(db)).rows[0]!.inputs;
      const referenceRuns: number[] = [];
      for (let run = 0; run < 3; run++) {
        await sql`truncate ${sql.table(PLAIN_TABLE)}`.execute(db);
        const r0 = performance.now();
        await sql`
          insert into ${sql.table(PLAIN_TABLE)} (global_position, member_id, entry, kind, amount, generation, reason, cause_event_id, cause_type, cause_member_id, inputs, recorded_at)
          select g, gen_random_uuid(), 'credited', 'matching', 100000, null, null, gen_random_uuid(), 'MatchingCycleClosed', null, ${JSON.stringify(sample)}::jsonb, now()
          from generate_series(1, ${walletRows}::int) g`.execute(db);
        referenceRuns.push((performance.now() - r0) / 1000);
      }
      const referenceSeconds = quantile(referenceRuns, 0.5);

      const table: Table = {
        title: `one matching cycle over ${fmtInt(members)} members (total_pv ${settings.matching_bonus_total_pv}, ${settings.matching_bonus_percent}%)`,
        columns: ['', 'seconds', 'wallet rows', 'rows/s', 'ours ÷ reference'],
        rows: [
          ['ours: closeMatchingCycle → every consumer drained', oursSeconds.toFixed(2), fmtInt(walletRows), fmtInt(walletRows / oursSeconds), `${(oursSeconds / referenceSeconds).toFixed(1)}×`],
          ['reference: one set-based INSERT of as many rows (median of 3)', referenceSeconds.toFixed(2), fmtInt(walletRows), fmtInt(walletRows / referenceSeconds), '—'],
        ],
        notes: [
          `${fmtInt(cycle.members_matched)} members with a result; ${fmtInt(walletRows)} bonus events (credited, capped, withheld) and wallet rows`,
          `time per consumer: ${[...perConsumer].map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`).join(', ')}`,
          `setup (not measured): ${fmtInt(members)} members and leg volumes written set-based in ${buildSeconds.toFixed(1)} s`,
        ],
      };
      return {
        tables: [table],
        data: { members, cycleEnd, oursSeconds, referenceSeconds, referenceRuns, ratio: oursSeconds / referenceSeconds, walletRows, bonusEvents, cycle, perConsumerMs: Object.fromEntries(perConsumer), buildSeconds },
      };
    } finally {
      await db.destroy();
    }
  },
};

export default matchingBench;
