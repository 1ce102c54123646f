import { describe, expect, it } from 'vitest';
import { type PaymentCommand, amountDue, decidePayment, evolvePayment } from './decider';
import type { PackagePaymentEvent, PackagePaymentInitiated } from './events';

const given = (past: PackagePaymentEvent[]) => ({
  when: (command: PaymentCommand) => {
    const state = past.reduce(evolvePayment, { status: 'none' } as ReturnType<typeof evolvePayment>);
    return {
      then: (expected: PackagePaymentEvent[]) => expect(decidePayment(command, state)).toEqual(expected),
      thenThrows: (message: RegExp) => expect(() => decidePayment(command, state)).toThrow(message),
    };
  },
});

const card: PackagePaymentInitiated['data'] = {
  payment_id: 'p1', member_id: 'm1', purpose: 'registration', method: 'payment_gateway', package_id: 2, from_package_id: null,
  amount_due_kobo: 3_500_000, description: 'Bronze registration', reference: 'hlp-p1', receipt_path: null,
};
const cardStarted: PackagePaymentEvent = { type: 'PackagePaymentInitiated', data: card };
const receiptStarted: PackagePaymentEvent = { type: 'PackagePaymentInitiated', data: { ...card, method: 'pop', reference: null, receipt_path: 'storage/receipts/r.png' } };
const paid = (amountKobo: number, via: 'verify' | 'webhook' = 'verify', status: 'success' | 'abandoned' = 'success', currency = 'NGN'): PaymentCommand => ({
  type: 'RecordGatewayResult',
  data: { payment_id: 'p1', via, transaction: { status, amountKobo, currency, paidAt: '2026-11-22T10:00:00.000Z' } },
});
const succeeded: PackagePaymentEvent = { type: 'PackagePaymentSucceeded', data: { payment_id: 'p1', amount_paid_kobo: 3_500_000, via: 'verify', paid_at: '2026-11-22T10:00:00.000Z' } };

describe('gateway payments settle once (BUSINESS-RULES.md §2)', () => {
  it('succeeds when the provider confirms exactly the amount due (₦35,000 = 3,500,000 kobo)', () => {
    given([cardStarted]).when(paid(3_500_000)).then([succeeded]);
  });
  it('records nothing when the webhook arrives after the client already verified (or the other way round)', () => {
    given([cardStarted, succeeded]).when(paid(3_500_000, 'webhook')).then([]);
  });
  it('does not apply another amount: ₦34,999 paid for ₦35,000 due is flagged for admins', () => {
    given([cardStarted]).when(paid(3_499_900)).then([
      { type: 'PackagePaymentAmountMismatched', data: { payment_id: 'p1', amount_due_kobo: 3_500_000, amount_paid_kobo: 3_499_900, currency: 'NGN', via: 'verify' } },
    ]);
  });
  it('flags a payment in another currency even when the number matches', () => {
    given([cardStarted]).when(paid(3_500_000, 'verify', 'success', 'USD')).then([
      { type: 'PackagePaymentAmountMismatched', data: { payment_id: 'p1', amount_due_kobo: 3_500_000, amount_paid_kobo: 3_500_000, currency: 'USD', via: 'verify' } },
    ]);
  });
  it('waits while the member has not paid yet (abandoned is the provider status of an unpaid checkout)', () => {
    given([cardStarted]).when(paid(3_500_000, 'verify', 'abandoned')).then([]);
  });
  it('refuses a gateway result for a receipt upload', () => {
    given([receiptStarted]).when(paid(3_500_000)).thenThrows(/not made through the payment gateway/);
  });
});

describe('admin approval of receipts and flagged payments', () => {
  const approve: PaymentCommand = { type: 'ApprovePayment', data: { payment_id: 'p1' } };
  const decline: PaymentCommand = { type: 'DeclinePayment', data: { payment_id: 'p1', reason: 'Receipt unreadable' } };
  const approved: PackagePaymentEvent = { type: 'PackagePaymentApproved', data: { payment_id: 'p1' } };
  const declined: PackagePaymentEvent = { type: 'PackagePaymentDeclined', data: { payment_id: 'p1', reason: 'Receipt unreadable' } };

  it('approves a pending receipt once; approving again records nothing', () => {
    given([receiptStarted]).when(approve).then([approved]);
    given([receiptStarted, approved]).when(approve).then([]);
  });
  it('declines a pending receipt; an approved one cannot be declined, a declined one cannot be approved', () => {
    given([receiptStarted]).when(decline).then([declined]);
    given([receiptStarted, approved]).when(decline).thenThrows(/already been approved/);
    given([receiptStarted, declined]).when(approve).thenThrows(/was declined/);
  });
  it('lets an admin approve a flagged payment, but not a checkout nobody has paid', () => {
    const mismatch: PackagePaymentEvent = { type: 'PackagePaymentAmountMismatched', data: { payment_id: 'p1', amount_due_kobo: 3_500_000, amount_paid_kobo: 3_000_000, currency: 'NGN', via: 'webhook' } };
    given([cardStarted, mismatch]).when(approve).then([approved]);
    given([cardStarted]).when(approve).thenThrows(/not been completed/);
  });
  it('marks an approved payment not applied with its reason, for admins to see', () => {
    given([receiptStarted, approved]).when({ type: 'MarkNotApplied', data: { payment_id: 'p1', reason: 'already active' } }).then([
      { type: 'PackagePaymentNotApplied', data: { payment_id: 'p1', reason: 'already active' } },
    ]);
  });
});

describe('amount due', () => {
  it('is the registration value, or for an upgrade Bronze ₦35,000 → Gold ₦140,000 the difference ₦105,000', () => {
    expect(amountDue('registration', { registrationValueKobo: 3_500_000 })).toBe(3_500_000);
    expect(amountDue('upgrade', { registrationValueKobo: 14_000_000 }, { registrationValueKobo: 3_500_000 })).toBe(10_500_000);
  });
});
