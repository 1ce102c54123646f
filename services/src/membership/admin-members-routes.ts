import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import {
  ESTIMATE_BEYOND_DOUBT,
  type ListRequest,
  type ResourceColumns,
  type SimpleRestQuery,
  estimatedRows,
  listExportBatch,
  listTotal,
  parseJson,
  parseListRequest,
  selectPage,
  sendList,
  simpleRestQuery,
} from '../api/simple-rest';
import type { Executor } from '../core/db';
import { requireAdmin } from '../auth/guards';
import { type AdminMember, type AdminMemberDetail, adminMember, adminMemberDetail } from '../contracts/members';
import { NotFound } from '../core/errors';
import { storedFileLink } from '../core/stored-files';

/**
 * The back office's members resource (seed 001 §2.10, §3.11; API.md §2): GET /api/admin/members
 * speaking ra-data-simple-rest, and GET /api/admin/members/:id for the per-member panels. The
 * panels' reads and writes use the portal's own member paths (profile, bank, 2FA, password,
 * message, payout), which record events; this file only reads.
 *
 * Filters (FakeRest dialect): id (one or many uuids), status (true = active, false = inactive),
 * is_stockist, package_id, rank_id, created_at_gte/_lte, and q (first name, last name, full name,
 * username, e-mail or package name: containing it from three characters, starting with it below).
 */
const isActive = sql`(m.activated_at is not null and not m.deactivated)`;

/**
 * What the search matches on the member's row: "first last" (so first name, last name and full
 * name), username and e-mail, separated by U+001F, the expression `members_search` indexes (it
 * must stay character for character the same). A filter never holds a C0 control character
 * (parseJson refuses them), so a searched text matches this exactly when it matches one of the parts.
 */
const membersSearchText = sql`(m.first_name || ' ' || m.last_name || E'\\x1f' || m.username || E'\\x1f' || m.email)`;

/** Past this many matches a list's total is estimated: counting 1,000,000 members at every page took ~1 s. */
export const MEMBERS_COUNTED_EXACTLY = 10_000;

const membersResource = {
  columns: {
    // ::text so that a malformed id in a getMany finds nothing instead of failing the uuid cast.
    id: { sql: sql`m.id::text`, type: 'text' },
    uuid: { sql: sql`m.id::text`, type: 'text' },
    first_name: { sql: sql`m.first_name`, type: 'text' },
    last_name: { sql: sql`m.last_name`, type: 'text' },
    full_name: { sql: sql`(m.first_name || ' ' || m.last_name)`, type: 'text' },
    email: { sql: sql`m.email`, type: 'text' },
    username: { sql: sql`m.username`, type: 'text' },
    phone: { sql: sql`m.phone`, type: 'text' },
    package_id: { sql: sql`m.package_id`, type: 'number' },
    package_name: { sql: sql`p.name`, type: 'text' },
    rank_id: { sql: sql`pts.rank_id`, type: 'number' },
    rank_name: { sql: sql`r.name`, type: 'text' },
    created_at: { sql: sql`m.created_at`, type: 'timestamp' },
    // Booleans compare as text: filter {"status":true} → 'true'.
    status: { sql: sql`${isActive}::text`, type: 'text' },
    is_stockist: { sql: sql`m.is_stockist::text`, type: 'text' },
    stockist_package_name: { sql: sql`st.package_name`, type: 'text' },
    stockist_status: { sql: sql`st.status::text`, type: 'text' },
    stockist_created_at: { sql: sql`coalesce(st.approved_at, st.created_at)`, type: 'timestamp' },
  } satisfies ResourceColumns,
  defaultSort: ['created_at', 'DESC'] as ['created_at', 'DESC'],
};

/** `q` as typed, without the spaces around it. */
const searchedText = (filter: unknown): string | undefined => {
  const q = typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? (filter as { q?: unknown }).q : undefined;
  return q === undefined || q === null || q === '' ? undefined : String(q).trim();
};

/**
 * A search this short has no trigram (members_search cannot serve it), so it matches the start of
 * a name, username, e-mail or package name instead of any part (docs/decisions.md 75).
 */
const SHORT_SEARCH = 2;
const isShort = (q: string) => q.length > 0 && [...q].length <= SHORT_SEARCH;

/** `q` as an ILIKE pattern: anywhere, or at the start for a short search; its own wildcards taken literally. */
const searchPattern = (q: string) => {
  const literal = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  return isShort(q) ? `${literal}%` : `%${literal}%`;
};

