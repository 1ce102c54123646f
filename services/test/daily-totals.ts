import { type Transaction, sql } from 'kysely';
import { type DailyTotals, recountDailyTotals } from '../src/core/daily-totals';
import type { Database } from '../src/database';
import { tableRows } from './synthetic-events';

/**
 * The totals table's rows (jsonb, by day and key) after recountDailyTotals (loaders', repairs' path)
 * rewrote it from every read row, the table damaged first (every count and amount off, a day and key
 * no row counts), so a recount that left the table as it was could not pass for one.
 */
export async function recountedTotals(trx: Transaction<Database>, totals: DailyTotals): Promise<unknown[]> {
  await sql`update ${sql.table(totals.table)} set n = n + 1, amount = amount - 1`.execute(trx);
  await sql`insert into ${sql.table(totals.table)} (day, key, n, amount) values ('1999-12-31', 'stale', 1, 1)`.execute(trx);
  await recountDailyTotals(trx, totals);
  return tableRows(trx, `select to_jsonb(d) as row from ${totals.table} d order by day, key`);
}
