import { type Kysely, sql } from 'kysely';

/**
 * The back office's periodic runs (issue 14 item 5): a global profit share's or profit pool's
 * totals are the wallet lines it caused, found by their cause event. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index wallet_entries_by_periodic_cause on wallet_entries (cause_event_id) where kind in ('global_profit', 'profit_pool')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists wallet_entries_by_periodic_cause`.execute(db);
}
