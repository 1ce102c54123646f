import { type Kysely, sql } from 'kysely';

/**
 * The back office's members list at 1,000,000 members, sorted by name, e-mail, phone or status (issue
 * 13 item 7; services/bench/reads.bench.ts, docs/decisions.md 58).
 *
 * - `members_by_full_name`, `members_by_email`, `members_by_phone`, `members_by_status`: the list's
 *   order for those sort fields (the expression or column, then id, the list's tiebreak), read
 *   forward or backward, so a page walks the index and stops instead of sorting the tab's members.
 *   `full_name` and `status` are the expressions `admin-members-routes.ts` sorts by, character for
 *   character.
 *
 * membership/members-list-indexes.int.spec.ts EXPLAINs the reads that must use these indexes.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index members_by_full_name on members ((first_name || ' ' || last_name), id)`.execute(db);
  await sql`create index members_by_email on members (email, id)`.execute(db);
  await sql`create index members_by_phone on members (phone, id)`.execute(db);
  await sql`create index members_by_status on members (((activated_at is not null and not deactivated)::text), id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_by_status`.execute(db);
  await sql`drop index members_by_phone`.execute(db);
  await sql`drop index members_by_email`.execute(db);
  await sql`drop index members_by_full_name`.execute(db);
}
