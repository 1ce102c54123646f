import { type Kysely, sql } from 'kysely';

/**
 * Genealogy read tables, owned by the `genealogy` projection (services/src/genealogy/, design and
 * measurements in docs/genealogy.md). Rebuildable from the log: nothing here is written elsewhere.
 *
 * genealogy_nodes: one row per member, the shape of both trees. A member's place in the binary
 *   placement tree is a bit string from the top of its tree (0 = left, 1 = right): one bit per
 *   level, so a member 10,000 levels down carries 1.25 kB, and the btree on (tree_root_id, path)
 *   lists a whole downline, in pre-order, as one index range. The sponsor chain keeps only the
 *   ten generations the plan pays (BUSINESS-RULES.md §3), so it never grows with depth.
 * genealogy_counts: the counters every screen shows, kept apart so that the one update per batch
 *   that adds a batch's new members to all their ancestors rewrites narrow rows (HOT updates,
 *   hence the fillfactor), not the wide ones holding paths.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table genealogy_nodes (
      member_id uuid primary key,
      -- The top of the placement tree holding the member: the company root, or a member whose
      -- registration expired (its slot is freed and its own downline stays under it, detached).
      tree_root_id uuid not null,
      path bit varying not null,
      depth integer generated always as (length(path)) stored,
      placement_parent_id uuid,
      placement_leg text check (placement_leg in ('left', 'right')),
      sponsor_id uuid,
      -- Generation 1 (the sponsor) to 10, nearest first.
      sponsor_chain uuid[] not null,
      sponsor_depth integer not null,
      -- The registration's place in the log: direct downlines are listed in the order they joined.
      registered_position bigint not null
    )`.execute(db);
  await sql`create unique index genealogy_nodes_path on genealogy_nodes (tree_root_id, path)`.execute(db);
  await sql`create index genealogy_nodes_placement_parent on genealogy_nodes (placement_parent_id, placement_leg)`.execute(db);
  await sql`create index genealogy_nodes_sponsor on genealogy_nodes (sponsor_id, registered_position)`.execute(db);

  await sql`
    create table genealogy_counts (
      member_id uuid primary key,
      -- Every member below in the placement tree, and how many of them are in each leg.
      downline_count integer not null default 0,
      left_count integer not null default 0,
      right_count integer not null default 0,
      -- Members this member sponsored (direct downlines).
      direct_count integer not null default 0
    ) with (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists genealogy_counts`.execute(db);
  await sql`drop table if exists genealogy_nodes`.execute(db);
}
