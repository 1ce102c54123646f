import { randomUUID } from 'node:crypto';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { bonusPage, bonusStats } from '../compensation/queries';
import type { Database } from '../database';
import { genealogyTreeOf } from '../genealogy/queries';
import { pageWithdrawals } from '../wallet/queries';
import { selectPage } from '../api/simple-rest';
import { listMembers } from './admin-members-routes';

/**
 * The reads that must stay index-driven at 1,000,000 members (issue 13 item 7; the figures are in
 * services/bench/reads.bench.ts): each query the code sends is captured and EXPLAINed with
 * sequential scans disabled, and the plan must read the named index, in its order (no Sort node
 * over the table). With seq scans off the planner still takes a worse index and sorts if the right
 * one is gone, so the assertion names the index: dropping it, or changing a query so it no longer
 * matches it, fails here instead of turning into a full scan in production.
 */

type Plan = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; 'Index Cond'?: string; 'Recheck Cond'?: string; Plans?: Plan[] };
const nodes = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

let t: TestDatabase;
let pool: pg.Pool;
let captured: CompiledQuery[];
let db: Kysely<Database>;
const member = randomUUID();
const parent = randomUUID();

beforeAll(async () => {
  t = await createTestDatabase();
  pool = new pg.Pool({ connectionString: t.url, max: 1 });
  captured = [];
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void captured.push(event.query) });
  const now = new Date();
  // Enough rows that the statistics are real; the named member has wallet lines, withdrawals and children.
  await sql`
    insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, activated_at, deactivated, is_stockist, created_at, updated_at, placement_parent_id, placement_leg)
    select case when k = 1 then ${member}::uuid when k = 2 then ${parent}::uuid else gen_random_uuid() end, 'ix' || k, 'ix' || k || '@test.test', 'Index', 'Member ' || k, '0803' || lpad(k::text, 7, '0'), 1, 1,
           case when k % 10 <> 0 then ${now}::timestamptz end, false, k % 100 = 0, ${now}::timestamptz - make_interval(secs => k), ${now}, case when k > 2 and k < 5 then ${member}::uuid end,
           case when k = 3 then 'left' when k = 4 then 'right' end
    from generate_series(1, 5000) k`.execute(db);
  await sql`
    insert into genealogy_nodes (member_id, tree_root_id, path, placement_parent_id, placement_leg, sponsor_id, sponsor_chain, sponsor_depth, registered_position)
    select id, ${parent}::uuid, (row_number() over ())::bit(20)::varbit, placement_parent_id, placement_leg, null, '{}', 0, 1 from members`.execute(db);
  await sql`
    insert into wallet_entries (global_position, member_id, entry, kind, amount, cause_event_id, cause_type, inputs, recorded_at)
    select i, case when i % 50 = 0 then ${member}::uuid else (select id from members order by id offset (i % 4000) limit 1) end, 'credited', 'referral', 1000, gen_random_uuid(), 'MemberActivated', '{}', ${now}::timestamptz - make_interval(secs => i)
    from generate_series(1, 3000) i`.execute(db);
  await sql`
    insert into withdrawals (id, member_id, kind, amount, fee, net_amount, status, bank_name, bank_code, account_number, account_name, transfer_reference, created_at, updated_at)
    select gen_random_uuid(), case when i % 20 = 0 then ${member}::uuid else ${parent}::uuid end, 'withdrawal', 1000, 10, 990, 'successful', 'Test Bank', '001', '0123456789', 'T', 'ix-' || i, ${now}::timestamptz - make_interval(secs => i), ${now}
    from generate_series(1, 2000) i`.execute(db);
  for (const table of ['members', 'member_search_rows', 'genealogy_nodes', 'wallet_entries', 'withdrawals']) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
});

afterAll(async () => {
  await db?.destroy();
  await t.drop();
});

