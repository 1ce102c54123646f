import { type RawBuilder, type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
import type { Database } from '../database';
import type { PlacementLeg } from '../membership/events';

/** The first event of a batch that is not a registration (an expiry or a reinstatement), where a run of registrations stops. */
export type RunEnd = { ord: number; type: 'MemberRegistrationExpired' | 'MemberReinstated'; member_id: string; placement_parent_id: string | null; placement_leg: PlacementLeg | null };

/**
 * The genealogy projection's registrations placed inside PostgreSQL, for rebuilds only
 * (projections.ts `genealogyProjection.rebuildAt`; the live projection keeps its own path). ONE
 * statement places a run of registrations: the batch's events from its `from`-th position (1-based)
 * up to the first that is not a registration, which it returns (the caller applies that one as the
 * live projection does, then asks for the next run). It leaves the rows placeRegistrations
 * (projections.ts) leaves, registration by registration (genealogy-at.property.int.spec.ts):
 * - a member's placement parent and sponsor are whom they name when that member registered
 *   EARLIER in the run or is already projected; one registered later in the run (or never) is
 *   nobody yet: the member is then the top of a tree of its own (path '', itself its tree), and a
 *   sponsor nobody yet leaves a chain of that one id and a depth of 0;
 * - paths: two recursive walks down the run's own registrations, one for the placement tree (path =
 *   parent's path + the leg's bit, tree = the parent's tree), one for the sponsor tree (chain = the
 *   sponsor and its first nine, depth + 1), each starting from the members placed under (or
 *   sponsored by) someone already projected, or by nobody;
 * - leg counts: every new member counts once for each ancestor on the leg leading to it, i.e. for
 *   every proper prefix of its path in its tree (prefix → ancestor by the unique index on (tree,
 *   path)); summed per ancestor; direct counts: one per registration naming the sponsor, given to
 *   any counts row there is after the run's rows are inserted (as the live batch does: a sponsor
 *   registered later in the same run is counted, one registered in a later batch is not);
 * - new members' counts rows are inserted with their counts, and the other rows updated once.
 * The work is the run's registrations plus the sum of their depths (each prefix is a row), and
 * the in-run walks are as deep as the run's longest chain of registrations: past RUN_LIMITS the
 * statement writes nothing and says so, and the caller applies the batch the live way.
 * Orphans are kept as the live projection makes them, silently (a parent registered later, or
 * never: the member tops a tree of its own); decision 79.
 */
export async function placeRegistrationsAt(
  trx: Transaction<Database>,
  positions: readonly number[],
  from: number,
  sponsorGenerations: number,
  limits: RunLimits = RUN_LIMITS,
): Promise<RunEnd | null | 'too deep'> {
  // For the rest of this (rebuild batch's) transaction: the planner's guesses for the recursive
  // walks are far above the rows there are, so it would compile the statement (JIT: ~2 s where the
  // statement takes ~0.2 s) and sort each new member's prefixes on disk instead of hashing them.
  await sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`.execute(trx);
  // The run's positions alone, unfiltered: the planner then expects as many rows as there are (a
  // filter on the batch makes it guess a handful and join the run to itself by nested loops).
  const { rows } = await placeRegistrationsStatement(positions.slice(from - 1), sponsorGenerations, limits).execute(trx);
  const row = rows[0]!;
  if (!row.fits) return 'too deep';
  return row.ord === null ? null : { type: row.type!, member_id: row.member_id!, placement_parent_id: row.placement_parent_id, placement_leg: row.placement_leg, ord: row.ord + from - 1 };
}

/**
 * How deep a run this statement takes: chains of registrations in the run (each a step of its
 * walks) and the new members' mean depth (each a row per ancestor). Deeper, it writes nothing and
 * the caller applies the batch as the live projection does: a 10,000-deep chain would cost
 * ~50 million rows here (depth squared), against one walk up for the live projection.
 */
export type RunLimits = { levels: number; meanDepth: number };
export const RUN_LIMITS: RunLimits = { levels: 64, meanDepth: 64 };

type StatementRow = { fits: boolean; ord: number | null; type: RunEnd['type'] | null; member_id: string | null; placement_parent_id: string | null; placement_leg: PlacementLeg | null };

/** The statement of placeRegistrationsAt (apart for EXPLAIN). */
export function placeRegistrationsStatement(positions: readonly number[], sponsorGenerations: number, limits: RunLimits = RUN_LIMITS): RawBuilder<StatementRow> {
  return sql<StatementRow>`
    with recursive
    scope as materialized (
      select p.ord, e.type, e.data, p.position
      from unnest(${sql.val(positions)}::bigint[]) with ordinality as p(position, ord)
      -- by the index, one event each (its guesses below could make it scan the whole log)
      cross join lateral (select e.type, e.data from events e where e.global_position = p.position and ${batchRange(positions, 'e.global_position')} limit 1) e),
    cut as (select min(ord) as ord from scope where type <> 'MemberRegistered'),
    -- Every event before the cut is a registration (no filter on the type: see above).
    run as materialized (
      select ord, (data->>'member_id')::uuid as member, (data->>'sponsor_id')::uuid as sponsor,
        (data->>'placement_parent_id')::uuid as parent, data->>'placement_leg' as leg, position
      from scope where ord < coalesce((select ord from cut), ${Number.MAX_SAFE_INTEGER})),
    -- Where in the run each member's parent and sponsor registered (null: not in this run).
    links as materialized (
      select r.*, pr.ord as parent_ord, sr.ord as sponsor_ord
      from run r left join run pr on pr.member = r.parent left join run sr on sr.member = r.sponsor),
    place(member, root, path, placed, level) as (
      select l.member, coalesce(n.tree_root_id, l.member), coalesce(n.path || ${legBit(sql`l.leg`)}, B''), n.member_id is not null, 0
      from links l left join lateral (
        select n.member_id, n.tree_root_id, n.path from genealogy_nodes n where n.member_id = l.parent and l.parent_ord is null and l.leg is not null limit 1) n on true
      where l.leg is null or l.parent_ord is null or l.parent_ord >= l.ord
      union all
      select c.member, p.root, p.path || ${legBit(sql`c.leg`)}, true, p.level + 1
      from place p join links c on c.parent = p.member and c.parent_ord < c.ord and c.leg is not null
      where p.level < ${limits.levels}),
    chain(member, chain, depth, level) as (
      select l.member, case when l.sponsor is null then '{}'::uuid[] else (array[l.sponsor] || coalesce(s.sponsor_chain, '{}'))[1:${sponsorGenerations}] end,
        coalesce(s.sponsor_depth + 1, 0), 0
      from links l left join lateral (
        select s.sponsor_chain, s.sponsor_depth from genealogy_nodes s where s.member_id = l.sponsor and l.sponsor_ord is null limit 1) s on true
      where l.sponsor_ord is null or l.sponsor_ord >= l.ord
      union all
      select c.member, (array[c.sponsor] || p.chain)[1:${sponsorGenerations}], p.depth + 1, p.level + 1
      from chain p join links c on c.sponsor = p.member and c.sponsor_ord < c.ord
      where p.level < ${limits.levels}),
    -- Too deep for this statement (see above): it then writes nothing and says so.
    fits as (
      select (select count(*) from place) = (select count(*) from run) and (select count(*) from chain) = (select count(*) from run)
        and (select coalesce(sum(length(path)), 0) from place) <= ${limits.meanDepth} * (select count(*) from run) as ok),
    nodes as (
      insert into genealogy_nodes (member_id, tree_root_id, path, placement_parent_id, placement_leg, sponsor_id, sponsor_chain, sponsor_depth, registered_position)
      select l.member, p.root, p.path, case when p.placed then l.parent end, case when p.placed then l.leg end, l.sponsor, c.chain, c.depth, l.position
      from links l join place p using (member) join chain c using (member)
      where (select ok from fits)),
    -- Each new member once for every ancestor (each proper prefix of its path), on the leg to it.
    legs as (
      select p.root, substring(p.path from 1 for k)::text as prefix,
        count(*) filter (where substring(p.path from k + 1 for 1) = B'0')::int as left_count,
        count(*) filter (where substring(p.path from k + 1 for 1) = B'1')::int as right_count
      from place p cross join lateral generate_series(0, length(p.path) - 1) as k
      where (select ok from fits)
      group by 1, 2),
    directs as (select sponsor, count(*)::int as direct_count from run where sponsor is not null group by sponsor),
    new_counts as (
      insert into genealogy_counts (member_id, downline_count, left_count, right_count, direct_count)
      select p.member, coalesce(g.left_count + g.right_count, 0), coalesce(g.left_count, 0), coalesce(g.right_count, 0), coalesce(d.direct_count, 0)
      from place p left join legs g on g.root = p.root and g.prefix = p.path::text left join directs d on d.sponsor = p.member
      where (select ok from fits)),
    -- The rows there before the run (the new ones are not seen here: one snapshot).
    old_counts as (
      update genealogy_counts c set
        left_count = c.left_count + x.left_count, right_count = c.right_count + x.right_count,
        downline_count = c.downline_count + x.left_count + x.right_count, direct_count = c.direct_count + x.direct_count
      from (
        select member_id, sum(left_count)::int as left_count, sum(right_count)::int as right_count, sum(direct_count)::int as direct_count
        from (
          select n.member_id, g.left_count, g.right_count, 0 as direct_count from legs g cross join lateral (
            select n.member_id from genealogy_nodes n where n.tree_root_id = g.root and n.path = g.prefix::varbit limit 1) n
          union all
          select sponsor, 0, 0, direct_count from directs) d
        group by member_id) x
      where c.member_id = x.member_id and (select ok from fits))
    select (select ok from fits) as fits, s.ord::int as ord, s.type, s.data->>'member_id' as member_id, s.data->>'placement_parent_id' as placement_parent_id, s.data->>'placement_leg' as placement_leg
    from (select 1) one left join scope s on s.ord = (select ord from cut)`;
}

/** paths.ts legBit in SQL: left is 0, any other leg 1. */
const legBit = (leg: RawBuilder<unknown>) => sql`(case when ${leg} = 'left' then B'0' else B'1' end)`;
