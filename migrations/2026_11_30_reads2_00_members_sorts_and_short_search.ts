import { type Kysely, sql } from 'kysely';

/**
 * The back office's members list at 1,000,000 members, sorted by name, e-mail or phone, and searched
 * for one or two characters (issue 13 item 7; services/bench/reads.bench.ts, docs/decisions.md 58).
 *
 * - `members_by_full_name`, `members_by_email`, `members_by_phone`, `members_by_status`: the list's
 *   order for those sort fields (the expression or column, then id, the list's tiebreak), read
 *   forward or backward, so a page walks the index and stops instead of sorting the tab's members.
 *   `full_name` and `status` are the expressions `admin-members-routes.ts` sorts by, character for
 *   character.
 * - `members_search_grams`: a GIN index over the set of single characters and character pairs of
 *   the lowercased search text (the text `members_search` indexes). A search of one or two
 *   characters has no trigram, so `members_search` cannot narrow it (PostgreSQL reads the whole
 *   GIN index, or every member). In a UTF-8 database ILIKE lowercases both sides with lower() and
 *   compares character by character, so a text matches `%xy%` exactly when its lowercased pairs
 *   hold lower('xy'): the index answers the search by itself (no ILIKE on the rows).
 * - `members_search`'s expression keeps 1,000 histogram entries instead of 100: the list answers
 *   the planner's estimate instead of counting when it is far past the count cap
 *   (api/simple-rest.ts `selectPage`), and a substring search's estimate is the share of histogram
 *   entries it matches: ten times as many make a 1 % word's estimate close to 1 %.
 *
 * membership/members-list-indexes.int.spec.ts EXPLAINs the reads that must use these indexes.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index members_by_full_name on members ((first_name || ' ' || last_name), id)`.execute(db);
  await sql`create index members_by_email on members (email, id)`.execute(db);
  await sql`create index members_by_phone on members (phone, id)`.execute(db);
  await sql`create index members_by_status on members (((activated_at is not null and not deactivated)::text), id)`.execute(db);
  // Every character and every pair of neighbours (the last character's "pair" is itself).
  await sql`
    create function member_search_grams(t text) returns text[] language sql immutable strict parallel safe as $$
      select coalesce(array_agg(distinct g), '{}') from (select lower(t) as l) x
      cross join generate_series(1, length(x.l)) i
      cross join lateral (values (substr(x.l, i, 1)), (substr(x.l, i, 2))) v(g)
    $$`.execute(db);
  await sql`create index members_search_grams on members using gin (member_search_grams(first_name || ' ' || last_name || E'\\x1f' || username || E'\\x1f' || email))`.execute(db);
  await sql`alter index members_search alter column 1 set statistics 1000`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter index members_search alter column 1 set statistics -1`.execute(db);
  await sql`drop index members_search_grams`.execute(db);
  await sql`drop function member_search_grams(text)`.execute(db);
  await sql`drop index members_by_status`.execute(db);
  await sql`drop index members_by_phone`.execute(db);
  await sql`drop index members_by_email`.execute(db);
  await sql`drop index members_by_full_name`.execute(db);
}
