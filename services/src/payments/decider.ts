import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type { GatewayTransaction } from '../gateway/paystack';
import type { PackagePaymentEvent, PackagePaymentInitiated, PaymentMethod, PaymentPurpose } from './events';

/**
 * A package payment (BUSINESS-RULES.md §2): a gateway payment is settled by the first confirmation
 * of the provider (verify or webhook); a receipt waits for an admin. Once settled, nothing can
 * settle it again, which is what makes a payment apply exactly once.
 */
export type PaymentStatus = 'initiated' | 'pending' | 'approved' | 'declined' | 'amount_mismatch' | 'not_applied';

export type PaymentState =
  | { status: 'none' }
  | {
      status: PaymentStatus;
      paymentId: string;
      memberId: string;
      purpose: PaymentPurpose;
      method: PaymentMethod;
      packageId: number | null;
      fromPackageId: number | null;
      /** Product purchases: the purchase the payment pays. */
      purchaseId: string | null;
      amountDueKobo: number;
    };

export type PaymentCommand =
  | { type: 'InitiatePayment'; data: PackagePaymentInitiated['data'] }
  | {
      type: 'RecordGatewayResult';
      data: { payment_id: string; via: 'verify' | 'webhook'; transaction: Pick<GatewayTransaction, 'status' | 'amountKobo' | 'currency' | 'paidAt'> };
    }
  | { type: 'RecordWalletPayment'; data: { payment_id: string; paid_at: string } }
  | { type: 'ApprovePayment'; data: { payment_id: string } }
  | { type: 'DeclinePayment'; data: { payment_id: string; reason: string } }
  | { type: 'MarkNotApplied'; data: { payment_id: string; reason: string } };

export const paymentMessages = {
  unknown: 'Payment not found.',
  alreadyStarted: 'This payment has already been started.',
  notGateway: 'This payment was not made through the payment gateway.',
  notWallet: 'This payment was not made from the wallet.',
  declinedCannotApprove: 'This payment was declined; it cannot be approved.',
  approvedCannotDecline: 'This payment has already been approved.',
  notPaidYet: 'This payment has not been completed at the payment provider yet.',
} as const;

/** States in which the money is accepted and applied (or refused) for good. */
const awaitingAdmin: ReadonlySet<PaymentStatus> = new Set(['pending', 'amount_mismatch', 'not_applied']);

export function evolvePayment(state: PaymentState, event: PackagePaymentEvent): PaymentState {
  if (event.type === 'PackagePaymentInitiated') {
    const d = event.data;
    return {
      status: d.method === 'pop' ? 'pending' : 'initiated',
      paymentId: d.payment_id,
      memberId: d.member_id,
      purpose: d.purpose,
      method: d.method,
      packageId: d.package_id,
      fromPackageId: d.from_package_id,
      purchaseId: d.purchase_id ?? null,
      amountDueKobo: d.amount_due_kobo,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PackagePaymentSucceeded':
    case 'PackagePaymentApproved':
      return { ...state, status: 'approved' };
    case 'PackagePaymentAmountMismatched':
      return { ...state, status: 'amount_mismatch' };
    case 'PackagePaymentDeclined':
      return { ...state, status: 'declined' };
    case 'PackagePaymentNotApplied':
      return { ...state, status: 'not_applied' };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

export function decidePayment(command: PaymentCommand, state: PaymentState): PackagePaymentEvent[] {
  if (command.type === 'InitiatePayment') {
    if (state.status !== 'none') throw new RuleViolation(paymentMessages.alreadyStarted);
    return [{ type: 'PackagePaymentInitiated', data: command.data }];
  }
  if (state.status === 'none') throw new RuleViolation(paymentMessages.unknown);
  const payment_id = state.paymentId;
  switch (command.type) {
    case 'RecordGatewayResult': {
      if (state.method !== 'payment_gateway') throw new RuleViolation(paymentMessages.notGateway);
      // Settled already (by the other of verify and webhook, or by an admin): nothing more happens.
      if (state.status !== 'initiated') return [];
      const { transaction, via } = command.data;
      // Abandoned, ongoing, pending: the member may still pay on the provider's page.
      if (transaction.status !== 'success') return [];
      if (transaction.currency !== 'NGN' || transaction.amountKobo !== state.amountDueKobo) {
        return [{ type: 'PackagePaymentAmountMismatched', data: { payment_id, amount_due_kobo: state.amountDueKobo, amount_paid_kobo: transaction.amountKobo, currency: transaction.currency, via } }];
      }
      return [{ type: 'PackagePaymentSucceeded', data: { payment_id, amount_paid_kobo: transaction.amountKobo, via, paid_at: transaction.paidAt } }];
    }
    case 'RecordWalletPayment':
      if (state.method !== 'wallet') throw new RuleViolation(paymentMessages.notWallet);
      if (state.status !== 'initiated') return [];
      return [{ type: 'PackagePaymentSucceeded', data: { payment_id, amount_paid_kobo: state.amountDueKobo, via: 'wallet', paid_at: command.data.paid_at } }];
    case 'ApprovePayment':
      if (state.status === 'approved') return [];
      if (state.status === 'declined') throw new RuleViolation(paymentMessages.declinedCannotApprove);
      if (!awaitingAdmin.has(state.status)) throw new RuleViolation(paymentMessages.notPaidYet);
      return [{ type: 'PackagePaymentApproved', data: { payment_id } }];
    case 'DeclinePayment':
      if (state.status === 'declined') return [];
      if (state.status === 'approved') throw new RuleViolation(paymentMessages.approvedCannotDecline);
      if (!awaitingAdmin.has(state.status)) throw new RuleViolation(paymentMessages.notPaidYet);
      return [{ type: 'PackagePaymentDeclined', data: { payment_id, reason: command.data.reason } }];
    case 'MarkNotApplied':
      return state.status === 'approved' ? [{ type: 'PackagePaymentNotApplied', data: { payment_id, reason: command.data.reason } }] : [];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const paymentDecider: Decider<PaymentState, PaymentCommand, PackagePaymentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolvePayment,
  decide: decidePayment,
};

/** The amount due (BUSINESS-RULES.md §2): the package's registration value, or the difference for an upgrade. */
export function amountDue(purpose: PaymentPurpose, target: { registrationValueKobo: number }, current?: { registrationValueKobo: number }): number {
  if (purpose === 'registration') return target.registrationValueKobo;
  return target.registrationValueKobo - (current?.registrationValueKobo ?? 0);
}
