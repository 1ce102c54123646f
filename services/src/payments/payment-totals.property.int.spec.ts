import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database';
import { recountedTotals } from '../../test/daily-totals';
import { cutIntoBatches, inRolledBackTransaction, syntheticLog, tableRows } from '../../test/synthetic-events';
import type { RecordedEvent } from '../core/event-store';
import { paymentTotals, projectPackagePayments } from './projections';

/**
 * The admin dashboard's payment totals per Lagos day and purpose (daily_payment_totals) are, after
 * any sequence of payment events over a few payments, applied one at a time or in batches, exactly
 * the approved payments summed by the day each was decided: a payment approved, then not applied
 * or declined, leaves its day; approved again later, it moves to the later day; a receipt approved
 * without an amount paid counts what was due. Recounted from every payment (recountDailyTotals,
 * the loaders' and repairs' path), the table is the same.
 */
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

const recorded = syntheticLog();
const PAYMENTS = 4;
const purposes = ['registration', 'upgrade', 'product_purchase', 'stock_purchase'] as const;
type Step = { type: string; payment: number; n: number; minute: number };
const step: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom('PackagePaymentInitiated', 'PackagePaymentSucceeded', 'PackagePaymentAmountMismatched', 'PackagePaymentApproved', 'PackagePaymentDeclined', 'PackagePaymentNotApplied'),
  payment: fc.integer({ min: 0, max: PAYMENTS - 1 }),
  n: fc.integer({ min: 1, max: 1000 }),
  // Up to ~4 days, so decisions fall on several Lagos days (and on both sides of a Lagos midnight).
  minute: fc.integer({ min: 0, max: 6_000 }),
});

function event(ids: string[], s: Step): RecordedEvent {
  const payment_id = ids[s.payment]!;
  switch (s.type) {
    case 'PackagePaymentInitiated':
      return recorded(s.type, {
        payment_id, member_id: randomUUID(), purpose: purposes[s.n % 4], method: s.n % 2 ? 'pop' : 'payment_gateway', package_id: 1 + (s.n % 6), from_package_id: null,
        amount_due_kobo: 1_000 * s.n, description: 'test', reference: `ref-${payment_id}-${s.n}`, receipt_path: null,
      }, s.minute);
    case 'PackagePaymentSucceeded':
      return recorded(s.type, { payment_id, amount_paid_kobo: 999 * s.n }, s.minute);
    case 'PackagePaymentAmountMismatched':
      return recorded(s.type, { payment_id, amount_paid_kobo: 7 * s.n, amount_due_kobo: 1_000 * s.n, currency: 'NGN' }, s.minute);
    default:
      return recorded(s.type, { payment_id, reason: `because ${s.n}` }, s.minute);
  }
}

async function totalsAfter(apply: (trx: Parameters<Parameters<typeof inRolledBackTransaction>[1]>[0]) => Promise<void>) {
  let result: { days: unknown[]; summed: unknown[]; recounted: unknown[] } = { days: [], summed: [], recounted: [] };
  await inRolledBackTransaction(t.db, async (trx) => {
    await apply(trx);
    result = {
      days: await tableRows(trx, 'select to_jsonb(d) as row from daily_payment_totals d order by day, key'),
      summed: await tableRows(trx, `
        select jsonb_build_object('day', day, 'key', key, 'n', n, 'amount', amount) as row from (
          select (coalesce(decided_at, updated_at) at time zone 'Africa/Lagos')::date as day, purpose as key, count(*) as n, sum(coalesce(amount_paid, amount_due)) as amount
          from package_payments where status = 'approved' group by 1, 2) s order by day, key`),
      // Rewritten from every payment (recountDailyTotals, the loaders' and repairs' path): the same table.
      recounted: await recountedTotals(trx, paymentTotals),
    };
  });
  return result;
}

describe('the daily payment totals', () => {
  it('are the approved payments summed by decision day and purpose, applied event by event or in batches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), async (steps, cuts) => {
        const ids = Array.from({ length: PAYMENTS }, () => randomUUID());
        const log = steps.map((s) => event(ids, s));
        const one = await totalsAfter(async (trx) => {
          for (const e of log) await projectPackagePayments(trx, [e]);
        });
        expect(one.days, 'event by event').toEqual(one.summed);
        expect(one.recounted, 'recounted after event by event').toEqual(one.days);
        const batched = await totalsAfter(async (trx) => {
          for (const batch of cutIntoBatches(log, cuts)) await projectPackagePayments(trx, batch);
        });
        expect(batched.days, 'in batches').toEqual(batched.summed);
        expect(batched.recounted, 'recounted after batches').toEqual(batched.days);
        expect(batched.days).toEqual(one.days);
      }),
      { numRuns: 150 },
    );
  });
});
