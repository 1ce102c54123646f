import { type Kysely, sql } from 'kysely';

/**
 * The rank a member holds lives in member_points alone (issue 13 item 5; docs/decisions.md 86).
 *
 * - `members.rank_id` was a copy of `member_points.rank_id`, written in the same statement that
 *   credits a rank cascade: a second 10,000-row update (~33 ms of a ~115 ms statement, decision 84).
 *   Its readers (sign-in, the profile, the genealogy, the members lists) now join member_points by
 *   its primary key; nothing indexed the copy.
 * - `member_points_by_rank` made every rank change a non-HOT update of member_points (a new row
 *   version elsewhere and two index entries a row, ~16–20 ms of a cascade). Its only readers were
 *   the two "every global-profit-eligible member" queries: a share's run (which reads hundreds of
 *   thousands of rows anyway) and the admin dashboard's count, which now read member_points whole.
 *
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists member_points_by_rank`.execute(db);
  await sql`alter table members drop column rank_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table members add column rank_id integer`.execute(db);
  await sql`update members m set rank_id = p.rank_id from member_points p where p.member_id = m.id and p.rank_id is not null`.execute(db);
  await sql`create index member_points_by_rank on member_points (rank_id) where rank_id is not null`.execute(db);
}
