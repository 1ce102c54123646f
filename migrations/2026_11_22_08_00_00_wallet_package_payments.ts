import { type Kysely, sql } from 'kysely';

/** Packages paid from the wallet (PATCH /withdrawals/pay-with-wallet) are package payments too. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table package_payments drop constraint package_payments_method_check`.execute(db);
  await sql`alter table package_payments add constraint package_payments_method_check check (method in ('payment_gateway', 'pop', 'wallet'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table package_payments drop constraint package_payments_method_check`.execute(db);
  await sql`alter table package_payments add constraint package_payments_method_check check (method in ('payment_gateway', 'pop'))`.execute(db);
}