/** Runs `read`, then EXPLAINs every query it sent with sequential scans off; returns each plan's nodes. */
async function plansOf(read: () => Promise<unknown>): Promise<Array<{ sql: string; nodes: Plan[] }>> {
  captured = [];
  await read();
  // The planner's estimate of a long list's total (an EXPLAIN itself) reads nothing.
  const queries = captured.filter((query) => !/^explain /.test(query.sql));
  const client = await pool.connect();
  try {
    await client.query('set enable_seqscan = off');
    const plans = [];
    for (const query of queries) {
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: Plan }> }>(`explain (format json) ${query.sql}`, [...query.parameters]);
      plans.push({ sql: query.sql, nodes: nodes(rows[0]!['QUERY PLAN'][0]!.Plan) });
    }
    return plans;
  } finally {
    await client.query('reset enable_seqscan');
    client.release();
  }
}

const usesIndex = (plan: { nodes: Plan[] }, index: string) => plan.nodes.some((n) => n['Index Name'] === index && /Index/.test(n['Node Type']));
const readsIndexOnly = (plan: { nodes: Plan[] }, index: string) => plan.nodes.some((n) => n['Index Name'] === index && n['Node Type'] === 'Index Only Scan');
const shape = (plan: { nodes: Plan[] }) => JSON.stringify(plan.nodes.map((n) => [n['Node Type'], n['Index Name'] ?? n['Relation Name']]));
/** A Sort or Incremental Sort above a read of `table` (a Sort inside a lateral subquery, as the stockist record's, is not one). */
const sortsTable = (plan: { nodes: Plan[] }, prefix: string) =>
  plan.nodes.some((n) => /^(Incremental )?Sort$/.test(n['Node Type']) && nodes(n).some((below) => below['Index Name']?.startsWith(prefix) || below['Relation Name'] === prefix.replace(/_$/, '')));
const filter = (f: object) => JSON.stringify(f);
/** Reads members (an index of theirs or the table) with no Limit between: every row the scan finds comes up. */
const readsMembersUnbounded = (n: Plan): boolean =>
  n['Node Type'] !== 'Limit' && (/^members(_|$)/.test(n['Index Name'] ?? n['Relation Name'] ?? '') || (n.Plans ?? []).some(readsMembersUnbounded));
/** A Sort over members not bounded by a Limit below it (a sort of the tab's members, not of a few rows per package). */
const sortsMembersUnbounded = (plan: { nodes: Plan[] }) => plan.nodes.some((n) => /^(Incremental )?Sort$/.test(n['Node Type']) && (n.Plans ?? []).some(readsMembersUnbounded));

