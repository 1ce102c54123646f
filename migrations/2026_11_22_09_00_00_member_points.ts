import { type Kysely, sql } from 'kysely';

/**
 * Points (BUSINESS-RULES.md §3 "PV and CPV", services/src/points/): each member's personal PV, CPV
 * (personal PV plus the personal PV of the whole placement downline), the cumulative volumes of
 * the left and right legs, and the highest rank reached. Maintained by the `points` policy; PV are
 * whole numbers and never decrease, ranks never go down.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table member_points (
      member_id uuid primary key,
      personal_pv bigint not null default 0,
      cpv bigint not null default 0,
      left_pv bigint not null default 0,
      right_pv bigint not null default 0,
      rank_id integer,
      rank_achieved_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db);
  // Global profit and incentives read the members holding a rank (eligible ranks, CPV shares).
  await sql`create index member_points_by_rank on member_points (rank_id) where rank_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists member_points`.execute(db);
}
