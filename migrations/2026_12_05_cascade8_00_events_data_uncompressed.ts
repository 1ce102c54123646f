import { type Kysely, sql } from 'kysely';

/**
 * `events.data` stored out of line without compression (docs/decisions.md 80): a value over
 * TOAST's ~2 KB threshold (a rank cascade's ~0.48 MB RanksAchieved, a matching cycle's ~200 KB
 * outcomes) is no longer pglz-compressed inside the appending statement (~25–30 ms of a cascade's
 * insert at load ~11), at ~1.75× its size on disk and in the WAL. Events under the threshold (nearly
 * all) are stored as before. Applies to rows written from now on; rows already stored keep their
 * compression. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events alter column data set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table events alter column data set storage extended`.execute(db);
}
