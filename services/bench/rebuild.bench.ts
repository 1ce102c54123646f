import { randomUUID } from 'node:crypto';
import cliProgress from 'cli-progress';
import pg from 'pg';
import { sql } from 'kysely';
import { type BonusCredited, walletStream } from '../src/compensation/events';
import { drainConsumer } from '../src/core/consumers';
import { rebuildBatchSize } from '../src/core/rebuild';
import { createDb, type Db } from '../src/core/db';
import { migrateToLatest } from '../src/core/migrate';
import { type StreamAppend, appendToStreams } from '../src/core/event-store';
import { pointsPolicy } from '../src/points/projections';
import { type ProductPurchaseInitiated, type ProductPurchasePaid, purchaseStream } from '../src/purchases/events';
import { type ReadModel, readModels, rebuildReadModel } from '../src/read-models';
import { seedDemoCompany } from '../src/seed/demo-company';
import type { WithdrawalRequested, WithdrawalSent, WithdrawalSucceeded } from '../src/wallet/events';
import { type BenchModule, type Table, fmtInt } from './harness';
import { projectLedgerSetBased } from './ledger-reference';
import { type BulkMember, appendMembers, benchMetadata, commandContext, drainAll, rootId } from './network';

/**
 * "Rebuild everything" (issue 13, item 6): a log of BENCH_REBUILD_EVENTS events (1,000,000 by
 * default) of a realistic mix, appended in bulk with appendToStreams (real events, hash chain and
 * all), then every read model rebuilt from it one after another, as `npm run rebuild -- all` does
 * (rebuildReadModel: fresh tables beside the live ones, then swapped in), with a progress bar.
 *
 * The mix, per member (a complete binary tree under the root, each member's sponsor its placement
 * parent): MemberRegistered + MemberActivated (network.ts, projected inline), 6 BonusCredited on
 * the member's wallet stream, 1 WithdrawalRequested, and for every second member the withdrawal's
 * WithdrawalSent + WithdrawalSucceeded and a repurchase (ProductPurchaseInitiated +
 * ProductPurchasePaid, one line): 11 events a member on average. No PV (the points policy does not
 * walk the tree while the setup catches it up) and no payments (the compensation policy pays
 * nothing): the log is for the rebuilds, not for the policies.
 *
 * Reference, per read model, same run and database: its events copied set-based from the log, one
 * row each (global_position, stream_id, type, data) into a table of that shape, by INSERT … SELECT
 * in keyset batches of the rebuild's batch size (rebuildBatchSize): reading the same events and writing a row for
 * each, inside PostgreSQL. The wallet ledger's is its own (ledger-reference.ts: its bonus lines
 * by INSERT … SELECT into a copy of wallet_entries, as in the bulk-run benches).
 */

const REFERENCE_TABLE = 'bench_rebuild_reference';
const BONUSES_PER_MEMBER = 6;
export const EVENTS_PER_MEMBER = 2 + BONUSES_PER_MEMBER + 1 + 0.5 * 2 + 0.5 * 2;
const MEMBERS_PER_CHUNK = 1000;

function rebuildEvents(): number {
  const raw = process.env.BENCH_REBUILD_EVENTS;
  const n = raw ? Number(raw) : 1_000_000;
  if (!Number.isInteger(n) || n < 1000) throw new Error(`BENCH_REBUILD_EVENTS: bad event count ${raw}`);
  return n;
}

type ModelResult = {
  name: string;
  kind: ReadModel['kind'];
  events: number;
  seconds: number;
  eventsPerSecond: number;
  referenceSeconds: number;
  referenceEventsPerSecond: number;
  ratio: number;
  goalMet: boolean;
};

const bank = { bank_name: 'Bench Bank', bank_code: '001', account_number: '0123456789', account_name: 'Bench Member' };