describe('the members list reads an index in its order, on every tab', () => {
  // The page may read the tab's own index or walk members_newest and filter (the planner's choice
  // for a tab holding most members); either way in the list's order, never sorting the table.
  it.each([
    // The whole table's count needs no index: its first 10,001 rows in any order.
    ['all', 'members_newest', 'the table up to the cap', {}],
    ['active', 'members_newest|members_by_status_newest', 'members_by_status_newest', { status: true }],
    ['inactive', 'members_newest|members_by_status_newest', 'members_by_status_newest', { status: false }],
    ['stockists', 'members_newest|members_by_stockist_newest', 'members_by_stockist_newest', { is_stockist: true }],
  ] as const)('Given 5,000 members, When the back office lists the %s tab newest first, Then its page reads %s in order and its count %s', async (_tab, pageIndexes, countIndex, f) => {
    const plans = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter(f) }));
    const [page, count] = [plans[0]!, plans.find((p) => /count\(\*\)/.test(p.sql))!];
    expect(page.sql).toMatch(/order by m\.created_at desc, m\.id desc/);
    expect(pageIndexes.split('|').some((index) => usesIndex(page, index)), shape(page)).toBe(true);
    expect(sortsTable(page, 'members_'), shape(page)).toBe(false);
    // Oldest first reads the same index backward (ties by id follow the sort).
    const [oldest] = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'ASC']), range: filter([25, 49]), filter: filter(f) }));
    expect(oldest!.sql).toMatch(/order by m\.created_at asc, m\.id asc/);
    expect(pageIndexes.split('|').some((index) => usesIndex(oldest!, index)), shape(oldest!)).toBe(true);
    expect(sortsTable(oldest!, 'members_'), shape(oldest!)).toBe(false);
    // The tab's count is index-only: the index carries the columns its filter names (INCLUDE).
    if (countIndex.startsWith('members_')) expect(readsIndexOnly(count, countIndex), shape(count)).toBe(true);
    else expect(count.nodes.some((n) => n['Node Type'] === 'Limit'), shape(count)).toBe(true);
  });

  // (A tab as small as the stockists here, 50 members, is rightly read through its own index and sorted.)
  it.each([
    ['all', {}],
    ['inactive', { status: false }],
  ] as const)('Given 5,000 members, When the back office lists the %s tab by username, Then its page reads members_by_username in order', async (_tab, f) => {
    for (const direction of ['ASC', 'DESC']) {
      const plans = await plansOf(() => listMembers(db, { sort: filter(['username', direction]), range: filter([50, 74]), filter: filter(f) }));
      const page = plans[0]!;
      expect(page.sql).toMatch(new RegExp(`order by m\\.username ${direction.toLowerCase()}, m\\.id ${direction.toLowerCase()}`));
      expect(usesIndex(page, 'members_by_username'), shape(page)).toBe(true);
      expect(sortsTable(page, 'members_'), shape(page)).toBe(false);
    }
  });

  it.each([
    ['full_name', 'members_by_full_name', /order by \(m\.first_name \|\| ' ' \|\| m\.last_name\) (asc|desc), m\.id \1/],
    ['email', 'members_by_email', /order by m\.email (asc|desc), m\.id \1/],
    ['phone', 'members_by_phone', /order by m\.phone (asc|desc), m\.id \1/],
    ['status', 'members_by_status', /order by \(m\.activated_at is not null and not m\.deactivated\)::text (asc|desc), m\.id \1/],
  ] as const)('Given 5,000 members, When the back office lists the all, inactive and non-stockist members by %s, Then its page reads %s in order', async (field, index, orderBy) => {
    for (const f of [{}, { status: false }, { is_stockist: false }])
      for (const direction of ['ASC', 'DESC']) {
        const plans = await plansOf(() => listMembers(db, { sort: filter([field, direction]), range: filter([50, 74]), filter: filter(f) }));
        const page = plans[0]!;
        expect(page.sql).toMatch(orderBy);
        expect(usesIndex(page, index), `${direction} ${filter(f)} ${shape(page)}`).toBe(true);
        expect(sortsTable(page, 'members_'), shape(page)).toBe(false);
      }
  });

  it.each([
    ['all', 'members_by_package', {}],
    ['active', 'members_by_status_package|members_by_package|members_by_status', { status: true }],
    ['inactive', 'members_by_status_package|members_by_package|members_by_status', { status: false }],
    // Package 2 has no stockist: its arm must not walk the whole package but read the tab's own (tab, package, id) index.
    ['stockists', 'members_by_stockist_package|members_by_package', { is_stockist: true }],
  ] as const)('Given 5,000 members on two packages, When the back office lists %s by package, Then each package is walked through %s and only those walks are sorted', async (_tab, indexes, f) => {
    await sql`insert into packages (id, name, point_value, registration_value, pickup_amount, matching_bonus_cap, updated_at) values (1, 'Indexed Gold', 10, 1000, 0, 0, now()), (2, 'Indexed Bronze', 10, 1000, 0, 0, now()) on conflict (id) do nothing`.execute(db);
    await sql`update members set package_id = 2 where username like '%7'`.execute(db);
    try {
      for (const direction of ['ASC', 'DESC'])
        for (const range of [[0, 24], [50, 74]]) {
          const plans = await plansOf(() => listMembers(db, { sort: filter(['package_name', direction]), range: filter(range), filter: filter(f) }));
          const page = plans.find((p) => /union all/.test(p.sql))!;
          expect(page.sql).toMatch(new RegExp(`order by package_order, id ${direction.toLowerCase()}`));
          // Each package's arm walks an index in id order and stops (members_by_package; a tab's own (key, id) index
          // filtered by package is as good); only the arms' few rows are sorted.
          // (An arm that reads ids only is a Limit under the projection that keeps its two columns.)
          const arms = page.nodes.find((n) => n['Node Type'] === 'Append')!.Plans!.map((arm) => (arm['Node Type'] === 'Subquery Scan' ? arm.Plans![0]! : arm));
          expect(arms.map((arm) => arm['Node Type']), shape(page)).toEqual(['Limit', 'Limit']);
          for (const arm of arms) expect(nodes(arm).some((n) => indexes.split('|').includes(n['Index Name'] ?? '')), `${direction} ${shape(page)}`).toBe(true);
          if ('is_stockist' in f) expect(page.nodes.some((n) => n['Index Name'] === 'members_by_stockist_package'), shape(page)).toBe(true);
          if (!('q' in f)) expect(sortsMembersUnbounded(page), shape(page)).toBe(false);
          expect(page.nodes.some((n) => n['Node Type'] === 'Seq Scan'), shape(page)).toBe(false);
        }
    } finally {
      await sql`update members set package_id = 1 where package_id = 2`.execute(db);
      await sql`delete from packages where id in (1, 2)`.execute(db);
      await sql`vacuum analyze members`.execute(db);
      await sql`vacuum analyze member_search_rows`.execute(db);
    }
  });

  it('Given a search of three characters or more on two packages, When the back office lists it by package, Then every match is read once from member_search_rows, put in order and counted in one statement, and only the page is read from members', async () => {
    await sql`insert into packages (id, name, point_value, registration_value, pickup_amount, matching_bonus_cap, updated_at) values (1, 'Indexed Gold', 10, 1000, 0, 0, now()), (2, 'Indexed Bronze', 10, 1000, 0, 0, now()) on conflict (id) do nothing`.execute(db);
    await sql`update members set package_id = 2 where username like '%7'`.execute(db);
    await sql`vacuum analyze member_search_rows`.execute(db);
    try {
      for (const direction of ['ASC', 'DESC'])
        for (const range of [[0, 24], [50, 74]]) {
          const plans = await plansOf(() => listMembers(db, { sort: filter(['package_name', direction]), range: filter(range), filter: filter({ q: 'ix12' }) }));
          const [, ids, page, ...rest] = plans;
          expect(rest, 'no count: the statement that orders the matches counts them').toEqual([]);
          expect(ids!.sql).toMatch(new RegExp(`order by case s\\.package_id .* end, s\\.id ${direction.toLowerCase()}`));
          expect(usesIndex(ids!, 'member_search_rows_search'), shape(ids!)).toBe(true);
          expect(ids!.nodes.some((n) => n['Node Type'] === 'WindowAgg'), shape(ids!)).toBe(true);
          expect(ids!.nodes.some((n) => /^members(_|$)/.test(n['Index Name'] ?? n['Relation Name'] ?? '')), shape(ids!)).toBe(false);
          expect(usesIndex(page!, 'members_pkey'), shape(page!)).toBe(true);
        }
      // Ordered by package, the page is the one the members table gives (packages' names, then ids).
      const listed = await listMembers(db, { sort: filter(['package_name', 'ASC']), range: filter([0, 24]), filter: filter({ q: 'ix12' }) });
      const { rows: expected } = await sql<{ username: string }>`
        select m.username from members m join packages p on p.id = m.package_id
        where m.username || m.email || m.first_name || ' ' || m.last_name ilike '%ix12%' order by p.name, m.id limit 25`.execute(db);
      expect(listed.rows.map((r) => r.username)).toEqual(expected.map((r) => r.username));
      expect(listed.total).toBe(111);
    } finally {
      await sql`update members set package_id = 1 where package_id = 2`.execute(db);
      await sql`delete from packages where id in (1, 2)`.execute(db);
      await sql`vacuum analyze members`.execute(db);
      await sql`vacuum analyze member_search_rows`.execute(db);
    }
  });

  it('Given 5,000 members, When the back office searches one or two characters, Then the matches are found through members_prefixes, not by reading every member', async () => {
    for (const q of ['zq', 'x', 'I']) {
      const plans = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({ q, status: true }) }));
      // First the newest SEARCH_WINDOW members (members_newest, stopped by its Limit); then, the page not full there, every match.
      const [, head, matches] = plans;
      expect(head!.nodes[0]!['Node Type'], shape(head!)).toBe('Limit');
      expect(sortsMembersUnbounded(head!), shape(head!)).toBe(false);
      if (q === 'I') continue; // "Index": every member matches, so the head holds the page
      expect(usesIndex(matches!, 'members_prefixes'), `${q} ${shape(matches!)}`).toBe(true);
      expect(plans).toHaveLength(3);
    }
  });

  it('Given a search whose matches are all old members, When the page is listed, Then it looks at the newest SEARCH_WINDOW rows of member_search_rows only, then reads the matches through member_search_rows_search, sorted and counted in one statement, then the page from members', async () => {
    // ix49, ix490–ix499, ix4900–ix4999: 111 members, 11 of them among the newest 2,000.
    const result = await listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({ q: 'ix49' }) });
    expect(result.total).toBe(111);
    expect(result.rows.map((m) => m.username)).toEqual(['ix49', ...Array.from({ length: 10 }, (_, i) => `ix49${i}`), ...Array.from({ length: 14 }, (_, i) => `ix49${String(i).padStart(2, '0')}`)]);
    const plans = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({ q: 'ix49' }) }));
    const [, head, matches, page, ...rest] = plans;
    expect(rest, 'no count: the matches statement counts').toEqual([]);
    expect(head!.nodes.some((n) => n['Node Type'] === 'Limit' && nodes(n).some((below) => below['Index Name'] === 'member_search_rows_newest' && below['Node Type'] === 'Index Only Scan')), shape(head!)).toBe(true);
    expect(usesIndex(matches!, 'member_search_rows_search'), shape(matches!)).toBe(true);
    expect(matches!.nodes.some((n) => n['Node Type'] === 'WindowAgg'), shape(matches!)).toBe(true);
    expect(matches!.nodes.some((n) => n['Index Name'] === 'member_search_rows_newest'), shape(matches!)).toBe(false);
    // The lowercased text asked with LIKE (`~~`): no ILIKE (`~~*`), which lowers every candidate row again (docs/decisions.md 83).
    const conditions = [head!, matches!].flatMap((plan) => plan.nodes.flatMap((n) => [n['Index Cond'], n['Recheck Cond'], (n as { Filter?: string }).Filter]).filter((c): c is string => c !== undefined));
    expect(conditions.some((c) => /search_lower ~~ /.test(c)), conditions.join(' | ')).toBe(true);
    expect(conditions.some((c) => /~~\*/.test(c)), conditions.join(' | ')).toBe(false);
    // Neither reads members: only the page's 25 rows come from it, by id.
    for (const plan of [head!, matches!]) expect(plan.nodes.some((n) => /^members(_|$)/.test(n['Index Name'] ?? n['Relation Name'] ?? '')), shape(plan)).toBe(false);
    expect(usesIndex(page!, 'members_pkey'), shape(page!)).toBe(true);
  });

  it('Given 5,000 members, When the back office searches for a username, Then the page and its count find the matches through member_search_rows_search (trigrams), not by reading every member', async () => {
    const plans = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({ q: 'ix1234' }) }));
    // The packages, the newest SEARCH_WINDOW members (no match there), then the matches.
    const [lookup, , page] = plans;
    expect(lookup!.sql).toMatch(/name ilike \$1 as matches\s+from packages/);
    expect(usesIndex(page!, 'member_search_rows_search'), shape(page!)).toBe(true);
    // The page is short (one match), so its total is known without a count; a longer one is counted through the same index.
    const common = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 1]), filter: filter({ q: 'ix12' }) }));
    const count = common.find((p) => /count\(\*\)/.test(p.sql))!;
    expect(count.sql).toMatch(/from member_search_rows s/);
    expect(usesIndex(count, 'member_search_rows_search'), shape(count)).toBe(true);
  });

  it('Given a package whose name matches the search, When the back office searches, Then its members are a second index arm (member_search_rows_by_package) beside member_search_rows_search', async () => {
    await sql`insert into packages (id, name, point_value, registration_value, pickup_amount, matching_bonus_cap, updated_at) values (1, 'Indexed Gold', 10, 1000, 0, 0, now()) on conflict (id) do nothing`.execute(db);
    try {
      const plans = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({ q: 'indexed gold' }) }));
      const page = plans[1]!;
      expect(page.sql).toMatch(/s\.package_id in \(\$\d+\)/);
      const count = plans.find((p) => /count\(\*\)/.test(p.sql))!;
      // Every member is on package 1 here: the count stops at the cap, reading either index.
      expect(usesIndex(count, 'member_search_rows_by_package') || usesIndex(count, 'member_search_rows_search'), shape(count)).toBe(true);
    } finally {
      await sql`delete from packages where id = 1`.execute(db);
    }
  });

  it("Given 5,000 members, When the all tab is counted, Then the count stops at the cap and does not read each member's stockist record", async () => {
    const plans = await plansOf(() => listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({ status: true }) }));
    const count = plans.find((p) => /count\(\*\)/.test(p.sql))!;
    expect(count.sql).toMatch(/limit \$\d+\) capped/);
    expect(count.nodes.some((n) => n['Relation Name'] === 'stockists')).toBe(false);
  });

  it("Given a filter the planner expects far past the count cap, When a page is listed, Then the total is the planner's estimate and nothing is counted", async () => {
    const list = (countCap: number) =>
      plansOf(async () => {
        const page = await selectPage(db, { columns: sql`m.id`, from: sql`from members m`, tiebreak: sql`m.id`, countCap, list: { orderBy: sql`m.created_at desc`, offset: 0, limit: 25, where: sql<boolean>`true` } });
        expect(page.total).toBe(5000);
      });
    // 5,000 members: more than five times a cap of 100, counted (and found past it) under a cap of 2,000.
    expect((await list(100)).some((p) => /count\(\*\)/.test(p.sql))).toBe(false);
    expect((await list(2000)).some((p) => /count\(\*\)/.test(p.sql))).toBe(true);
  });

  it('Given more members than the count cap, When a tab is listed, Then the total is an estimate above the cap, and exact below it', async () => {
    const many = await listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([0, 24]), filter: filter({}) });
    // 5,000 are under the 10,000 cap: exact.
    expect(many.total).toBe(5000);
    const stockists = await listMembers(db, { sort: filter(['created_at', 'DESC']), range: filter([25, 49]), filter: filter({ is_stockist: true }) });
    expect(stockists.total).toBe(50);
    expect(stockists.rows).toHaveLength(25);
  });
});

