import { type Kysely, sql } from 'kysely';

/**
 * Credited bonuses per company day (Lagos) and kind, kept by the wallet ledger in the statement that
 * writes their lines (docs/decisions.md 88). The admin dashboard's bonus totals summed every credited
 * line of the period (all time: every line the company ever credited, 10,000,000 at a million members
 * after a year) and now sum at most one row per day and kind.
 *
 * Filled here from the lines already written, under a lock that makes a running ledger wait, so the
 * counts it adds afterwards start from these.
 *
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table daily_bonus_totals (
      day date not null,
      kind text not null,
      credited_kobo bigint not null,
      credited_count bigint not null,
      primary key (day, kind)
    )`.execute(db);
  await sql`lock table wallet_entries in share mode`.execute(db);
  await sql`
    insert into daily_bonus_totals (day, kind, credited_kobo, credited_count)
    select (recorded_at at time zone 'Africa/Lagos')::date, kind, sum(amount), count(*)
    from wallet_entries where entry = 'credited'
    group by 1, 2`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table daily_bonus_totals`.execute(db);
}