/** The log: members in heap order (parents first), then each chunk's wallet and purchase streams. */
export async function generateLog(ctx: Pick<Parameters<BenchModule['run']>[0], 'log'>, db: Db, members: number): Promise<void> {
  const now = new Date();
  const root = await rootId(db);
  const product = await db.selectFrom('products').select(['id', 'name', 'worth', 'points']).orderBy('id').executeTakeFirstOrThrow();
  const metadata = benchMetadata(now);
  const ids: string[] = [root, root]; // heap numbering from 1: ids[1] is the root
  const started = performance.now();
  for (let first = 2; first < members + 2; first += MEMBERS_PER_CHUNK) {
    const chunk: BulkMember[] = [];
    for (let k = first; k < Math.min(first + MEMBERS_PER_CHUNK, members + 2); k++) {
      const id = randomUUID();
      ids[k] = id;
      chunk.push({ id, username: `rb${k}`, sponsorId: ids[k >> 1]!, placementParentId: ids[k >> 1]!, leg: k % 2 === 0 ? 'left' : 'right', packageId: 1 + (k % 6) });
    }
    await appendMembers(db, chunk, now);
    const appends: StreamAppend[] = [];
    chunk.forEach((m, i) => {
      const k = first + i;
      const bonuses: BonusCredited[] = Array.from({ length: BONUSES_PER_MEMBER }, (_, g) => ({
        type: 'BonusCredited',
        data: {
          kind: g === 0 ? 'referral' : 'unilevel',
          beneficiary_id: m.id,
          amount_kobo: 10_000_00 + ((k * 7 + g * 13) % 1000) * 100,
          cause: { event_id: randomUUID(), event_type: 'MemberActivated', stream_id: `member-${m.id}`, member_id: m.id },
          generation: g + 1,
          inputs: { base_kobo: 100_000_00, percent: 10 },
        },
      }));
      const withdrawalId = randomUUID();
      const requested: WithdrawalRequested = {
        type: 'WithdrawalRequested',
        data: {
          withdrawal_id: withdrawalId, member_id: m.id, kind: 'withdrawal', amount_kobo: 5_000_00, fee_kobo: 100_00, net_kobo: 4_900_00, bank,
          reason: 'bench', automatic: false, fee_inputs: { charge_type: 'flat', charge_percent: 0, charge_flat_kobo: 100_00, charge_cap_kobo: 0 }, balance_before_kobo: 60_000_00,
        },
      };
      const reference = `wd-${withdrawalId}`;
      const settled: Array<WithdrawalSent | WithdrawalSucceeded> =
        k % 2 === 0
          ? [
              { type: 'WithdrawalSent', data: { withdrawal_id: withdrawalId, member_id: m.id, transfer_reference: reference, transfer_code: `TRF_${k}`, recipient_code: `RCP_${k}`, via: 'transfer_response' } },
              { type: 'WithdrawalSucceeded', data: { withdrawal_id: withdrawalId, member_id: m.id, transfer_reference: reference, via: 'webhook' } },
            ]
          : [];
      appends.push({ streamId: walletStream(m.id), events: [...bonuses, requested, ...settled] });
      if (k % 2 === 1) {
        const purchaseId = randomUUID();
        const lines = [{ product_id: product.id, name: product.name, qty: 1, price_kobo: Number(product.worth), points: 0 }];
        const initiated: ProductPurchaseInitiated = {
          type: 'ProductPurchaseInitiated',
          data: {
            purchase_id: purchaseId, member_id: m.id, pickup_type: 'repurchase_pickup', payment_method: 'wallet', payment_id: null,
            total_price_kobo: Number(product.worth), total_points: 0, total_quantity: 1, lines, order_code: `R${k.toString(36).toUpperCase().padStart(7, '0')}`,
          },
        };
        const paid: ProductPurchasePaid = {
          type: 'ProductPurchasePaid',
          data: { purchase_id: purchaseId, member_id: m.id, pickup_type: 'repurchase_pickup', total_price_kobo: Number(product.worth), total_points: 0, lines, payment_method: 'wallet' },
        };
        appends.push({ streamId: purchaseStream(purchaseId), events: [initiated, paid] });
      }
    });
    await db.transaction().execute((trx) => appendToStreams(trx, appends, { metadata }));
    if (((first - 2) / MEMBERS_PER_CHUNK) % 10 === 9) {
      const done = first - 2 + chunk.length;
      ctx.log(`rebuild: ${fmtInt(done)} of ${fmtInt(members)} members' events appended (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
}

/** The read model's events copied set-based into REFERENCE_TABLE, keyset batches of `batch`. Returns seconds. */
async function referenceCopy(db: Db, types: readonly string[], batch: number): Promise<number> {
  await sql`truncate ${sql.table(REFERENCE_TABLE)}`.execute(db);
  const filter = types.length > 0 ? sql`and type = any(${sql.val(types)}::text[])` : sql``;
  const started = performance.now();
  for (let after = 0; ; ) {
    const { rows } = await sql<{ last: number | null; n: number }>`
      with batch as (
        select global_position, stream_id, type, data from events where global_position > ${after} ${filter}
        order by global_position limit ${batch}
      ), inserted as (
        insert into ${sql.table(REFERENCE_TABLE)} (global_position, stream_id, type, data)
        select global_position, stream_id, type, data from batch
        returning global_position
      )
      select max(global_position)::bigint as last, count(*)::int as n from inserted`.execute(db);
    if (!rows[0] || rows[0].n === 0 || rows[0].last === null) break;
    after = Number(rows[0].last);
  }
  return (performance.now() - started) / 1000;
}

async function countEventsOf(db: Db, types: readonly string[]): Promise<number> {
  const filter = types.length > 0 ? sql`where type = any(${sql.val(types)}::text[])` : sql``;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from events ${filter}`.execute(db);
  return rows[0]!.n;
}

/**
 * BENCH_REBUILD_DATABASE's database: reused when its log is complete (bench_rebuild_log says a run
 * filled it), else (re)created and migrated here, to be filled by the run. Never dropped by the bench.
 */
async function keptDatabase(ctx: Parameters<BenchModule['run']>[0], name: string): Promise<{ name: string; connectionString: string; reused: boolean }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`BENCH_REBUILD_DATABASE: bad database name ${name}`);
  const server = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  const urlFor = (database: string) => Object.assign(new URL(server), { pathname: `/${database}` }).toString();
  const admin = new pg.Client({ connectionString: urlFor('postgres') });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (exists) {
      const probe = new pg.Client({ connectionString: urlFor(name) });
      await probe.connect();
      try {
        const filled = await probe.query(`select 1 from pg_tables where schemaname = 'public' and tablename = 'bench_rebuild_log'`);
        if (filled.rowCount === 1 && ((await probe.query('select 1 from bench_rebuild_log')).rowCount ?? 0) > 0) return { name, connectionString: urlFor(name), reused: true };
      } finally {
        await probe.end();
      }
      ctx.log(`rebuild: ${name} holds no complete log: dropping and filling it again`);
      await admin.query(`drop database "${name}" with (force)`);
    }
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const connectionString = urlFor(name);
  const db = createDb(connectionString, { max: 1, applicationName: 'portal-bench-migrate' });
  try {
    await migrateToLatest(db);
    await sql`create table bench_rebuild_log (events int not null, filled_at timestamptz not null default now())`.execute(db);
  } finally {
    await db.destroy();
  }
  ctx.log(`rebuild: created ${name} (BENCH_REBUILD_DATABASE): it is kept, drop it by hand`);
  return { name, connectionString, reused: false };
}

const rebuildBench: BenchModule = {
  name: 'rebuild',
  description: 'every read model rebuilt from a log of BENCH_REBUILD_EVENTS events (1,000,000 by default; the table gives the count) of a realistic mix, each beside a set-based copy of its events',
  async run(ctx) {
    const target = rebuildEvents();
    const members = Math.ceil(target / EVENTS_PER_MEMBER);
    // BENCH_REBUILD_DATABASE=<name>: a kept log (generating 1,000,000 events takes long here): made
    // once (created, migrated, seeded and filled, never dropped by the bench), then reused as it is
    // by every later run, of this branch or another with the same schema (drop it by hand).
    const kept = process.env.BENCH_REBUILD_DATABASE;
    const database = kept ? await keptDatabase(ctx, kept) : { ...(await ctx.freshDatabase(`rebuild_${target}`)), reused: false };
    const db = createDb(database.connectionString, { max: 4, applicationName: 'portal-bench-rebuild' });
    try {
      let t0 = performance.now();
      let generateSeconds = Number.NaN;
      if (!database.reused) {
        await seedDemoCompany(commandContext(db), new Date());
        await drainAll(db);
        ctx.log(`rebuild: appending ${fmtInt(members)} members' events (~${fmtInt(target)} events)`);
        t0 = performance.now();
        await generateLog(ctx, db, members);
        generateSeconds = (performance.now() - t0) / 1000;
        // The member-points policy state follows the points policy's checkpoint: bring it to the end.
        const points = await drainConsumer(db, pointsPolicy);
        if (points.status !== 'caught_up') throw new Error(`points: ${points.status} ${points.error ?? ''}`);
        await sql`vacuum analyze events`.execute(db);
        if (kept) await sql`insert into bench_rebuild_log (events) values (${target})`.execute(db);
      }
      const logEvents = await countEventsOf(db, []);
      ctx.log(
        database.reused
          ? `rebuild: reusing the kept log ${database.name}: ${fmtInt(logEvents)} events; rebuilding ${readModels.length} read models`
          : `rebuild: ${fmtInt(logEvents)} events in the log (appended in ${generateSeconds.toFixed(0)} s); rebuilding ${readModels.length} read models`,
      );
      await sql`drop table if exists ${sql.table(REFERENCE_TABLE)}`.execute(db);
      await sql`drop table if exists bench_rebuild_reference_ledger`.execute(db);
      await sql`create table ${sql.table(REFERENCE_TABLE)} (global_position bigint primary key, stream_id text not null, type text not null, data jsonb not null)`.execute(db);

      // A bar per read model in a terminal; a line every 10 % when stderr is a file or a pipe.
      const tty = process.stderr.isTTY === true;
      const bars = tty
        ? new cliProgress.MultiBar({ format: ' {name} |{bar}| {percentage}% {value}/{total} events {rate}', hideCursor: true, clearOnComplete: false, stopOnComplete: true }, cliProgress.Presets.shades_classic)
        : null;
      const width = Math.max(...readModels.map((m) => m.name.length));
      const results: ModelResult[] = [];
      t0 = performance.now();
      for (const model of readModels) {
        const events = await countEventsOf(db, model.eventTypes);
        const bar = bars?.create(Math.max(events, 1), 0, { name: model.name.padEnd(width), rate: '' });
        let nextTenth = 1;
        const started = performance.now();
        await rebuildReadModel(db, model, {
          swap: true,
          onProgress: ({ applied, total }) => {
            const elapsed = (performance.now() - started) / 1000;
            if (bar) bar.update(applied, { rate: `${fmtInt(applied / Math.max(elapsed, 1e-3))}/s` });
            else if (total > 0 && applied >= (nextTenth * total) / 10) {
              ctx.log(`rebuild ${model.name}: ${Math.floor((applied * 100) / total)} % (${fmtInt(applied)}/${fmtInt(total)} events, ${elapsed.toFixed(1)} s)`);
              nextTenth = Math.floor((applied * 10) / total) + 1;
            }
          },
        });
        const seconds = (performance.now() - started) / 1000;
        bar?.update(Math.max(events, 1));
        // The batch size the rebuild read (core/rebuild.ts rebuildBatchSize: 5,000 here, the same for every kind).
        const batch = rebuildBatchSize(model.consumer ?? {});
        // The wallet ledger's own set-based reference (its bonus lines by INSERT … SELECT, as in the
        // bulk-run benches), over the same events; every other read model's: a copy of its events.
        const referenceSeconds =
          model.name === 'wallet-ledger' ? await projectLedgerSetBased(db, 'bench_rebuild_reference_ledger', 0) : await referenceCopy(db, model.eventTypes, batch);
        const eventsPerSecond = events / seconds;
        const referenceEventsPerSecond = events / referenceSeconds;
        const ratio = events === 0 ? Number.NaN : eventsPerSecond / referenceEventsPerSecond;
        results.push({ name: model.name, kind: model.kind, events, seconds, eventsPerSecond, referenceSeconds, referenceEventsPerSecond, ratio, goalMet: events === 0 || ratio >= 0.5 });
        if (!bar) ctx.log(`rebuild ${model.name}: ${fmtInt(events)} events in ${seconds.toFixed(1)} s = ${fmtInt(eventsPerSecond)}/s, reference ${fmtInt(referenceEventsPerSecond)}/s, ${ratio.toFixed(2)}×`);
      }
      bars?.stop();
      const totalSeconds = (performance.now() - t0) / 1000;
      const table: Table = {
        title: `every read model rebuilt from a log of ${fmtInt(logEvents)} events (goal: each ≥ 0.5× the set-based reference's events/s)`,
        columns: ['read model', 'kind', 'events', 'rebuild s', 'events/s', 'reference events/s', 'ours ÷ reference'],
        rows: results.map((r) => [
          r.name,
          r.kind,
          fmtInt(r.events),
          r.seconds.toFixed(2),
          fmtInt(r.eventsPerSecond),
          fmtInt(r.referenceEventsPerSecond),
          Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : 'n/a',
        ]),
        notes: [
          `log: ${database.reused ? `the kept database ${database.name} (BENCH_REBUILD_DATABASE), ` : ''}members in a complete binary tree, each registered + activated, 6 BonusCredited, 1 WithdrawalRequested; every second member's withdrawal sent and succeeded, and a paid repurchase${database.reused ? '' : `; ${fmtInt(members)} members appended in ${generateSeconds.toFixed(0)} s`}`,
          'ours: rebuildReadModel as `npm run rebuild -- all` runs it (fresh tables beside the live ones, the log in the read model\'s batches, swapped in); reference: the same events copied by INSERT … SELECT in keyset batches of the same size into (global_position, stream_id, type, data); the wallet ledger\'s: its bonus lines projected by INSERT … SELECT into a copy of wallet_entries (the bulk-run benches\' reference), its rate over all its events',
          `all read models: ${totalSeconds.toFixed(0)} s, references included`,
        ],
      };
      return { tables: [table], data: { logEvents, members, database: database.reused ? database.name : null, generateSeconds, totalSeconds, models: results } };
    } finally {
      await db.destroy();
    }
  },
};

export default rebuildBench;
