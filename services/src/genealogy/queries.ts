import { memberFigure } from '../membership/member-totals';
import { type RawBuilder, sql } from 'kysely';
import type { DirectDownline, Downline, GenealogyNode, MemberListType, Paged, UplineDetails } from '../contracts/genealogy';
import type { MemberListRow } from '../contracts/profile';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';
import type { PlacementLeg } from '../membership/events';
import { downlineRange } from './paths';
import { SPONSOR_GENERATIONS } from './projections';
import { storedFileLink } from '../core/stored-files';
import { stockistSummaries } from '../stockists/summaries';

/**
 * Reads of the genealogy tables (docs/genealogy.md). Every read is bounded by what it returns, not
 * by the depth of the tree: one indexed lookup, one index range, or a walk of at most
 * GENEALOGY_MAX_DEPTH levels. Names, packages and photos come from the members and profile
 * tables, so a renamed member or a new photo shows at once.
 */

export const memberNotFound = 'Member not found.';
/** The member screen's downlines table (seed 000 §9). */
export const DOWNLINES_PER_PAGE = 5;
export const MEMBERS_PER_PAGE = 20;

const isActive = sql<boolean>`(m.activated_at is not null and not m.deactivated)`;

async function requireMember(db: Executor, memberId: string): Promise<void> {
  const found = await db.selectFrom('members').select('id').where('id', '=', memberId).executeTakeFirst();
  if (!found) throw new NotFound(memberNotFound);
}

const pageOf = <T>(rows: T[], page: number, perPage: number, total: number): Paged<T> => ({
  data: rows,
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  per_page: perPage,
  total,
});

/** GET /users/{id}/upline-details: the sponsor (seed 000 §2.6 upline card); null for the company root. */
export async function uplineDetailsOf(db: Executor, memberId: string): Promise<UplineDetails | null> {
  const { rows } = await sql<Partial<UplineDetails>>`
    select s.id as uuid, p.name as package, s.first_name, s.last_name, s.email, s.username, mp.photo_path
    from members x
    left join members s on s.id = x.sponsor_id
    left join packages p on p.id = s.package_id
    left join member_profiles mp on mp.member_id = s.id
    where x.id = ${memberId}`.execute(db);
  const row = rows[0];
  if (!row) throw new NotFound(memberNotFound);
  if (!row.uuid) return null;
  return { uuid: row.uuid, package: row.package ?? null, first_name: row.first_name!, last_name: row.last_name!, email: row.email!, username: row.username!, photo_path: storedFileLink(row.photo_path ?? null) };
}

type DownlineRow = {
  member_id: string;
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  package_id: number;
  package: string | null;
  downline_count: number | null;
  photo_path: string | null;
  placement_leg: PlacementLeg | null;
  active: boolean;
};

/** The columns every downline shows; `n` is a genealogy_nodes row. */
const downlineColumns = sql`
  n.member_id, m.first_name, m.last_name, m.username, m.email, m.package_id, p.name as package,
  c.downline_count, mp.photo_path, n.placement_leg, ${isActive} as active`;
const downlineJoins = sql`
  join members m on m.id = n.member_id
  left join packages p on p.id = m.package_id
  left join member_profiles mp on mp.member_id = n.member_id
  left join genealogy_counts c on c.member_id = n.member_id`;

const toDirectDownline = (row: DownlineRow): DirectDownline => ({
  uuid: row.member_id,
  name: `${row.first_name} ${row.last_name}`,
  first_name: row.first_name,
  last_name: row.last_name,
  username: row.username,
  email: row.email,
  package: row.package,
  package_id: row.package_id,
  downlines: row.downline_count ?? 0,
  photo_path: storedFileLink(row.photo_path),
  leg: row.placement_leg,
  active: row.active,
});

/** GET /users/{id}/direct-downlines: the members this member sponsored, in the order they joined. */
export async function directDownlinesOf(db: Executor, memberId: string): Promise<DirectDownline[]> {
  await requireMember(db, memberId);
  const { rows } = await sql<DownlineRow>`
    select ${downlineColumns} from genealogy_nodes n ${downlineJoins}
    where n.sponsor_id = ${memberId}
    order by n.registered_position`.execute(db);
  return rows.map(toDirectDownline);
}

