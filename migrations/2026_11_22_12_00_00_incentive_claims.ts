import { type Kysely, sql } from 'kysely';

/**
 * Incentive claims (BUSINESS-RULES.md §3 "Ranks and incentives"), projected inline from the
 * `incentive-claim-<id>` streams so the member's dashboard and the admins' requests show a claim
 * at once. The rank and incentive are as they were when claimed; money in kobo.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table incentive_claims (
      id uuid primary key,
      member_id uuid not null,
      rank_id integer not null,
      rank_name text not null,
      incentive_id integer not null,
      incentive text not null,
      worth bigint not null check (worth >= 0),
      points bigint not null,
      cpv bigint not null default 0,
      status text not null check (status in ('processing', 'approved', 'declined')),
      decline_reason text,
      decided_by uuid,
      decided_at timestamptz,
      created_at timestamptz not null,
      -- The IncentiveClaimed event's global position: "newest first" even for claims made in the same instant.
      claimed_position bigint not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index incentive_claims_by_member on incentive_claims (member_id, created_at desc)`.execute(db);
  await sql`create index incentive_claims_by_status on incentive_claims (status, created_at desc)`.execute(db);
  // The rule "once per incentive" (enforced by the command's unique key) stated once more where it cannot be bypassed.
  await sql`create unique index incentive_claims_once on incentive_claims (member_id, incentive_id) where status in ('processing', 'approved')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists incentive_claims`.execute(db);
}
