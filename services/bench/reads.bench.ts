import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { startSession } from '../src/auth/sessions';
import { GENEALOGY_MAX_DEPTH } from '../src/contracts/genealogy';
import { type Db, createDb } from '../src/core/db';
import { recountDailyTotals } from '../src/core/daily-totals';
import type { Database } from '../src/database';
import { migrateToLatest } from '../src/core/migrate';
import { memberTotals } from '../src/membership/member-totals';
import { paymentTotals } from '../src/payments/projections';
import { withdrawalTotals } from '../src/wallet/projections';
import { createTestApp } from '../test/app';
import { type BenchModule, type Table, fmtInt, fmtMs } from './harness';
import { drainAll, quantile, rootId } from './network';

/**
 * Reads at scale (issue 13 item 7): the member dashboard's calls, the wallet page's first page, the
 * genealogy of a member 10,000 placement levels down and the back office's members list filtered
 * and sorted, with BENCH_SCALE=1m 1,000,000 members and 10,000,000 events (default 100,000 and
 * 1,000,000 so a plain `npm run bench` stays short; BENCH_READS_MEMBERS / BENCH_READS_EVENTS
 * choose). Goal: p95 under 20 ms each.
 *
 * Loaded set-based in SQL (generate_series), in the tables the reads use, without going through
 * appendToStreams (10,000,000 appends would take hours here): members (a complete binary tree
 * under the demo company's root, then a 10,000-deep placement chain hanging from its last member),
 * genealogy_nodes (paths and sponsor chains as the genealogy projection writes them),
 * genealogy_counts (plausible magnitudes; no read's cost depends on the values), member_points,
 * member_profiles, wallets, wallet_entries (3 a member, and 2,000 for the member whose dashboard is
 * read), withdrawals (1 per 2 members), package_payments (a registration a member, an upgrade for 1
 * in 8), the admin dashboard's daily totals of the members, bonuses, payments and withdrawals, and the events (`events` rows of a realistic mix of types).
 * The events bypass the append function: their hash chain is not computed (prev_hash and hash are
 * empty) and they share a few transaction ids. None of the timed reads reads the log (they read the
 * projections), so the log is there for its size: it shares the buffer cache and the disk with the
 * read tables, as in production. The log's secondary indexes are dropped during the load and built
 * again after it (faster than maintaining them row by row).
 *
 * Each read goes through the real api in the bench process (`buildApp` over `createRuntime`, the
 * test app) with `app.inject`: Fastify's routing, guards, session check, zod validation and
 * serialisation, without a socket. Reference, same run: GET /api/health and GET /api/packages/1
 * (one primary-key read), interleaved with the reads so load changes hit them alike.
 */

const CHAIN = 10_000;

/** The configured server's URL for another database (as run.ts names its own). */
function databaseUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${database}`;
  return url.toString();
}

function scale(): { members: number; events: number } {
  const big = process.env.BENCH_SCALE === '1m';
  const members = Number(process.env.BENCH_READS_MEMBERS ?? (big ? 1_000_000 : 100_000));
  const events = Number(process.env.BENCH_READS_EVENTS ?? (big ? 10_000_000 : 1_000_000));
  if (!Number.isInteger(members) || members < CHAIN + 100) throw new Error(`BENCH_READS_MEMBERS must be an integer ≥ ${CHAIN + 100}`);
  if (!Number.isInteger(events) || events < members) throw new Error('BENCH_READS_EVENTS must be an integer ≥ the members');
  return { members, events };
}

const FIRST = ['Adaeze', 'Chinedu', 'Folake', 'Ibrahim', 'Ngozi', 'Oluwaseun', 'Tunde', 'Zainab', 'Emeka', 'Halima', 'Kunle', 'Amaka'];
const LAST = ['Okafor', 'Adeyemi', 'Bello', 'Eze', 'Ibrahim', 'Nwosu', 'Ogunleye', 'Suleiman', 'Obi', 'Balogun', 'Danjuma'];
const BONUS_KINDS = ['referral', 'placement', 'matching', 'unilevel', 'repurchase', 'welcome', 'equilibrium', 'loyalty', 'global_profit', 'profit_pool'];
/** The log's mix: registrations and activations per member, then bonuses, withdrawals, purchases, payments, profile changes. */
const EVENT_MIX: Array<[string, number]> = [
  ['BonusCredited', 45],
  ['MemberRegistered', 10],
  ['MemberActivated', 9],
  ['PackagePaymentRecorded', 9],
  ['WithdrawalRequested', 6],
  ['WithdrawalCompleted', 5],
  ['ProductPurchased', 8],
  ['PvAdded', 5],
  ['ProfileUpdated', 3],
];

async function timed<T>(label: string, log: (m: string) => void, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await work();
  log(`reads: ${label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}

