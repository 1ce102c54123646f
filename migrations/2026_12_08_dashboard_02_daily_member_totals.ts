import { type Kysely, sql } from 'kysely';

/**
 * The admin dashboard's member figures per company day (Lagos), kept by the members read model with
 * each registration, activation and upgrade (membership/member-totals.ts; docs/decisions.md 88):
 * key `registered` (members but the root, by registration day), `active` (activated and not
 * deactivated, by activation day), `pv` (every member's registration PV, by registration day).
 * The dashboard counted and summed the whole members table on each call.
 *
 * Filled here from the rows already written, under a lock that makes a command writing them wait.
 *
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table daily_member_totals (
      day date not null,
      key text not null,
      n bigint not null,
      amount bigint not null,
      primary key (day, key)
    )`.execute(db);
  await sql`lock table members in share mode`.execute(db);
  await sql`
    insert into daily_member_totals (day, key, n, amount)
    select (case k.key when 'active' then m.activated_at else m.created_at end at time zone 'Africa/Lagos')::date, k.key, count(*),
      sum(case k.key when 'pv' then m.personal_pv else 0 end)
    from members m cross join (values ('registered'), ('active'), ('pv')) as k(key)
    where case k.key when 'registered' then not m.is_root when 'active' then m.activated_at is not null and not m.deactivated else true end
    group by 1, 2`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table daily_member_totals`.execute(db);
}
