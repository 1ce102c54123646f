import { type Kysely, sql } from 'kysely';

/**
 * The back office's members list at 1,000,000 members: searches of one or two characters, and the
 * order by package (issue 13 item 7; docs/decisions.md 75).
 *
 * - `members_prefixes`: GIN over the lowercased first one and two characters of the first name,
 *   last name, username and e-mail. A search of one or two characters has no trigram, so
 *   `members_search` cannot serve it, and it read every member (0.25–7.5 s); it now finds the
 *   members whose name, username or e-mail starts with it (`array[…] @> array[q]`). Built-in
 *   functions only: the grams index tried in decision 58 was a SQL function the planner also
 *   evaluated row by row. The expression must stay character for character the one
 *   `membersPrefixes` in membership/admin-members-routes.ts writes.
 * - `members_by_package` becomes `(package_id, id)`: the list sorted by package walks each
 *   package's members in id order (the list's tiebreak), one package after the other in their
 *   names' order, instead of sorting the tab's members (2.7–4 s). It still serves the search's
 *   package arm (`package_id in (…)`).
 *
 * membership/members-list-indexes.int.spec.ts EXPLAINs the reads that must use them. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index members_prefixes on members using gin ((array[
      lower(left(first_name, 1)), lower(left(first_name, 2)), lower(left(last_name, 1)), lower(left(last_name, 2)),
      lower(left(username, 1)), lower(left(username, 2)), lower(left(email, 1)), lower(left(email, 2))]))`.execute(db);
  await sql`drop index members_by_package`.execute(db);
  await sql`create index members_by_package on members (package_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_by_package`.execute(db);
  await sql`create index members_by_package on members (package_id)`.execute(db);
  await sql`drop index members_prefixes`.execute(db);
}
