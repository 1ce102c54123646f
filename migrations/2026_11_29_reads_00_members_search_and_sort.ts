import { type Kysely, sql } from 'kysely';

/**
 * The back office's members list at 1,000,000 members, searched and sorted by username (issue 13
 * item 7; services/bench/reads.bench.ts). Its search (`q`: first name, last name, full name,
 * username, e-mail, package name; membership/admin-members-routes.ts) was six `ilike '%…%'`, a
 * scan of every member (7 s at 1,000,000); sorting by username sorted the tab's members.
 *
 * - `members_search`: a trigram index (pg_trgm, GIN) on one text holding what the search matches
 *   on the member's row: "first last", username and e-mail, separated by U+001F. The api refuses
 *   C0 control characters in a filter (api/input-guard.ts), so a searched text never holds the
 *   separator and matches the whole text exactly when it matches one of its parts. One index
 *   instead of five: a registration maintains one GIN entry set, and the search is one bitmap scan.
 *   The expression must stay character for character the one `membersSearchText` writes.
 * - `members_by_package`: the package-name match is the member's package id among the packages
 *   whose name matches (a handful of rows), so it joins the bitmap above as a second arm.
 * - `members_by_username`: username order, ties by id (the list's tiebreak), both directions.
 * - `members_by_status_newest` and `members_by_stockist_newest` again, now carrying the columns
 *   their key expressions are computed from (INCLUDE): PostgreSQL scans an expression index
 *   index-only only when every column the query names is in the index, and the tab's filter names
 *   `is_stockist` (or `activated_at`, `deactivated`). Without them the stockists tab's capped count
 *   visited a heap page per stockist (10,000 pages at 1,000,000 members, ~0.1 s); now ~2 ms.
 *
 * pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the migration works on a
 * fresh database without a superuser. membership/members-list-indexes.int.spec.ts EXPLAINs the
 * reads that must use these indexes. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index members_search on members using gin ((first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email) gin_trgm_ops)`.execute(db);
  await sql`create index members_by_package on members (package_id)`.execute(db);
  await sql`create index members_by_username on members (username, id)`.execute(db);
  await sql`drop index members_by_status_newest`.execute(db);
  await sql`create index members_by_status_newest on members (((activated_at is not null and not deactivated)::text), created_at desc, id) include (activated_at, deactivated)`.execute(db);
  await sql`drop index members_by_stockist_newest`.execute(db);
  await sql`create index members_by_stockist_newest on members ((is_stockist::text), created_at desc, id) include (is_stockist)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_by_stockist_newest`.execute(db);
  await sql`create index members_by_stockist_newest on members ((is_stockist::text), created_at desc, id)`.execute(db);
  await sql`drop index members_by_status_newest`.execute(db);
  await sql`create index members_by_status_newest on members (((activated_at is not null and not deactivated)::text), created_at desc, id)`.execute(db);
  await sql`drop index members_by_username`.execute(db);
  await sql`drop index members_by_package`.execute(db);
  await sql`drop index members_search`.execute(db);
}