/**
 * The lowercased first one and two characters of the first name, last name, username and e-mail:
 * the expression `members_prefixes` indexes (GIN; it must stay character for character the same,
 * migration 2026_12_03_reads4_00_members_prefixes_and_package_order).
 */
const membersPrefixes = sql`(array[
      lower(left(m.first_name, 1)), lower(left(m.first_name, 2)), lower(left(m.last_name, 1)), lower(left(m.last_name, 2)),
      lower(left(m.username, 1)), lower(left(m.username, 2)), lower(left(m.email, 1)), lower(left(m.email, 2))])`;

/**
 * Whether the member's own text holds `q`: ILIKE through members_search (trigrams), or for one or
 * two characters, whether a name, the username or the e-mail starts with it, through
 * members_prefixes (decision 58: an index of every character pair was tried and not kept).
 */
const memberTextMatches = (q: string): RawBuilder<boolean> =>
  isShort(q) ? sql<boolean>`${membersPrefixes} @> array[lower(${q}::text)]` : sql<boolean>`${membersSearchText} ilike ${searchPattern(q)}`;

/**
 * The search (`q`) as two index arms (migration 2026_11_29_reads_00_members_search_and_sort): the
 * member's own text (memberTextMatches), and the package's name as the member's package among
 * `packageIds`, the packages whose name matches, read before the list (one small statement). Left
 * to the list's statement (`package_id = any(array(select …))`), the planner cannot tell how many
 * ids come back and scanned every member instead of using the indexes.
 */
const memberSearch = (packageIds: readonly number[]) => (q: string) =>
  packageIds.length === 0 ? memberTextMatches(q.trim()) : sql<boolean>`(${memberTextMatches(q.trim())} or m.package_id in (${sql.join(packageIds)}))`;

/** The catalogue's packages in their names' order (`rank`: equal names share one), and whether each name matches the search. */
type PackageOrder = { id: number; rank: number; matches: boolean };

/** The packages, read when the list searches or sorts by package (one statement on a small table); none otherwise. */
async function packagesFor(db: Executor, q: string | undefined, sortedByPackage: boolean): Promise<PackageOrder[]> {
  if (q === undefined && !sortedByPackage) return [];
  const { rows } = await sql<PackageOrder>`
    select id, dense_rank() over (order by name)::int as rank, ${q === undefined ? sql`false` : sql`name ilike ${searchPattern(q)}`} as matches
    from packages order by name, id`.execute(db);
  return rows;
}

const packagesJoin = sql`left join packages p on p.id = m.package_id`;
// The rank held lives in member_points alone (decision 86): a primary-key lookup per row.
const ranksJoin = sql`left join member_points pts on pts.member_id = m.id left join ranks r on r.id = pts.rank_id`;
// The member's stockist record: the approved one, else the latest application (a disapproved
// member may apply again, so there can be several).
const stockistJoin = sql`
  left join lateral (
    select sr.status, sr.created_at, sr.approved_at, sp.name as package_name
    from stockists sr join stockist_packages sp on sp.id = sr.package_id
    where sr.member_id = m.id
    order by (sr.status = 'approved') desc, sr.created_at desc
    limit 1
  ) st on true`;

/** The list's FROM clause over `source` as `m`: the members table, or a part of it (searchPage). */
const membersFrom = (source: RawBuilder<unknown>) => sql`
  from ${source} m
  ${packagesJoin}
  ${ranksJoin}
  left join member_profiles mp on mp.member_id = m.id
  ${stockistJoin}`;

const fromMembers = sql`
  from members m
  ${packagesJoin}
  ${ranksJoin}
  left join member_profiles mp on mp.member_id = m.id
  ${stockistJoin}`;

/** Whether the filter names a field starting with `prefix` (package_name, rank_, stockist_: a join's column). */
const filterReads = (filter: unknown) => {
  const keys = typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? Object.keys(filter) : [];
  return (prefix: string) => keys.some((key) => key.startsWith(prefix));
};

/**
 * The FROM clause a count needs: members, and only the joins the filter reads (package_name → p,
 * rank_id and rank_name → pts and r, stockist_* → st). A join the count does not need is not free even when the planner
 * removes it: the columns it joined on count as read, which rules out an index-only scan (the
 * stockists tab's count visited 10,000 heap pages at 1,000,000 members, ~0.1 s).
 */
function countFromFor(filter: unknown): RawBuilder<unknown> {
  const reads = filterReads(filter);
  return sql`
  from members m
  ${reads('package_name') ? packagesJoin : sql``}
  ${reads('rank_') ? ranksJoin : sql``}
  ${reads('stockist_') ? stockistJoin : sql``}`;
}

