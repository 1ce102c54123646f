import { type Kysely, sql } from 'kysely';

/**
 * The back office's members list at 1,000,000 members (issue 13 item 7; services/bench/reads.bench.ts):
 * newest first, on each tab. Without them every page sorted the whole table (a sequential scan and
 * a top-N sort, ~0.3 s at 20,000 members under load). The expressions are the ones the list's
 * filters compile to (membership/admin-members-routes.ts: `status` and `is_stockist` compare as
 * text), so a tab's page and its capped count read the index in order and stop early;
 * membership/members-list-indexes.int.spec.ts EXPLAINs them so a change to either side shows.
 *
 * And the dashboard's bonus totals (compensation/queries.ts bonusStats: a member's credited lines
 * summed per kind) read from the index alone: the amount rides in it, so a member with thousands
 * of lines costs no heap visits. It replaces wallet_entries_by_member_kind (same keys and
 * predicate), so the ledger's writes maintain no more indexes than before.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index members_newest on members (created_at desc, id)`.execute(db);
  await sql`create index members_by_status_newest on members (((activated_at is not null and not deactivated)::text), created_at desc, id)`.execute(db);
  await sql`create index members_by_stockist_newest on members ((is_stockist::text), created_at desc, id)`.execute(db);
  await sql`create index wallet_entries_credited_totals on wallet_entries (member_id, kind) include (amount) where entry = 'credited'`.execute(db);
  await sql`drop index wallet_entries_by_member_kind`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index wallet_entries_by_member_kind on wallet_entries (member_id, kind) where entry = 'credited'`.execute(db);
  await sql`drop index wallet_entries_credited_totals`.execute(db);
  await sql`drop index members_by_stockist_newest`.execute(db);
  await sql`drop index members_by_status_newest`.execute(db);
  await sql`drop index members_newest`.execute(db);
}