/** Members numbered k = 1 (the root) … n + 1: k ≤ heap in a complete binary tree, then the chain. */
async function loadMembers(db: Db, root: string, members: number, now: Date, log: (m: string) => void): Promise<void> {
  const heap = members - CHAIN + 1; // root included
  const last = members + 1;
  await timed(`numbering ${fmtInt(members)} members`, log, () =>
    db.transaction().execute(async (trx) => {
      await sql`create unlogged table bench_n (k integer primary key, id uuid not null, parent integer, leg text, path varbit not null, depth integer not null)`.execute(trx);
      await sql`insert into bench_n values (1, ${root}::uuid, null, null, B'', 0)`.execute(trx);
      // Heap: parent k/2, left when even; the path is k's bits after the leading 1.
      await sql`
        insert into bench_n
        select k, gen_random_uuid(), k / 2, case when k % 2 = 0 then 'left' else 'right' end,
               substring(k::bit(32) from position(B'1' in k::bit(32)) + 1)::varbit, 32 - position(B'1' in k::bit(32))
        from generate_series(2, ${heap}::int) k`.execute(trx);
      // The chain: each the left child of the one before, the first under the heap's last member.
      await sql`
        insert into bench_n
        select c.k, gen_random_uuid(), c.k - 1, 'left', h.path || repeat('0', c.k - ${heap})::varbit, h.depth + c.k - ${heap}
        from generate_series(${heap + 1}::int, ${last}::int) c(k), bench_n h where h.k = ${heap}`.execute(trx);
    }),
  );
  await sql`analyze bench_n`.execute(db);
  await timed('members', log, () =>
    sql`
      insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, sponsor_id,
                           placement_parent_id, placement_leg, email_verified_at, activated_at, deactivated, is_stockist,
                           created_at, updated_at, registered_xid, registered_position, activated_xid, activated_position, package_xid, package_position)
      select n.id, 'mb' || n.k, 'mb' || n.k || '@bench.test', (${FIRST}::text[])[1 + n.k % ${FIRST.length}], (${LAST}::text[])[1 + (n.k / 7) % ${LAST.length}],
             '0803' || lpad((n.k % 10000000)::text, 7, '0'), 1 + n.k % 6, 1 + n.k % 6, p.id, p.id, n.leg, ${now}, case when n.k % 10 <> 0 then ${now}::timestamptz end,
             n.k % 97 = 0, n.k % 100 = 0,
             ${now}::timestamptz - make_interval(secs => (${last} - n.k) * 30), ${now}, pg_current_xact_id(), n.k, pg_current_xact_id(), n.k, pg_current_xact_id(), n.k
      from bench_n n join bench_n p on p.k = n.parent
      order by n.k`.execute(db),
  );
  await timed('genealogy_nodes', log, () =>
    sql`
      insert into genealogy_nodes (member_id, tree_root_id, path, placement_parent_id, placement_leg, sponsor_id, sponsor_chain, sponsor_depth, registered_position)
      select n.id, ${root}::uuid, n.path, p.id, n.leg, p.id,
             array(select a.id from generate_series(1, least(10, n.depth)) g
                   join bench_n a on a.k = case when n.k - g > ${heap} then n.k - g when n.k > ${heap} then ${heap} >> (g - (n.k - ${heap})) else n.k >> g end
                   order by g),
             n.depth, n.k
      from bench_n n join bench_n p on p.k = n.parent`.execute(db),
  );
  await timed('genealogy_counts, member_points, member_profiles, wallets', log, async () => {
    // Counts of a complete binary subtree of the node's height (the chain's members: what lies below them).
    await sql`
      insert into genealogy_counts (member_id, downline_count, left_count, right_count, direct_count)
      select n.id, c.below, c.below / 2, c.below - c.below / 2, case when n.k * 2 + 1 <= ${heap} then 2 when n.k * 2 <= ${heap} or n.k >= ${heap} and n.k < ${last} then 1 else 0 end
      from bench_n n cross join lateral (select case when n.k > ${heap} then ${last} - n.k
                                                else greatest(0, (2 ^ greatest(0, ${Math.floor(Math.log2(heap))} - n.depth + 1))::int - 2) end as below) c
      on conflict (member_id) do nothing`.execute(db);
    await sql`
      insert into member_points (member_id, personal_pv, cpv, left_pv, right_pv, rank_id, rank_achieved_at, updated_at)
      select n.id, n.k % 500, n.k % 2000, abs(hashtext('l' || n.k)) % 30000, abs(hashtext('r' || n.k)) % 30000, case when n.k % 5 = 0 then 1 + n.k % 3 end, ${now}, ${now}
      from bench_n n where n.k > 1
      on conflict (member_id) do nothing`.execute(db);
    await sql`
      insert into member_profiles (member_id, address, gender, bank_name, bank_code, bank_account_number, bank_account_name, bank_editable, created_at, updated_at)
      select n.id, n.k || ' Allen Avenue, Ikeja', case when n.k % 2 = 0 then 'female' else 'male' end, 'Test Bank', '001', lpad((n.k % 1000000000)::text, 10, '0'), 'Bench ' || n.k, n.k % 3 <> 0, ${now}, ${now}
      from bench_n n where n.k > 1 and n.k % 2 = 0
      on conflict (member_id) do nothing`.execute(db);
    await sql`
      insert into wallets (member_id, total_bonus, total_withheld, total_withdrawn, total_spent, balance, total_held, updated_at)
      select n.id, 3000000, 0, 1000000, 0, 2000000, 0, ${now} from bench_n n where n.k > 1
      on conflict (member_id) do nothing`.execute(db);
  });
}

