import { type Kysely, sql } from 'kysely';

/**
 * Approved package payments and paid repurchase orders per company day (Lagos), kept by their read
 * models with each write (core/daily-totals.ts; docs/decisions.md 88). The admin dashboard's pick-up
 * figures and company wallet summed every approved payment and paid order on each call; they now
 * sum a row per day.
 *
 * - daily_payment_totals: key = the payment's purpose; a payment counts once approved, on the day
 *   it was decided (or last changed), for what was paid (or, approved on a receipt, what was due).
 * - daily_repurchase_totals: key = 'repurchase'; a repurchase pick-up order counts once paid and
 *   while not declined, on the day it was paid, for its total price.
 *
 * Filled here from the rows already written, under locks that make a command writing them wait.
 *
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['daily_payment_totals', 'daily_repurchase_totals']) {
    await sql`
      create table ${sql.table(table)} (
        day date not null,
        key text not null,
        n bigint not null,
        amount bigint not null,
        primary key (day, key)
      )`.execute(db);
  }
  await sql`lock table package_payments, product_purchases in share mode`.execute(db);
  await sql`
    insert into daily_payment_totals (day, key, n, amount)
    select (coalesce(decided_at, updated_at) at time zone 'Africa/Lagos')::date, purpose, count(*), sum(coalesce(amount_paid, amount_due))
    from package_payments where status = 'approved'
    group by 1, 2`.execute(db);
  await sql`
    insert into daily_repurchase_totals (day, key, n, amount)
    select (paid_at at time zone 'Africa/Lagos')::date, 'repurchase', count(*), sum(total_price)
    from product_purchases where pickup_type = 'repurchase_pickup' and paid_at is not null and status <> 'declined'
    group by 1, 2`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table daily_payment_totals`.execute(db);
  await sql`drop table daily_repurchase_totals`.execute(db);
}
