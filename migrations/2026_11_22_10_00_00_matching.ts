import { type Kysely, sql } from 'kysely';

/**
 * The matching bonus (BUSINESS-RULES.md §3 "Matching", services/src/matching/).
 * - matching_carry: the `matching` policy's own state. Leg volumes in member_points are cumulative
 *   and never decrease; consumed_* is how much of each leg pairs have used so far (paid, capped or
 *   withheld), seen_* the leg volumes read at the member's last matched cycle. What is left to
 *   pair = left_pv − consumed_left; carried = seen_left − consumed_left; new = left_pv − seen_left.
 *   Written in the transaction that records the member's bonus, so both happen once.
 * - matching_cycles: one row per closed cycle (inline with MatchingCycleClosed), with the totals the
 *   policy paid once it ran (paid_at null until then).
 * Dates are Lagos calendar dates; read them as cycle_end::text (node-pg turns a date into a local Date).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table matching_carry (
      member_id uuid primary key,
      consumed_left bigint not null default 0,
      consumed_right bigint not null default 0,
      seen_left bigint not null default 0,
      seen_right bigint not null default 0,
      last_cycle_end date not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table matching_cycles (
      cycle_end date primary key,
      frequency_days integer not null,
      total_pv integer not null,
      percent numeric not null,
      unit_point_value_kobo bigint not null,
      closed_at timestamptz not null,
      paid_at timestamptz,
      members_matched integer not null default 0,
      pairs bigint not null default 0,
      credited_kobo bigint not null default 0,
      withheld_kobo bigint not null default 0
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists matching_cycles, matching_carry`.execute(db);
}