describe("a member's pages read their own rows through an index", () => {
  it('Given 3,000 wallet lines, When the wallet page asks for its first page, Then the page and its count read wallet_entries_by_member', async () => {
    const plans = await plansOf(() => bonusPage(db, member, 1));
    for (const plan of plans) expect(usesIndex(plan, 'wallet_entries_by_member'), plan.sql).toBe(true);
    expect(sortsTable(plans[1]!, 'wallet_entries_')).toBe(false);
  });

  it("Given 3,000 wallet lines, When the dashboard sums the member's bonuses per kind, Then the sum reads wallet_entries_credited_totals alone (index only)", async () => {
    // The flags need company settings this database has not: the read fails after its one statement.
    const plans = await plansOf(() => bonusStats(db, member).catch(() => null));
    // One statement: the totals and the eligibility flags' inputs (the settings, packages, counts) together.
    expect(plans).toHaveLength(1);
    const totals = plans.find((p) => /sum\("?amount"?\)/.test(p.sql))!;
    expect(readsIndexOnly(totals, 'wallet_entries_credited_totals'), shape(totals)).toBe(true);
  });

  it('Given 2,000 withdrawals, When the member opens the withdrawal history, Then it reads withdrawals_by_member', async () => {
    const plans = await plansOf(() => pageWithdrawals(db, { memberId: member }, 1));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(usesIndex(plan, 'withdrawals_by_member'), plan.sql).toBe(true);
  });

  it('Given a placement tree, When the genealogy is read, Then each level is found through genealogy_nodes_placement_parent', async () => {
    const plans = await plansOf(() => genealogyTreeOf(db, member, 6));
    expect(usesIndex(plans[0]!, 'genealogy_nodes_placement_parent')).toBe(true);
  });
});