type MemberRow = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  phone: string;
  package_id: number;
  package_name: string | null;
  rank_id: number | null;
  rank_name: string | null;
  photo_path: string | null;
  created_at: Date;
  status: boolean;
  is_stockist: boolean;
  stockist_package_name: string | null;
  stockist_status: 'pending' | 'approved' | 'disapproved' | null;
  stockist_created_at: Date | null;
};

const listColumns = sql`
  m.id, m.first_name, m.last_name, m.email, m.username, m.phone, m.package_id, p.name as package_name, pts.rank_id, r.name as rank_name,
  mp.photo_path, m.created_at, ${isActive} as status, m.is_stockist,
  st.package_name as stockist_package_name, st.status as stockist_status, coalesce(st.approved_at, st.created_at) as stockist_created_at`;

const toRecord = (row: MemberRow): AdminMember => ({
  id: row.id,
  uuid: row.id,
  first_name: row.first_name,
  last_name: row.last_name,
  full_name: `${row.first_name} ${row.last_name}`,
  email: row.email,
  username: row.username,
  phone: row.phone,
  package_id: row.package_id,
  package_name: row.package_name,
  rank_id: row.rank_id,
  rank_name: row.rank_name,
  photo_path: storedFileLink(row.photo_path),
  created_at: row.created_at.toISOString(),
  status: row.status,
  is_stockist: row.is_stockist,
  stockist_package_name: row.stockist_package_name,
  stockist_status: row.stockist_status,
  stockist_created_at: row.stockist_created_at?.toISOString() ?? null,
});

type DetailRow = MemberRow & {
  sponsor_username: string | null;
  has_profile: boolean;
  address: string | null;
  gender: 'male' | 'female' | null;
  bank_name: string | null;
  bank_code: string | null;
  bank_account_name: string | null;
  bank_account_number: string | null;
  bank_editable: boolean | null;
  enable_2fa: boolean;
  email_verified: boolean;
};

/** The sort fields that are members' own columns (each has an index in its order but package_id). */
const MEMBER_SORTS = new Set(['id', 'uuid', 'first_name', 'last_name', 'full_name', 'email', 'username', 'phone', 'package_id', 'created_at', 'status', 'is_stockist']);

/**
 * How many members, in the list's order, a search's page looks through before it reads every
 * match instead (searchPage; docs/decisions.md 75).
 */
export const SEARCH_WINDOW = 2_000;

/** One page of the members list and its total (the queries membership/members-list-indexes.int.spec.ts EXPLAINs). */
export async function listMembers(db: Executor, query: SimpleRestQuery): Promise<{ list: ListRequest; rows: AdminMember[]; total: number }> {
  const filter = parseJson(query.filter, 'filter');
  const q = searchedText(filter);
  const sort = parseJson(query.sort, 'sort');
  const sortField = Array.isArray(sort) ? sort[0] : membersResource.defaultSort[0];
  const packages = await packagesFor(db, q, sortField === 'package_name');
  const list = parseListRequest(query, { ...membersResource, search: memberSearch(packages.filter((p) => p.matches).map((p) => p.id)) });
  // Ties go the sort's way, so every sort's index serves both directions (docs/decisions.md 60).
  const tiebreak = sql`m.id ${list.descending ? sql`desc` : sql`asc`}`;
  const countFrom = countFromFor(filter);
  const exporting = listExportBatch.getStore() !== undefined;
  const narrow = !exporting && q !== undefined && !isShort(q) && filtersOnlySearch(filter) ? narrowSearch(q, packages.filter((p) => p.matches).map((p) => p.id)) : undefined;
  if (narrow && sortField === 'package_name') {
    const { rows, total } = await narrowPackageOrderPage(db, list, packages, narrow, countFrom);
    return { list, rows: rows.map(toRecord), total };
  }
  if (narrow && sortField === 'created_at') {
    const { rows, total } = await narrowSearchPage(db, list, narrow, countFrom);
    return { list, rows: rows.map(toRecord), total };
  }
  if (!exporting && sortField === 'package_name') {
    const { rows, total } = await packageOrderPage(db, list, packages, countFrom);
    return { list, rows: rows.map(toRecord), total };
  }
  const reads = filterReads(filter);
  if (!exporting && q !== undefined && MEMBER_SORTS.has(String(sortField)) && !['package_name', 'rank_', 'stockist_'].some(reads)) {
    const { rows, total } = await searchPage(db, list, tiebreak, countFrom);
    return { list, rows: rows.map(toRecord), total };
  }
  // Past 10,000 members the total is PostgreSQL's estimate (docs/decisions.md, "A long list's total is estimated").
  const { rows, total } = await selectPage<MemberRow>(db, { columns: listColumns, from: fromMembers, countFrom, countCap: MEMBERS_COUNTED_EXACTLY, tiebreak, list });
  return { list, rows: rows.map(toRecord), total };
}