/** GET /users/{id}/count-direct-downlines */
export async function countDirectDownlines(db: Executor, memberId: string): Promise<number> {
  await requireMember(db, memberId);
  const row = await db.selectFrom('genealogy_counts').select('direct_count').where('member_id', '=', memberId).executeTakeFirst();
  return row?.direct_count ?? 0;
}

/** A member's place and counts in the placement tree; undefined until the projection has it. */
export async function placementOf(db: Executor, memberId: string) {
  const { rows } = await sql<{ tree_root_id: string; path: string; depth: number; downline_count: number; left_count: number; right_count: number; direct_count: number }>`
    select n.tree_root_id, n.path::text as path, n.depth, c.downline_count, c.left_count, c.right_count, c.direct_count
    from genealogy_nodes n join genealogy_counts c using (member_id) where n.member_id = ${memberId}`.execute(db);
  return rows[0];
}

/**
 * GET /users/{id}/downlines?page: everyone below the member in the placement tree, in tree order
 * (each member followed by its left leg, then its right leg). One range of the path index, never
 * a walk of the tree; the total is the stored count.
 */
export async function downlinePage(db: Executor, memberId: string, page: number, perPage = DOWNLINES_PER_PAGE): Promise<Paged<Downline>> {
  await requireMember(db, memberId);
  const top = await placementOf(db, memberId);
  if (!top || top.downline_count === 0) return pageOf([], page, perPage, 0);
  const { after, before } = downlineRange(top.path);
  const { rows } = await sql<DownlineRow & { depth: number }>`
    select ${downlineColumns}, n.depth from genealogy_nodes n ${downlineJoins}
    where ${downlineRangeCondition(top.tree_root_id, after, before)}
    order by n.path
    limit ${perPage} offset ${(page - 1) * perPage}`.execute(db);
  return pageOf(
    rows.map((row) => ({ ...toDirectDownline(row), level: row.depth - top.depth })),
    page,
    perPage,
    top.downline_count,
  );
}

/** The condition that selects a downline on the (tree_root_id, path) index. */
export function downlineRangeCondition(treeRootId: string, after: string, before: string | null): RawBuilder<boolean> {
  return sql<boolean>`n.tree_root_id = ${treeRootId} and n.path > ${after}::varbit ${before === null ? sql`` : sql`and n.path < ${before}::varbit`}`;
}

/**
 * GET /users/{id}/genealogy: the member and `depth` levels of its placement downline, nested by
 * leg for an org chart. At most 2^(depth+1) - 1 members, found level by level on the
 * placement-parent index.
 */
export async function genealogyTreeOf(db: Executor, memberId: string, depth: number): Promise<GenealogyNode> {
  const { rows } = await sql<DownlineRow & { level: number; placement_parent_id: string | null; left_count: number | null; right_count: number | null }>`
    with recursive tree(member_id, level) as (
      select ${memberId}::uuid, 0
      union all
      select n.member_id, tree.level + 1 from tree join genealogy_nodes n on n.placement_parent_id = tree.member_id
      where tree.level < ${depth}
    )
    select tree.member_id, tree.level, m.first_name, m.last_name, m.username, m.email, m.package_id, p.name as package,
      c.downline_count, c.left_count, c.right_count, mp.photo_path, n.placement_parent_id, n.placement_leg, ${isActive} as active
    from tree
    join members m on m.id = tree.member_id
    left join genealogy_nodes n on n.member_id = tree.member_id
    left join packages p on p.id = m.package_id
    left join member_profiles mp on mp.member_id = tree.member_id
    left join genealogy_counts c on c.member_id = tree.member_id
    order by tree.level, n.placement_leg`.execute(db);
  const nodes = new Map<string, GenealogyNode>();
  let top: GenealogyNode | undefined;
  for (const row of rows) {
    const node: GenealogyNode = {
      uuid: row.member_id,
      username: row.username,
      name: `${row.first_name} ${row.last_name}`,
      first_name: row.first_name,
      last_name: row.last_name,
      package: row.package,
      package_id: row.package_id,
      active: row.active,
      left_count: row.left_count ?? 0,
      right_count: row.right_count ?? 0,
      downlines: row.downline_count ?? 0,
      photo_path: storedFileLink(row.photo_path),
      leg: row.placement_leg,
      level: row.level,
      children: [],
    };
    nodes.set(node.uuid, node);
    // Rows come level by level, left before right: a parent is always seen before its children.
    if (row.level === 0) top = node;
    else nodes.get(row.placement_parent_id!)?.children.push(node);
  }
  if (!top) throw new NotFound(memberNotFound);
  return top;
}

