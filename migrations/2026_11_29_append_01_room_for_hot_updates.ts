import { type Kysely, sql } from 'kysely';

/**
 * Room on each page for the rows the points policy rewrites up a whole placement path (issue 13
 * item 5; docs/points.md "Rank cascades", "What a deep activation costs"). Every PV event rewrites
 * the member_points row of every placement ancestor (CPV, leg volume), and a rank cascade then
 * rewrites their rank in member_points and on their members row. An update PostgreSQL can keep on
 * the same page (HOT: no indexed column changed, and room on the page) writes no index entry; one
 * that cannot writes a new entry in every index (members has nine). With pages filled to the brim
 * (fillfactor 100, the default) a path's rows, written together, leave no room, so each rewrite
 * of a 10,000-ancestor path wrote ~10 WAL records a row on members and ~5 on member_points.
 *
 * member_points (96 B a row, the most rewritten table) keeps half of each page free; members
 * (~240 B a row, rewritten only when a rank or a detail changes) keeps 30 %. The setting applies to
 * pages written from now on; existing pages gain it as their rows move (or by VACUUM FULL).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table member_points set (fillfactor = 50)`.execute(db);
  await sql`alter table members set (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table member_points reset (fillfactor)`.execute(db);
  await sql`alter table members reset (fillfactor)`.execute(db);
}