async function loadLedger(db: Db, members: number, busy: string, now: Date, log: (m: string) => void): Promise<void> {
  await timed(`wallet_entries (${fmtInt(members * 3 + 2000)}) and withdrawals (${fmtInt(members / 2)})`, log, async () => {
    const base = (await sql<{ p: string }>`select coalesce(max(global_position), 0) + 1000000000 as p from wallet_entries`.execute(db)).rows[0]!.p;
    await sql`
      insert into wallet_entries (global_position, member_id, entry, kind, amount, generation, reason, cause_event_id, cause_type, cause_member_id, inputs, recorded_at)
      select ${base}::bigint + i, n.id, case when i % 20 = 0 then 'withheld' else 'credited' end, (${BONUS_KINDS}::text[])[1 + i % ${BONUS_KINDS.length}],
             100000 + i % 900000, 1 + i % 10, case when i % 20 = 0 then 'inactive' end, gen_random_uuid(), 'MemberActivated', c.id,
             jsonb_build_object('pv', i % 1000, 'rate_percent', 10), ${now}::timestamptz - make_interval(secs => i)
      from generate_series(1, ${members * 3}::int) i
      join bench_n n on n.k = 2 + (i::bigint * 7919) % ${members}
      join bench_n c on c.k = 2 + (i::bigint * 104729) % ${members}`.execute(db);
    // The member whose dashboard is read: a busy one, with 2,000 lines.
    await sql`
      insert into wallet_entries (global_position, member_id, entry, kind, amount, generation, reason, cause_event_id, cause_type, cause_member_id, inputs, recorded_at)
      select ${base}::bigint + ${members * 3 + 1} + i, ${busy}::uuid, 'credited', (${BONUS_KINDS}::text[])[1 + i % ${BONUS_KINDS.length}], 250000, 1 + i % 10, null,
             gen_random_uuid(), 'MemberActivated', null, jsonb_build_object('pv', i), ${now}::timestamptz - make_interval(mins => i)
      from generate_series(1, 2000) i`.execute(db);
    await sql`
      insert into withdrawals (id, member_id, kind, amount, fee, net_amount, status, bank_name, bank_code, account_number, account_name, transfer_reference, created_at, updated_at)
      select gen_random_uuid(), n.id, 'withdrawal', 500000, 10000, 490000, (array['successful','successful','failed','pending'])[1 + i % 4], 'Test Bank', '001', '0123456789', 'Bench',
             'bench-' || i, ${now}::timestamptz - make_interval(secs => i * 3), ${now}
      from generate_series(1, ${Math.floor(members / 2)}::int) i join bench_n n on n.k = 2 + (i::bigint * 31) % ${members}`.execute(db);
    await sql`
      insert into withdrawals (id, member_id, kind, amount, fee, net_amount, status, bank_name, bank_code, account_number, account_name, transfer_reference, created_at, updated_at)
      select gen_random_uuid(), ${busy}::uuid, 'withdrawal', 500000, 10000, 490000, 'successful', 'Test Bank', '001', '0123456789', 'Bench', 'bench-busy-' || i, ${now}::timestamptz - make_interval(days => i), ${now}
      from generate_series(1, 40) i`.execute(db);
  });
  // What the admin dashboard's payment figures sum: a registration payment a member (approved for the active ones), an upgrade for 1 in 8.
  await timed(`package_payments (${fmtInt(members + members / 8)})`, log, () =>
    sql`
      insert into package_payments (id, member_id, purpose, method, package_id, from_package_id, amount_due, amount_paid, reference, status, decided_at, created_at, updated_at)
      select gen_random_uuid(), n.id, u.purpose, case when n.k % 3 = 0 then 'pop' else 'payment_gateway' end, 1 + n.k % 6, case when u.purpose = 'upgrade' then 1 end,
             1500000 * (1 + n.k % 6), 1500000 * (1 + n.k % 6), 'bench-' || u.purpose || '-' || n.k, case when n.k % 10 <> 0 then 'approved' else 'pending' end,
             ${now}::timestamptz - make_interval(secs => (${members} - n.k) * 30), ${now}::timestamptz - make_interval(secs => (${members} - n.k) * 30), ${now}
      from bench_n n cross join lateral (select 'registration' as purpose union all select 'upgrade' where n.k % 8 = 0) u
      where n.k > 1`.execute(db),
  );
  // The dashboard's daily totals of what was just loaded: the bonuses' as the wallet ledger's statement adds them, the others
  // recounted from their read models' own definitions (decision 88; the read tables were loaded without their events).
  await timed('daily totals', log, async () => {
    await sql`
      insert into daily_bonus_totals (day, kind, credited_kobo, credited_count)
      select (recorded_at at time zone 'Africa/Lagos')::date, kind, sum(amount), count(*) from wallet_entries where entry = 'credited' group by 1, 2
      on conflict (day, kind) do update set credited_kobo = daily_bonus_totals.credited_kobo + excluded.credited_kobo, credited_count = daily_bonus_totals.credited_count + excluded.credited_count`.execute(db);
    for (const totals of [memberTotals, paymentTotals, withdrawalTotals]) await recountDailyTotals(db, totals);
  });
}