export type SponsorUpline = { generation: number; member_id: string; username: string; package_id: number; active: boolean };

/**
 * The sponsor chain, generation 1 (the sponsor) to `generations` (at most 10), nearest first: one
 * primary-key lookup for the stored chain and one per generation, whatever the member's depth.
 */
export async function sponsorChainOf(db: Executor, memberId: string, generations = SPONSOR_GENERATIONS): Promise<SponsorUpline[]> {
  const { rows } = await sql<SponsorUpline>`
    select chain.generation::int as generation, m.id as member_id, m.username, m.package_id, ${isActive} as active
    from genealogy_nodes n
    cross join lateral unnest(n.sponsor_chain) with ordinality as chain(member_id, generation)
    join members m on m.id = chain.member_id
    where n.member_id = ${memberId} and chain.generation <= ${Math.min(generations, SPONSOR_GENERATIONS)}
    order by chain.generation`.execute(db);
  return rows;
}

// ── Admin members lists (seed 001 §2.10, §3.11) ──────────────────────────────────────────────

type MemberListFilter = { type: MemberListType; search?: string };

function memberListWhere(filter: MemberListFilter): RawBuilder<boolean> {
  const conditions: RawBuilder<boolean>[] = [];
  if (filter.type === 'active') conditions.push(isActive);
  if (filter.type === 'inactive') conditions.push(sql<boolean>`not ${isActive}`);
  if (filter.type === 'stockist') conditions.push(sql<boolean>`m.is_stockist`);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql<boolean>`(m.first_name ilike ${pattern} or m.last_name ilike ${pattern} or (m.first_name || ' ' || m.last_name) ilike ${pattern}
      or m.username ilike ${pattern} or m.email ilike ${pattern} or p.name ilike ${pattern})`);
  }
  return conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`${sql.join(conditions, sql` and `)}`;
}

export async function countMembers(db: Executor, filter: MemberListFilter): Promise<number> {
  // Unsearched, every member, the active and the inactive are the members read model's daily totals (decision 88).
  if (!filter.search && filter.type !== 'stockist') {
    const every = () => memberFigure(db, 'pv').then((f) => f.n);
    const active = () => memberFigure(db, 'active').then((f) => f.n);
    if (filter.type === 'all') return every();
    if (filter.type === 'active') return active();
    if (filter.type === 'inactive') return (await every()) - (await active());
  }
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from members m left join packages p on p.id = m.package_id where ${memberListWhere(filter)}`.execute(db);
  return rows[0]!.n;
}

/** Newest members first, in the shape of GET /users/{id}/user. */
export async function memberListPage(db: Executor, filter: MemberListFilter, page: number, perPage = MEMBERS_PER_PAGE): Promise<Paged<MemberListRow>> {
  const total = await countMembers(db, filter);
  const { rows } = await sql<{
    id: string; first_name: string; last_name: string; email: string; username: string; phone: string; package_id: number;
    package_name: string | null; rank_id: number | null; photo_path: string | null; created_at: Date; is_stockist: boolean; active: boolean;
  }>`
    select m.id, m.first_name, m.last_name, m.email, m.username, m.phone, m.package_id, p.name as package_name, pts.rank_id,
      mp.photo_path, m.created_at, m.is_stockist, ${isActive} as active
    from members m
    left join packages p on p.id = m.package_id
    left join member_points pts on pts.member_id = m.id
    left join member_profiles mp on mp.member_id = m.id
    where ${memberListWhere(filter)}
    order by m.created_at desc, m.id
    limit ${perPage} offset ${(page - 1) * perPage}`.execute(db);
  const stockists = await stockistSummaries(db, rows.map((row) => row.id));
  const data = rows.map((row): MemberListRow => ({
    uuid: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    username: row.username,
    phone: row.phone,
    package_id: row.package_id,
    package_name: row.package_name,
    rank_id: row.rank_id,
    photo_path: storedFileLink(row.photo_path),
    created_at: row.created_at.toISOString(),
    is_stockist: row.is_stockist,
    ...stockists.get(row.id)!,
    status: row.active,
  }));
  return pageOf(data, page, perPage, total);
}
