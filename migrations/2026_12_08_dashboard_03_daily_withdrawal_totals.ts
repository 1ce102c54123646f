import { type Kysely, sql } from 'kysely';

/**
 * Successful withdrawals per company day (Lagos), kept by the withdrawals read model with each
 * transfer's success or failure (wallet/projections.ts withdrawalTotals; docs/decisions.md 88): the
 * admin dashboard's company wallet summed every successful withdrawal on each call.
 *
 * Filled here from the rows already written, under a lock that makes a command writing them wait.
 *
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table daily_withdrawal_totals (
      day date not null,
      key text not null,
      n bigint not null,
      amount bigint not null,
      primary key (day, key)
    )`.execute(db);
  await sql`lock table withdrawals in share mode`.execute(db);
  await sql`
    insert into daily_withdrawal_totals (day, key, n, amount)
    select (coalesce(completed_at, updated_at) at time zone 'Africa/Lagos')::date, 'successful', count(*), sum(amount)
    from withdrawals where status = 'successful'
    group by 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table daily_withdrawal_totals`.execute(db);
}
