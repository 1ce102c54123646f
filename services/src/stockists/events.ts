import { type DomainEvent, eventTypesOf } from '../core/event-store';

/**
 * Stockists (BUSINESS-RULES.md §5). Three kinds of stream, money in kobo:
 * - `stockist-<stockistId>`: the application, its approval, the store profile and package upgrades;
 * - `stock-purchase-<id>`: a stockist's purchase of stock, approved or declined by an admin;
 * - `stock-<stockistId>`: the stockist's stock, product by product (added by an approved stock
 *   purchase, taken by an order the stockist hands over). The quantities are decided on this
 *   stream, so two approvals racing for the same last units cannot both take them.
 * Approval events carry the facts their bonuses are priced from (package values, percentages,
 * the sponsor chain and whether each was active), so a bonus is decided as of its cause.
 */

/** A stockist package as it was when an event was recorded. */
export type StockistPackageFacts = { id: number; name: string; registration_value_kobo: number; sales_bonus_percentage: number; pickup_amount_kobo: number };

export type StockistApplied = DomainEvent<
  'StockistApplied',
  {
    stockist_id: string;
    member_id: string;
    store_name: string;
    store_address: string;
    store_state: string;
    store_phone: string;
    package_id: number;
    signee_id: string;
    payment_id: string;
    amount_kobo: number;
    receipt_path: string | null;
  }
>;

export type StockistApproved = DomainEvent<
  'StockistApproved',
  {
    stockist_id: string;
    member_id: string;
    payment_id: string;
    signee_id: string;
    /** Whether the signee was an active member at the approval. */
    signee_active: boolean;
    stockist_package: StockistPackageFacts;
    stockist_referral_bonus_percentage: number;
  }
>;

export type StockistDisapproved = DomainEvent<'StockistDisapproved', { stockist_id: string; member_id: string; payment_id: string; reason: string }>;

export type StockistProfileUpdated = DomainEvent<'StockistProfileUpdated', { stockist_id: string; store_name: string; store_address: string; store_state: string; store_phone: string }>;

export type StockistUpgradeRequested = DomainEvent<
  'StockistUpgradeRequested',
  { stockist_id: string; member_id: string; payment_id: string; from_package_id: number; to_package_id: number; amount_kobo: number; receipt_path: string | null }
>;

export type StockistUpgradeApproved = DomainEvent<
  'StockistUpgradeApproved',
  { stockist_id: string; member_id: string; payment_id: string; from_package: StockistPackageFacts; to_package: StockistPackageFacts; amount_kobo: number; pickup_allowance_kobo: number }
>;

export type StockistUpgradeDisapproved = DomainEvent<'StockistUpgradeDisapproved', { stockist_id: string; member_id: string; payment_id: string; reason: string }>;

export type StockistEvent =
  | StockistApplied
  | StockistApproved
  | StockistDisapproved
  | StockistProfileUpdated
  | StockistUpgradeRequested
  | StockistUpgradeApproved
  | StockistUpgradeDisapproved;

export type StockPickupType = 'registration_pickup' | 'upgrade_pickup' | 're-stock';
export const stockPickupTypes = ['registration_pickup', 'upgrade_pickup', 're-stock'] as const satisfies readonly StockPickupType[];

export type StockLine = { product_id: number; name: string; qty: number; price_kobo: number; points: number };

export type StockPurchaseRequested = DomainEvent<
  'StockPurchaseRequested',
  {
    purchase_id: string;
    stockist_id: string;
    member_id: string;
    pickup_type: StockPickupType;
    package_id: number;
    /** The once-only allowance this purchase uses (registration, or one upgrade); null for a re-stock. */
    allowance_key: string | null;
    allowance_kobo: number;
    total_price_kobo: number;
    total_points: number;
    total_quantity: number;
    lines: StockLine[];
    receipt_path: string | null;
    /** Paid by card: the payment (package_payments, purpose stock_purchase) it waits for. Absent on older events. */
    payment_id?: string | null;
  }
>;

/** The card payment of a stock purchase succeeded: it goes to the admins. Caused by PackagePaymentSucceeded. */
export type StockPurchasePaid = DomainEvent<'StockPurchasePaid', { purchase_id: string; stockist_id: string; payment_id: string }>;

/** The generation-g percentages of the stockist upline table for a registration package. */
export type UplineFacts = { member_id: string; package_id: number; active: boolean };

export type StockPurchaseApproved = DomainEvent<
  'StockPurchaseApproved',
  {
    purchase_id: string;
    stockist_id: string;
    member_id: string;
    pickup_type: StockPickupType;
    total_price_kobo: number;
    lines: StockLine[];
    /** The stockist's sponsor chain at the approval, generation 1 first, and the stockist upline table by package then. */
    sponsor_chain: UplineFacts[];
    stockist_upline_tables: Record<string, number[]>;
  }
>;

export type StockPurchaseDeclined = DomainEvent<'StockPurchaseDeclined', { purchase_id: string; stockist_id: string; reason: string }>;

export type StockPurchaseEvent = StockPurchaseRequested | StockPurchasePaid | StockPurchaseApproved | StockPurchaseDeclined;
export const stockPurchaseEventTypes = eventTypesOf<StockPurchaseEvent>({
  StockPurchaseRequested: true,
  StockPurchasePaid: true,
  StockPurchaseApproved: true,
  StockPurchaseDeclined: true,
});

export type StockAdded = DomainEvent<'StockAdded', { stockist_id: string; stock_purchase_id: string; lines: Array<{ product_id: number; qty: number }> }>;
export type StockTaken = DomainEvent<'StockTaken', { stockist_id: string; purchase_id: string; lines: Array<{ product_id: number; qty: number }> }>;
export type StockEvent = StockAdded | StockTaken;

export const stockistStream = (stockistId: string) => `stockist-${stockistId}`;
export const stockPurchaseStream = (purchaseId: string) => `stock-purchase-${purchaseId}`;
export const stockStream = (stockistId: string) => `stock-${stockistId}`;