/**
 * A search's page, in two steps whose cost does not depend on where the planner guesses the
 * matches are (docs/decisions.md 75). First the first SEARCH_WINDOW members in the list's order
 * (its index, walked and stopped): a page found among them is the page, since they are the head of
 * the same order. Else every match, found through the search's indexes (trigrams or prefixes),
 * sorted top-N and counted in the same statement. Left to itself the planner walked the newest
 * members when it expected the matches spread evenly, and read ~870,000 for a word whose 11,111
 * matches were all old members ("mb12"). `list.where` reads only the members table.
 */
async function searchPage(db: Executor, list: ListRequest, tiebreak: RawBuilder<unknown>, countFrom: RawBuilder<unknown>): Promise<{ rows: MemberRow[]; total: number }> {
  const order = sql`${list.orderBy}, ${tiebreak}`;
  const countCap = MEMBERS_COUNTED_EXACTLY;
  if (list.offset + list.limit <= SEARCH_WINDOW) {
    const head = sql`(select * from members m order by ${order} limit ${SEARCH_WINDOW})`;
    const { rows } = await sql<MemberRow>`select ${listColumns} ${membersFrom(head)} where ${list.where} order by ${order} limit ${list.limit} offset ${list.offset}`.execute(db);
    if (rows.length === list.limit) return { rows, total: await listTotal(db, { countFrom, where: list.where, list, countCap, pageLength: rows.length }) };
  }
  // Every match is fetched the cheapest way (a bitmap of the search's index), not by walking an
  // index in the list's order: the inner statement has no order to follow (`offset 0` keeps the
  // planner from merging it with the sort), and count(*) over () needs every match anyway.
  const matches = sql`(select m.*, count(*) over () as matches from (select * from members m where ${list.where} offset 0) m order by ${order} limit ${list.limit} offset ${list.offset})`;
  const { rows } = await sql<MemberRow & { matches: string }>`select ${listColumns}, m.matches ${membersFrom(matches)} order by ${order}`.execute(db);
  if (rows.length > 0) return { rows, total: Number(rows[0]!.matches) };
  return { rows, total: list.offset === 0 ? 0 : await listTotal(db, { countFrom, where: list.where, list, countCap, pageLength: 0 }) };
}

/**
 * The list sorted by package name (the name is on `packages`, so no index of members holds that
 * order): each package's members through `members_by_package (package_id, id)`, at most
 * offset + limit of them in id order, one arm per package, put in the packages' names' order
 * (ties by id, in the sort's direction; packages with the same name share a rank, so their members
 * interleave by id as `order by p.name, m.id` would have them). The sort is over those few rows,
 * not the tab's members (docs/decisions.md 75). Packages are never deleted, so every member's
 * package is among them.
 */
async function packageOrderPage(db: Executor, list: ListRequest, packages: PackageOrder[], countFrom: RawBuilder<unknown>): Promise<{ rows: MemberRow[]; total: number }> {
  const direction = list.descending ? sql`desc` : sql`asc`;
  const reach = list.offset + list.limit;
  // The arms read ids through only the joins the filter needs (countFrom); the page's rows get their columns after (rowsByIds).
  const arms = packages.map(
    (p) => sql`(select ${list.descending ? -p.rank : p.rank}::int as package_order, m.id ${countFrom} where ${list.where} and m.package_id = ${p.id} order by m.id ${direction} limit ${reach})`,
  );
  const ids =
    arms.length === 0
      ? []
      : (await sql<{ id: string }>`select id from (${sql.join(arms, sql` union all `)}) page order by package_order, id ${direction} limit ${list.limit} offset ${list.offset}`.execute(db)).rows.map((r) => r.id);
  const rows = await rowsByIds(db, ids);
  return { rows, total: await listTotal(db, { countFrom, where: list.where, list, countCap: MEMBERS_COUNTED_EXACTLY, pageLength: rows.length }) };
}

