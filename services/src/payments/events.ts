import { type DomainEvent, eventTypesOf } from '../core/event-store';

/**
 * A package payment's life, one stream per payment: `package-payment-<uuid>` (BUSINESS-RULES.md §2).
 * Money in kobo. The amount due is fixed when the payment starts, from the packages as they were.
 * A product purchase is paid the same way (purpose `product_purchase`, BUSINESS-RULES.md §5): the
 * amount due is the purchase's total as the server priced it, and the payment names the purchase.
 */
export type PaymentPurpose = 'registration' | 'upgrade' | 'product_purchase' | 'stock_purchase';
export type PaymentMethod = 'payment_gateway' | 'pop' | 'wallet';

export type PackagePaymentInitiated = DomainEvent<
  'PackagePaymentInitiated',
  {
    payment_id: string;
    member_id: string;
    purpose: PaymentPurpose;
    method: PaymentMethod;
    /** The package paid for; null for a product purchase. */
    package_id: number | null;
    /** Upgrades: the package the amount due was priced from. */
    from_package_id: number | null;
    amount_due_kobo: number;
    description: string;
    /** Gateway payments: the reference the provider knows the payment by. */
    reference: string | null;
    /** Proof-of-payment uploads: where the receipt image is stored. */
    receipt_path: string | null;
    /** Product purchases: the purchase (`purchase-<id>`) this payment pays; absent on package payments. */
    purchase_id?: string | null;
  }
>;

/** The amount due was paid: confirmed by the gateway (the client's verify or the webhook, whichever came first) or debited from the wallet. */
export type PackagePaymentSucceeded = DomainEvent<
  'PackagePaymentSucceeded',
  { payment_id: string; amount_paid_kobo: number; via: 'verify' | 'webhook' | 'wallet'; paid_at: string | null }
>;

/** The gateway confirmed a payment of another amount: not applied, shown to admins to decide. */
export type PackagePaymentAmountMismatched = DomainEvent<
  'PackagePaymentAmountMismatched',
  { payment_id: string; amount_due_kobo: number; amount_paid_kobo: number; currency: string; via: 'verify' | 'webhook' }
>;

/** An admin approved a receipt (or a flagged payment after checking it). */
export type PackagePaymentApproved = DomainEvent<'PackagePaymentApproved', { payment_id: string }>;
export type PackagePaymentDeclined = DomainEvent<'PackagePaymentDeclined', { payment_id: string; reason: string }>;

/** Money arrived but could not be applied (already active, expired, package changed): admins see why. */
export type PackagePaymentNotApplied = DomainEvent<'PackagePaymentNotApplied', { payment_id: string; reason: string }>;

export type PackagePaymentEvent =
  | PackagePaymentInitiated
  | PackagePaymentSucceeded
  | PackagePaymentAmountMismatched
  | PackagePaymentApproved
  | PackagePaymentDeclined
  | PackagePaymentNotApplied;

export const packagePaymentEventTypes = eventTypesOf<PackagePaymentEvent>({
  PackagePaymentInitiated: true,
  PackagePaymentSucceeded: true,
  PackagePaymentAmountMismatched: true,
  PackagePaymentApproved: true,
  PackagePaymentDeclined: true,
  PackagePaymentNotApplied: true,
});

export const packagePaymentStream = (paymentId: string) => `package-payment-${paymentId}`;
