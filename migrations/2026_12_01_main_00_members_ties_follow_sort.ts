import { type Kysely, sql } from 'kysely';

/**
 * The members list breaks ties by id in the sort's own direction (docs/decisions.md 60): a
 * descending sort reads its (key, id) index backward instead of adding an incremental sort over
 * each run of equal keys (160–440 ms for "active, by full name descending" at 1,000,000 members).
 * The newest-first indexes held `created_at desc, id` (ties ascending) and become
 * `created_at desc, id desc`, so newest first reads them forward and oldest first backward.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index members_newest`.execute(db);
  await sql`create index members_newest on members (created_at desc, id desc)`.execute(db);
  await sql`drop index members_by_status_newest`.execute(db);
  await sql`create index members_by_status_newest on members (((activated_at is not null and not deactivated)::text), created_at desc, id desc) include (activated_at, deactivated)`.execute(db);
  await sql`drop index members_by_stockist_newest`.execute(db);
  await sql`create index members_by_stockist_newest on members ((is_stockist::text), created_at desc, id desc) include (is_stockist)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index members_by_stockist_newest`.execute(db);
  await sql`create index members_by_stockist_newest on members ((is_stockist::text), created_at desc, id) include (is_stockist)`.execute(db);
  await sql`drop index members_by_status_newest`.execute(db);
  await sql`create index members_by_status_newest on members (((activated_at is not null and not deactivated)::text), created_at desc, id) include (activated_at, deactivated)`.execute(db);
  await sql`drop index members_newest`.execute(db);
  await sql`create index members_newest on members (created_at desc, id)`.execute(db);
}