/** Whether the filter's only condition is the search (`q`): what member_search_rows holds is enough. */
function filtersOnlySearch(filter: unknown): boolean {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return false;
  return Object.entries(filter).every(([key, value]) => key === 'q' || value === undefined || value === null || value === '');
}

/**
 * The search of three or more characters over member_search_rows (alias `s`): the same two arms as
 * memberSearch, the text through member_search_rows_search (trigrams), the package through
 * member_search_rows_by_package. `search_lower` is `lower(membersSearchText)`, kept by the table's
 * triggers, and PostgreSQL computes `text ilike pattern` as `lower(text) like lower(pattern)` (a
 * multibyte encoding; like.c), so `search_lower like lower(pattern)` has the same matches as
 * memberTextMatches without a lower() of each candidate row (docs/decisions.md 83).
 */
const narrowSearch = (q: string, packageIds: readonly number[]): RawBuilder<boolean> => {
  const text = sql<boolean>`s.search_lower like lower(${searchPattern(q)}::text)`;
  return packageIds.length === 0 ? text : sql<boolean>`(${text} or s.package_id in (${sql.join(packageIds)}))`;
};

/** The page's rows from members, read by id (the page's ≤ 25 members), in the order of `ids`. */
async function rowsByIds(db: Executor, ids: readonly string[]): Promise<MemberRow[]> {
  if (ids.length === 0) return [];
  const page = sql`(select * from members m where m.id = any(${sql.val(ids)}::uuid[]))`;
  const { rows } = await sql<MemberRow>`select ${listColumns} ${membersFrom(page)}`.execute(db);
  const place = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
}

/**
 * The list's total when its page was found without counting (listTotal's rules and figures: a
 * short page ends the list; the planner's estimate over members past the cap), its capped count
 * over member_search_rows, which has the same matches as members.
 */
async function narrowTotal(db: Executor, list: ListRequest, narrow: RawBuilder<boolean>, countFrom: RawBuilder<unknown>, pageLength: number, estimate?: number): Promise<number> {
  const countCap = MEMBERS_COUNTED_EXACTLY;
  if (pageLength < list.limit && (pageLength > 0 || list.offset === 0)) return list.offset + pageLength;
  const estimated = estimate ?? (await estimatedRows(db, sql`select 1 ${countFrom} where ${list.where}`));
  if (estimated > countCap * ESTIMATE_BEYOND_DOUBT) return estimated;
  const { rows } = await sql<{ total: number }>`select count(*)::int as total from (select 1 from member_search_rows s where ${narrow} limit ${countCap + 1}) capped`.execute(db);
  const exact = rows[0]?.total ?? 0;
  return exact <= countCap ? exact : Math.max(countCap + 1, estimated);
}

/**
 * searchPage for a search of three or more characters, newest (or oldest) first, with no other
 * filter (docs/decisions.md 82): the same two steps over member_search_rows, whose rows are a
 * fraction of a members row, so rechecking the trigram matches and sorting them reads a few
 * narrow pages instead of a members heap page per match. Then the page's rows from members by id.
 * The order and its tie-break are the list's (created_at, id, both the sort's way).
 */
async function narrowSearchPage(db: Executor, list: ListRequest, narrow: RawBuilder<boolean>, countFrom: RawBuilder<unknown>): Promise<{ rows: MemberRow[]; total: number }> {
  const direction = list.descending ? sql`desc` : sql`asc`;
  const order = sql`s.created_at ${direction}, s.id ${direction}`;
  if (list.offset + list.limit <= SEARCH_WINDOW) {
    const head = sql`(select s.id, s.created_at, s.search_lower, s.package_id from member_search_rows s order by ${order} limit ${SEARCH_WINDOW})`;
    const { rows: ids } = await sql<{ id: string }>`select s.id from ${head} s where ${narrow} order by ${order} limit ${list.limit} offset ${list.offset}`.execute(db);
    if (ids.length === list.limit) {
      const rows = await rowsByIds(db, ids.map((r) => r.id));
      return { rows, total: await narrowTotal(db, list, narrow, countFrom, rows.length) };
    }
  }
  const { rows: ids } = await sql<{ id: string; matches: string }>`
    select s.id, count(*) over () as matches from (select s.id, s.created_at from member_search_rows s where ${narrow} offset 0) s
    order by ${order} limit ${list.limit} offset ${list.offset}`.execute(db);
  const rows = await rowsByIds(db, ids.map((r) => r.id));
  if (ids.length > 0) return { rows, total: Number(ids[0]!.matches) };
  return { rows, total: list.offset === 0 ? 0 : await narrowTotal(db, list, narrow, countFrom, 0) };
}

