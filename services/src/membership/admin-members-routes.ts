import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { type ListRequest, type ResourceColumns, type SimpleRestQuery, parseJson, parseListRequest, selectPage, sendList, simpleRestQuery } from '../api/simple-rest';
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
 * username, e-mail or package name).
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
    rank_id: { sql: sql`m.rank_id`, type: 'number' },
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

/** `q` as an ILIKE pattern matching it anywhere, its own wildcards taken literally. */
const containing = (q: string) => `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Whether the member's own text holds `q`: ILIKE, through members_search (trigrams). A term of one or
 * two characters has no trigram and reads every member (docs/decisions.md 58: an index of the text's
 * characters and pairs was tried and not kept).
 */
const memberTextMatches = (q: string): RawBuilder<boolean> => sql<boolean>`${membersSearchText} ilike ${containing(q)}`;

/**
 * The search (`q`) as two index arms (migration 2026_11_29_reads_00_members_search_and_sort): the
 * member's own text (memberTextMatches), and the package's name as the member's package among
 * `packageIds`, the packages whose name matches, read before the list (one small statement). Left
 * to the list's statement (`package_id = any(array(select …))`), the planner cannot tell how many
 * ids come back and scanned every member instead of using the indexes.
 */
const memberSearch = (packageIds: readonly number[]) => (q: string) =>
  packageIds.length === 0 ? memberTextMatches(q) : sql<boolean>`(${memberTextMatches(q)} or m.package_id in (${sql.join(packageIds)}))`;

/** The packages whose name holds the searched text (none without a search). */
async function packagesMatching(db: Executor, filter: unknown): Promise<number[]> {
  const q = typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? (filter as { q?: unknown }).q : undefined;
  if (q === undefined || q === null || q === '') return [];
  const { rows } = await sql<{ id: number }>`select id from packages where name ilike ${containing(String(q))}`.execute(db);
  return rows.map((row) => row.id);
}

const packagesJoin = sql`left join packages p on p.id = m.package_id`;
const ranksJoin = sql`left join ranks r on r.id = m.rank_id`;
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

const fromMembers = sql`
  from members m
  ${packagesJoin}
  ${ranksJoin}
  left join member_profiles mp on mp.member_id = m.id
  ${stockistJoin}`;

/**
 * The FROM clause a count needs: members, and only the joins the filter reads (package_name → p,
 * rank_name → r, stockist_* → st). A join the count does not need is not free even when the planner
 * removes it: the columns it joined on count as read, which rules out an index-only scan (the
 * stockists tab's count visited 10,000 heap pages at 1,000,000 members, ~0.1 s).
 */
function countFromFor(filter: unknown): RawBuilder<unknown> {
  const keys = typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? Object.keys(filter) : [];
  const reads = (prefix: string) => keys.some((key) => key.startsWith(prefix));
  return sql`
  from members m
  ${reads('package_name') ? packagesJoin : sql``}
  ${reads('rank_name') ? ranksJoin : sql``}
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
  m.id, m.first_name, m.last_name, m.email, m.username, m.phone, m.package_id, p.name as package_name, m.rank_id, r.name as rank_name,
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

/** One page of the members list and its total (the queries membership/members-list-indexes.int.spec.ts EXPLAINs). */
export async function listMembers(db: Executor, query: SimpleRestQuery): Promise<{ list: ListRequest; rows: AdminMember[]; total: number }> {
  const filter = parseJson(query.filter, 'filter');
  const list = parseListRequest(query, { ...membersResource, search: memberSearch(await packagesMatching(db, filter)) });
  // Past 10,000 members the total is PostgreSQL's estimate (docs/decisions.md, "A long list's total is estimated").
  const { rows, total } = await selectPage<MemberRow>(db, {
    columns: listColumns,
    from: fromMembers,
    countFrom: countFromFor(filter),
    countCap: MEMBERS_COUNTED_EXACTLY,
    // Ties go the sort's way, so every sort's index serves both directions (docs/decisions.md 60).
    tiebreak: (direction) => sql`m.id ${direction}`,
    list,
  });
  return { list, rows: rows.map(toRecord), total };
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
