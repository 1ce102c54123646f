import { type Kysely, sql } from 'kysely';

/**
 * `package_payments.purchase_id` was never written by the payments projection although every
 * product purchase's PackagePaymentInitiated names it: fill the rows recorded before the fix from
 * their events (a rebuild of the read model gives the same).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update package_payments pp set purchase_id = (e.data->>'purchase_id')::uuid
    from events e
    where pp.purchase_id is null and pp.purpose = 'product_purchase'
      and e.stream_id = 'package-payment-' || pp.id and e.type = 'PackagePaymentInitiated'
      and e.data->>'purchase_id' is not null`.execute(db);
}

export async function down(): Promise<void> {}