/**
 * packageOrderPage for a search of three or more characters with no other filter (docs/decisions.md
 * 82), over member_search_rows. When the planner expects few enough matches that listTotal would
 * count them, every match is read once through the search's indexes, put in the packages' names'
 * order (ties by id, the sort's way) and counted in the same statement: the count was the page's
 * other half. Else each package's matches through member_search_rows_by_package (index-only, the
 * text in the index), as packageOrderPage does, and the estimate is the total.
 */
async function narrowPackageOrderPage(
  db: Executor,
  list: ListRequest,
  packages: PackageOrder[],
  narrow: RawBuilder<boolean>,
  countFrom: RawBuilder<unknown>,
): Promise<{ rows: MemberRow[]; total: number }> {
  const direction = list.descending ? sql`desc` : sql`asc`;
  const rank = (p: PackageOrder) => (list.descending ? -p.rank : p.rank);
  if (packages.length === 0) return { rows: [], total: await narrowTotal(db, list, narrow, countFrom, 0) };
  const estimate = await estimatedRows(db, sql`select 1 ${countFrom} where ${list.where}`);
  if (estimate <= MEMBERS_COUNTED_EXACTLY * ESTIMATE_BEYOND_DOUBT) {
    const packageOrder = sql`case s.package_id ${sql.join(packages.map((p) => sql`when ${p.id}::int then ${rank(p)}::int`), sql` `)} end`;
    const { rows: ids } = await sql<{ id: string; matches: string }>`
      select s.id, count(*) over () as matches from (select s.id, s.package_id from member_search_rows s where ${narrow} offset 0) s
      order by ${packageOrder}, s.id ${direction} limit ${list.limit} offset ${list.offset}`.execute(db);
    const rows = await rowsByIds(db, ids.map((r) => r.id));
    if (ids.length === 0) return { rows, total: await narrowTotal(db, list, narrow, countFrom, 0, estimate) };
    const counted = Number(ids[0]!.matches);
    const total = rows.length < list.limit ? list.offset + rows.length : counted <= MEMBERS_COUNTED_EXACTLY ? counted : Math.max(MEMBERS_COUNTED_EXACTLY + 1, estimate);
    return { rows, total };
  }
  const reach = list.offset + list.limit;
  const arms = packages.map(
    (p) => sql`(select ${rank(p)}::int as package_order, s.id from member_search_rows s where ${narrow} and s.package_id = ${p.id} order by s.id ${direction} limit ${reach})`,
  );
  const { rows: ids } = await sql<{ id: string }>`select id from (${sql.join(arms, sql` union all `)}) page order by package_order, id ${direction} limit ${list.limit} offset ${list.offset}`.execute(db);
  const rows = await rowsByIds(db, ids.map((r) => r.id));
  return { rows, total: await narrowTotal(db, list, narrow, countFrom, rows.length, estimate) };
}

export const adminMembersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/members',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], querystring: simpleRestQuery, response: { 200: z.array(adminMember) } } },
    async (request, reply) => {
      const { list, rows, total } = await listMembers(app.db, request.query);
      return sendList(reply, 'members', list, rows, total);
    },
  );

  app.get(
    '/admin/members/:id',
    { preHandler: requireAdmin('read'), schema: { tags: ['admin'], params: z.object({ id: z.uuid({ error: 'Member not found.' }) }), response: { 200: adminMemberDetail } } },
    async (request): Promise<AdminMemberDetail> => {
      const { rows } = await sql<DetailRow>`
        select ${listColumns}, s.username as sponsor_username, (mp.member_id is not null) as has_profile, mp.address, mp.gender,
          mp.bank_name, mp.bank_code, mp.bank_account_name, mp.bank_account_number, mp.bank_editable, m.enable_2fa,
          (m.email_verified_at is not null) as email_verified
        ${fromMembers}
        left join members s on s.id = m.sponsor_id
        where m.id = ${request.params.id}`.execute(app.db);
      const row = rows[0];
      if (!row) throw new NotFound('Member not found.');
      return {
        ...toRecord(row),
        sponsor_username: row.sponsor_username,
        has_profile: row.has_profile,
        address: row.address,
        gender: row.gender,
        bank_name: row.bank_name,
        bank_code: row.bank_code,
        bank_account_name: row.bank_account_name,
        bank_account_number: row.bank_account_number,
        bank_editable: row.bank_editable ?? true,
        enable_2fa: row.enable_2fa,
        email_verified: row.email_verified,
      };
    },
  );
};
