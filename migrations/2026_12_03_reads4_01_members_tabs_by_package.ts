import { type Kysely, sql } from 'kysely';

/**
 * The members list's tabs sorted by package (docs/decisions.md 75): each package's arm walks its
 * members in id order and stops at the page. On a tab, walking `members_by_package` and checking
 * each member's tab reads the package's members until the page is full: all of them when the tab
 * has none in that package (the bench's stockists are on three packages of six: ~1 s a page at
 * 1,000,000 members). These put the tab's key first, `(tab key, package_id, id)`, the tab's
 * expression character for character the one `admin-members-routes.ts` filters by, so an arm
 * reads only the tab's members of its package. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index members_by_status_package on members (((activated_at is not null and not deactivated)::text), package_id, id)`.execute(db);
  await sql`create index members_by_stockist_package on members ((is_stockist::text), package_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_by_stockist_package`.execute(db);
  await sql`drop index members_by_status_package`.execute(db);
}