/** `count` events of the mix, in batches of a million (one transaction id each), the secondary indexes dropped meanwhile. */
async function loadEvents(db: Db, count: number, now: Date, log: (m: string) => void): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; def: string }>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.tablename = 'events' and i.indexname not in (select conname from pg_constraint where conrelid = 'events'::regclass)`.execute(db);
  const weights = EVENT_MIX.flatMap(([type, w]) => Array.from({ length: w }, () => type));
  await timed(`events (${fmtInt(count)})`, log, async () => {
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
    const batch = 1_000_000;
    for (let from = 0; from < count; from += batch) {
      const to = Math.min(count, from + batch);
      await sql`
        insert into events (stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash)
        select case when t.type like 'Bonus%' then 'wallet-' else 'member-' end || md5((i % ${Math.max(1, Math.floor(count / 10))})::text)::uuid,
               i / ${Math.max(1, Math.floor(count / 10))} + 1, t.type,
               jsonb_build_object('member_id', md5((i % 100000)::text)::uuid, 'amount_kobo', 1000 * (i % 100000), 'kind', 'referral', 'generation', 1 + i % 10,
                                  'inputs', jsonb_build_object('pv', i % 1000, 'rate_percent', 10)),
               jsonb_build_object('actor', jsonb_build_object('type', 'system', 'id', 'bench'), 'now', ${now.toISOString()}::text,
                                  'correlation_id', md5(i::text)::uuid::text, 'causation_id', null),
               ${now}::timestamptz - make_interval(secs => ${count} - i), gen_random_uuid(), '', ''
        from generate_series(${from}::int, ${to - 1}::int) i
        cross join lateral (select (${weights}::text[])[1 + (i * 7) % ${weights.length}] as type) t`.execute(db);
      log(`reads: events ${fmtInt(to)} / ${fmtInt(count)}`);
    }
    for (const index of indexes) await sql.raw(index.def).execute(db);
  });
}

type Read = { name: string; group: string; url: string; token: 'member' | 'deep' | 'admin' | 'none' };

const TARGET_MS = 20;

const readsBench: BenchModule = {
  name: 'reads',
  description: 'member dashboard, wallet page, deep genealogy, the admin dashboard and members list at 100,000 (BENCH_SCALE=1m: 1,000,000) members',
  async run({ freshDatabase, log }) {
    let { members, events } = scale();
    const samples = Math.max(20, Math.round(Number(process.env.BENCH_READS_SAMPLES ?? 200)));
    // BENCH_READS_DATABASE=<name>: measure again on a database an earlier run kept (BENCH_KEEP_DATABASES=1), migrated to now, without loading.
    const reuse = process.env.BENCH_READS_DATABASE;
    const { name, connectionString } = reuse ? { name: reuse, connectionString: databaseUrl(reuse) } : await freshDatabase('reads');
    const db = createDb(connectionString, { max: 10, applicationName: 'portal-bench-reads' });
    if (reuse) await migrateToLatest(db);
    const t = await createTestApp({ database: { db, url: connectionString, name, drop: () => db.destroy() } });
    try {
      const now = new Date();
      // Not on a kept database: its bulk events are not for the consumers (they are past its load).
      if (!reuse) await drainAll(db);
      const root = await rootId(db);
      if (reuse) {
        const counted = (await sql<{ members: number; events: number }>`select (select count(*)::int from members) - 1 as members, (select reltuples::bigint from pg_class where relname = 'events') as events`.execute(db)).rows[0]!;
        ({ members, events } = counted);
      }
      // The load's statements run for minutes at 1,000,000: a pool of its own without the app's 30 s statement timeout.
      const loader: Db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1, application_name: 'portal-bench-reads-load', options: '-c statement_timeout=0' }) }) });
      const started = performance.now();
      // Read as: a typical member (in the heap, 13 levels down), the chain's bottom (10,000 below its top).
      const busy = 2 ** 13 + 517;
      const heap = members - CHAIN + 1;
      const deep = members + 1;
      const idOf = async (k: number) => (await sql<{ id: string }>`select id from members where username = ${`mb${k}`}`.execute(db)).rows[0]?.id;
      if (!reuse) {
        await loadMembers(loader, root, members, now, log);
        await loadLedger(loader, members, (await idOf(busy))!, now, log);
        await loadEvents(loader, events, now, log);
        await sql`drop table bench_n`.execute(loader);
      }
      await timed('vacuum analyze', log, () => sql`vacuum analyze`.execute(loader));
      await loader.destroy();
      const busyId = (await idOf(busy))!;
      const deepId = (await idOf(deep))!;
      const loadSeconds = (performance.now() - started) / 1000;
      const sizes = (await sql<{ events: string; total: string }>`select pg_size_pretty(pg_total_relation_size('events')) as events, pg_size_pretty(pg_database_size(current_database())) as total`.execute(db)).rows[0]!;
      log(`reads: loaded in ${loadSeconds.toFixed(0)} s; events ${sizes.events}, database ${sizes.total}`);

      const session = async (kind: 'member' | 'admin', id: string) => t.app.jwt.sign({ sid: (await startSession(db, { kind, id }, { now: new Date() })).id }, { expiresIn: '12h' });
      const admin = await db.selectFrom('admins').select('id').orderBy('created_at').executeTakeFirstOrThrow();
      const tokens = { member: await session('member', busyId), deep: await session('member', deepId), admin: await session('admin', admin.id), none: '' };
      const pkg = await db.selectFrom('members').leftJoin('member_points', 'member_points.member_id', 'members.id').select(['members.package_id', 'member_points.rank_id']).where('members.id', '=', busyId).executeTakeFirstOrThrow();
      const deepDepth = (await sql<{ depth: number }>`select depth from genealogy_nodes where member_id = ${deepId}`.execute(db)).rows[0]!.depth;
      const filter = (f: object) => encodeURIComponent(JSON.stringify(f));
      const reads: Read[] = [
        { group: 'reference', name: 'GET /api/health', url: '/api/health', token: 'none' },
        { group: 'reference', name: 'GET /api/packages/1 (one primary-key row)', url: '/api/packages/1', token: 'member' },
        { group: 'dashboard', name: 'GET /api/auth/user', url: '/api/auth/user', token: 'member' },
        { group: 'dashboard', name: 'GET /api/users/{id}/profile-details', url: `/api/users/${busyId}/profile-details`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/packages/{package}', url: `/api/packages/${pkg.package_id}`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/bonuses/{id}/bonus-stats', url: `/api/bonuses/${busyId}/bonus-stats`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/bonuses/{id}/wallet-balance', url: `/api/bonuses/${busyId}/wallet-balance`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/users/{id}/total-pv', url: `/api/users/${busyId}/total-pv`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/incentive-claims/{id}/current-incentive', url: `/api/incentive-claims/${busyId}/current-incentive`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/incentive-claims/{id}/claims', url: `/api/incentive-claims/${busyId}/claims`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/ranks/current-rank-badge/{rank}', url: `/api/ranks/current-rank-badge/${pkg.rank_id ?? 1}`, token: 'member' },
        { group: 'dashboard', name: 'GET /api/settings/all', url: '/api/settings/all', token: 'member' },
        { group: 'wallet page', name: 'GET /api/wallet/{id}/bonuses?page=1', url: `/api/wallet/${busyId}/bonuses?page=1`, token: 'member' },
        { group: 'wallet page', name: 'GET /api/bonuses/{id}/global-profits?page=1', url: `/api/bonuses/${busyId}/global-profits?page=1`, token: 'member' },
        { group: 'wallet page', name: 'GET /api/withdrawals/{id}/user-history?page=1', url: `/api/withdrawals/${busyId}/user-history?page=1`, token: 'member' },
        { group: 'genealogy', name: `GET /api/users/{id}/genealogy?depth=${GENEALOGY_MAX_DEPTH} (${fmtInt(deepDepth)} levels down)`, url: `/api/users/${deepId}/genealogy?depth=${GENEALOGY_MAX_DEPTH}`, token: 'deep' },
        { group: 'genealogy', name: `GET /api/users/{id}/genealogy?depth=${GENEALOGY_MAX_DEPTH} (the root, as admin)`, url: `/api/users/${root}/genealogy?depth=${GENEALOGY_MAX_DEPTH}`, token: 'admin' },
        // Every call the back office's dashboard makes: company-wide counts and sums, over all time and the period chosen.
        { group: 'admin dashboard', name: 'GET /api/users/total-registrations', url: '/api/users/total-registrations', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/users/total-active-users', url: '/api/users/total-active-users', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/users/total-registration-pv', url: '/api/users/total-registration-pv', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/bonuses/total-company-wallet', url: '/api/bonuses/total-company-wallet', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/bonuses/bonus-stats?type=all', url: '/api/bonuses/bonus-stats?type=all', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/bonuses/bonus-stats?type=month', url: '/api/bonuses/bonus-stats?type=month', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/product-purchases/pickup-stats?type=all', url: '/api/product-purchases/pickup-stats?type=all', token: 'admin' },
        { group: 'admin dashboard', name: 'GET /api/product-purchases/pickup-stats?type=today', url: '/api/product-purchases/pickup-stats?type=today', token: 'admin' },
        { group: 'admin members', name: 'all, newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({})}`, token: 'admin' },
        { group: 'admin members', name: 'active, newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ status: true })}`, token: 'admin' },
        { group: 'admin members', name: 'inactive, by username, page 3', url: `/api/admin/members?sort=${filter(['username', 'ASC'])}&range=${filter([50, 74])}&filter=${filter({ status: false })}`, token: 'admin' },
        { group: 'admin members', name: 'stockists, newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ is_stockist: true })}`, token: 'admin' },
        { group: 'admin members', name: 'search "mb12345", newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'mb12345' })}`, token: 'admin' },
        // A common last name (1 member in 11): many matches, so the page walks the newest first and the count stops at the cap.
        { group: 'admin members', name: 'search "okafor", newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'okafor' })}`, token: 'admin' },
        { group: 'admin members', name: 'stockists, by username', url: `/api/admin/members?sort=${filter(['username', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({ is_stockist: true })}`, token: 'admin' },
        // A word in 1 member of 90 ("mb12": mb12, mb120…, mb12000…), all of them old members: none among the newest 2,000, so every match is read, sorted and counted (docs/decisions.md 75).
        { group: 'admin members', name: 'search "mb12", newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'mb12' })}`, token: 'admin' },
        // One or two characters have no trigram; they match the start of a name, username or e-mail (docs/decisions.md 75): common ("ok", 1 in 11; "a", 1 in 4) and absent ("x", "zq").
        { group: 'admin members', name: 'search "ok", newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'ok' })}`, token: 'admin' },
        { group: 'admin members', name: 'search "a", newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'a' })}`, token: 'admin' },
        { group: 'admin members', name: 'search "zq" (no match), newest first', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'zq' })}`, token: 'admin' },
        { group: 'admin members', name: 'search "x" (no match), active', url: `/api/admin/members?sort=${filter(['created_at', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'x', status: true })}`, token: 'admin' },
        { group: 'admin members', name: 'search "ng" (a first name), by username', url: `/api/admin/members?sort=${filter(['username', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'ng' })}`, token: 'admin' },
        // The columns the back office sorts by besides the date and the username.
        { group: 'admin members', name: 'all, by full name', url: `/api/admin/members?sort=${filter(['full_name', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({})}`, token: 'admin' },
        { group: 'admin members', name: 'active, by full name descending, page 3', url: `/api/admin/members?sort=${filter(['full_name', 'DESC'])}&range=${filter([50, 74])}&filter=${filter({ status: true })}`, token: 'admin' },
        { group: 'admin members', name: 'all, by e-mail', url: `/api/admin/members?sort=${filter(['email', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({})}`, token: 'admin' },
        { group: 'admin members', name: 'inactive, by e-mail descending', url: `/api/admin/members?sort=${filter(['email', 'DESC'])}&range=${filter([0, 24])}&filter=${filter({ status: false })}`, token: 'admin' },
        { group: 'admin members', name: 'all, by phone', url: `/api/admin/members?sort=${filter(['phone', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({})}`, token: 'admin' },
        { group: 'admin members', name: 'all, by status', url: `/api/admin/members?sort=${filter(['status', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({})}`, token: 'admin' },
        // By package: the name is on packages, so each package's members are walked apart, in the names' order (docs/decisions.md 75).
        { group: 'admin members', name: 'all, by package', url: `/api/admin/members?sort=${filter(['package_name', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({})}`, token: 'admin' },
        { group: 'admin members', name: 'active, by package descending, page 3', url: `/api/admin/members?sort=${filter(['package_name', 'DESC'])}&range=${filter([50, 74])}&filter=${filter({ status: true })}`, token: 'admin' },
        { group: 'admin members', name: 'stockists, by package', url: `/api/admin/members?sort=${filter(['package_name', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({ is_stockist: true })}`, token: 'admin' },
        { group: 'admin members', name: 'search "mb12", by package', url: `/api/admin/members?sort=${filter(['package_name', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'mb12' })}`, token: 'admin' },
        { group: 'admin members', name: 'stockists, by full name', url: `/api/admin/members?sort=${filter(['full_name', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({ is_stockist: true })}`, token: 'admin' },
        { group: 'admin members', name: 'search "okafor", by e-mail', url: `/api/admin/members?sort=${filter(['email', 'ASC'])}&range=${filter([0, 24])}&filter=${filter({ q: 'okafor' })}`, token: 'admin' },
      ];
      const call = async (read: Read): Promise<number> => {
        const t0 = performance.now();
        const response = await t.app.inject({ method: 'GET', url: read.url, headers: read.token === 'none' ? {} : { authorization: `Bearer ${tokens[read.token]}` } });
        const ms = performance.now() - t0;
        if (response.statusCode !== 200) throw new Error(`${read.url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
        return ms;
      };
      for (const read of reads) for (let i = 0; i < 3; i++) await call(read); // warm: plans, caches
      const timings = new Map(reads.map((r) => [r, [] as number[]]));
      // Round-robin: each round calls every read once, so a change of load hits all alike.
      for (let round = 0; round < samples; round++) for (const read of reads) timings.get(read)!.push(await call(read));
      const health = timings.get(reads[0]!)!;
      const pk = timings.get(reads[1]!)!;
      const refP95 = quantile(pk, 0.95);
      const rows = reads.map((read) => {
        const values = timings.get(read)!;
        const p50 = quantile(values, 0.5);
        const p95 = quantile(values, 0.95);
        return [read.group, read.name, fmtMs(p50), fmtMs(p95), fmtMs(Math.max(...values)), `${(p95 / refP95).toFixed(2)}×`, read.group === 'reference' ? '' : p95 < TARGET_MS ? 'yes' : 'NO'];
      });
      const data = reads.map((read) => {
        const values = timings.get(read)!;
        return { group: read.group, name: read.name, p50Ms: quantile(values, 0.5), p95Ms: quantile(values, 0.95), maxMs: Math.max(...values), p95OverReferenceP95: quantile(values, 0.95) / refP95 };
      });
      const table: Table = {
        title: `Reads at ${fmtInt(members)} members and ${fmtInt(events)} events (app.inject, ${samples} rounds, round-robin; goal p95 < ${TARGET_MS} ms)`,
        columns: ['page', 'read', 'p50 ms', 'p95 ms', 'max ms', 'p95 ÷ reference p95', `p95 < ${TARGET_MS} ms`],
        rows,
        notes: [
          `reference p95 = GET /api/packages/1 (${fmtMs(refP95)} ms); GET /api/health p95 ${fmtMs(quantile(health, 0.95))} ms`,
          `loaded set-based in ${loadSeconds.toFixed(0)} s (events ${sizes.events}, database ${sizes.total}); dashboard read as member mb${busy} (2,000 wallet lines, 40 withdrawals), genealogy of mb${deep}, ${fmtInt(deepDepth)} levels below the root (heap ${fmtInt(heap)})`,
        ],
      };
      const over = data.filter((d) => d.group !== 'reference' && d.p95Ms >= TARGET_MS).map((d) => `${d.group}: ${d.name}`);
      return { tables: [table], notes: [over.length ? `p95 ≥ ${TARGET_MS} ms: ${over.join('; ')}` : `Every read's p95 is under ${TARGET_MS} ms.`], data: { members, events, samples, loadSeconds, reads: data } };
    } finally {
      await t.close();
    }
  },
};

export default readsBench;
