import { type DomainEvent, eventTypesOf } from '../core/event-store';

/**
 * A member's product purchase (an order), one stream per purchase: `purchase-<uuid>`
 * (BUSINESS-RULES.md §5). Money in kobo; a line's `price_kobo` and `points` are per unit, as the
 * catalogue priced them when the purchase was placed (a later price change never reprices it).
 */
export type PickupType = 'registration_pickup' | 'upgrade_pickup' | 'repurchase_pickup';
export const pickupTypes = ['registration_pickup', 'upgrade_pickup', 'repurchase_pickup'] as const satisfies readonly PickupType[];

/** How the purchase is paid: a payment (card, receipt, wallet) or, for allowance pick-ups, the package's pick-up allowance. */
export type PurchasePaymentMethod = 'payment_gateway' | 'pop' | 'wallet' | 'allowance';

export type PurchaseLine = { product_id: number; name: string; qty: number; price_kobo: number; points: number };

/** The order as the server priced it from the catalogue. `payment_id`: the payment that pays it (null for allowance pick-ups). */
export type ProductPurchaseInitiated = DomainEvent<
  'ProductPurchaseInitiated',
  {
    purchase_id: string;
    member_id: string;
    pickup_type: PickupType;
    payment_method: PurchasePaymentMethod;
    payment_id: string | null;
    total_price_kobo: number;
    total_points: number;
    total_quantity: number;
    lines: PurchaseLine[];
    /** The code the member collects the order with (8 characters, unique); absent on purchases placed before codes existed. */
    order_code?: string;
  }
>;

/**
 * The purchase is paid (the shared contract of this session: PV and the repurchase, unilevel and
 * loyalty bonuses follow from it for `repurchase_pickup`). Recorded once per purchase.
 */
export type ProductPurchasePaid = DomainEvent<
  'ProductPurchasePaid',
  {
    purchase_id: string;
    member_id: string;
    pickup_type: PickupType;
    total_price_kobo: number;
    total_points: number;
    lines: PurchaseLine[];
    payment_method: PurchasePaymentMethod;
  }
>;

/** An admin declined the payment (a receipt, or a gateway payment of another amount): the purchase will not be paid. */
export type ProductPurchasePaymentDeclined = DomainEvent<'ProductPurchasePaymentDeclined', { purchase_id: string; payment_id: string; reason: string }>;

/**
 * The order was handed over: by a stockist (who approved it by its code; the stock came off that
 * stockist's stock and the rebate follows from this event, priced from the facts it carries) or
 * by an admin (a product claim approved at the head office: no stockist, no rebate).
 */
export type ProductPurchaseCollected = DomainEvent<
  'ProductPurchaseCollected',
  {
    purchase_id: string;
    member_id: string;
    pickup_type: PickupType;
    total_price_kobo: number;
    lines: PurchaseLine[];
    by: 'stockist' | 'admin';
    stockist_id: string | null;
    stockist_member_id: string | null;
    /** The stockist's package at the approval, and whether the stockist was an active member then. */
    stockist_package_id: number | null;
    sales_bonus_percentage: number | null;
    stockist_active: boolean | null;
  }
>;

/** An admin declined a product claim (an allowance pick-up not yet collected): the allowance may be used again. */
export type ProductPurchaseClaimDeclined = DomainEvent<'ProductPurchaseClaimDeclined', { purchase_id: string; member_id: string; pickup_type: PickupType; reason: string }>;

export type ProductPurchaseEvent = ProductPurchaseInitiated | ProductPurchasePaid | ProductPurchasePaymentDeclined | ProductPurchaseCollected | ProductPurchaseClaimDeclined;
export const productPurchaseEventTypes = eventTypesOf<ProductPurchaseEvent>({
  ProductPurchaseInitiated: true,
  ProductPurchasePaid: true,
  ProductPurchasePaymentDeclined: true,
  ProductPurchaseCollected: true,
  ProductPurchaseClaimDeclined: true,
});

export const purchaseStream = (purchaseId: string) => `purchase-${purchaseId}`;
