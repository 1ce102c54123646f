import { type Updateable, sql } from 'kysely';
import { type DailyTotals, amongKeys, keepingDailyTotalsOf } from '../core/daily-totals';
import type { Executor } from '../core/db';
import type { PackagePaymentsTable } from '../database';
import type { RecordedEvent } from '../core/event-store';
import { type PackagePaymentEvent, packagePaymentEventTypes } from './events';

/**
 * What the admin dashboard sums of the payments (its pick-ups and company wallet): an approved
 * payment, by purpose, on the Lagos day it was decided, for what was paid (a receipt approved: what was due).
 */
export const paymentTotals: DailyTotals = {
  table: 'daily_payment_totals',
  contributions: (keys) => sql`
    select (coalesce(decided_at, updated_at) at time zone 'Africa/Lagos')::date as day, purpose as key, coalesce(amount_paid, amount_due) as amount
    from package_payments where ${amongKeys('id', keys)} and status = 'approved'`,
  changedBy: { eventTypes: packagePaymentEventTypes, keyField: 'payment_id' },
};

/** Inline projection: the package_payments table (and its daily totals) change with the payment's events. */
export async function projectPackagePayments(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  if (events.length === 0) return;
  await keepingDailyTotalsOf(db, paymentTotals, events, () => writePackagePayments(db, events));
}

async function writePackagePayments(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<PackagePaymentEvent>;
    const at = new Date(recorded.recordedAt);
    const actor = recorded.metadata.actor;
    const decidedBy = actor.type === 'admin' ? actor.id : null;
    const update = (values: Updateable<PackagePaymentsTable>) =>
      db.updateTable('package_payments').set(values).where('id', '=', event.data.payment_id).execute();
    switch (event.type) {
      case 'PackagePaymentInitiated': {
        const d = event.data;
        await db
          .insertInto('package_payments')
          .values({
            id: d.payment_id,
            member_id: d.member_id,
            purpose: d.purpose,
            method: d.method,
            package_id: d.package_id,
            purchase_id: d.purchase_id ?? null,
            from_package_id: d.from_package_id,
            amount_due: d.amount_due_kobo,
            reference: d.reference,
            receipt_path: d.receipt_path,
            description: d.description,
            status: d.method === 'pop' ? 'pending' : 'initiated',
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'PackagePaymentSucceeded':
        await update({ status: 'approved', amount_paid: event.data.amount_paid_kobo, status_reason: null, decided_at: at, updated_at: at });
        break;
      case 'PackagePaymentAmountMismatched':
        await update({ status: 'amount_mismatch', amount_paid: event.data.amount_paid_kobo, status_reason: `Paid ${event.data.amount_paid_kobo} kobo (${event.data.currency}) for ${event.data.amount_due_kobo} kobo due`, updated_at: at });
        break;
      case 'PackagePaymentApproved':
        await update({ status: 'approved', decided_by: decidedBy, decided_at: at, updated_at: at });
        break;
      case 'PackagePaymentDeclined':
        await update({ status: 'declined', status_reason: event.data.reason, decided_by: decidedBy, decided_at: at, updated_at: at });
        break;
      case 'PackagePaymentNotApplied':
        await update({ status: 'not_applied', status_reason: event.data.reason, updated_at: at });
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}
