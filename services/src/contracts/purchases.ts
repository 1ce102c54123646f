import { z } from 'zod';
import { asNumber, MAX_INT4 } from './fields';

/**
 * Product purchases as the portal API shows them (seed 000 §3 "Purchase or order", §7 "Initiate
 * payment" for purchases, "Purchases"): money in naira.
 */

const pickupTypeValues = ['registration_pickup', 'upgrade_pickup', 'repurchase_pickup'] as const;

/** The order type: missing is the seeds' 'Order type not selected'. */
const pickupType = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const v = value?.trim() ?? '';
    if (v === '') {
      ctx.addIssue({ code: 'custom', message: 'Order type not selected' });
      return z.NEVER;
    }
    if (!(pickupTypeValues as readonly string[]).includes(v)) {
      ctx.addIssue({ code: 'custom', message: 'The order type must be registration_pickup, upgrade_pickup or repurchase_pickup.' });
      return z.NEVER;
    }
    return v as (typeof pickupTypeValues)[number];
  });

const optionalNumber = (label: string) =>
  z.union([z.number(), z.string()]).optional().nullable().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const n = asNumber(v);
    if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER / 100) {
      ctx.addIssue({ code: 'custom', message: `The ${label} must be a number.` });
      return z.NEVER;
    }
    return n;
  });

const numberOf = (value: unknown): number => {
  const n = asNumber(value);
  return typeof n === 'number' ? n : Number.NaN;
};
/** Product ids are catalogue ids; quantities 1 to 10,000 a line. */
const MAX_LINE_QUANTITY = 10_000;

/**
 * The cart: a list (or its JSON text, as multipart sends it) of lines naming the product by `id`
 * or `product_id` (or a nested `product.id`, as the cart screen keeps it) and the quantity by
 * `qty`, `product_qty` or `quantity`. Only ids and quantities are read: the server prices lines itself.
 */
const products = z.unknown().optional().transform((value, ctx): Array<{ productId: number; qty: number }> => {
  let list = value;
  if (list === undefined || list === null || list === '') return [];
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'The selected products could not be read.' });
      return z.NEVER;
    }
  }
  if (!Array.isArray(list)) {
    ctx.addIssue({ code: 'custom', message: 'The selected products could not be read.' });
    return z.NEVER;
  }
  return list.map((item: unknown) => {
    const line = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const nested = line.product && typeof line.product === 'object' ? (line.product as Record<string, unknown>).id : undefined;
    return { productId: numberOf(line.id ?? line.product_id ?? nested), qty: numberOf(line.qty ?? line.product_qty ?? line.quantity) };
  }).filter((line, index, lines) => {
    if (index === 0 && lines.length > 200) ctx.addIssue({ code: 'custom', message: 'An order may have at most 200 lines.' });
    // Below 1, fractions and unknown products are the decider's (its messages); beyond these bounds no catalogue goes.
    if (Math.abs(line.productId) > MAX_INT4) ctx.addIssue({ code: 'custom', message: 'A selected product is not in the catalogue.' });
    else if (line.qty > MAX_LINE_QUANTITY) ctx.addIssue({ code: 'custom', message: `Each quantity must be a whole number from 1 to ${MAX_LINE_QUANTITY}.` });
    return true;
  });
});

/** The purchase fields of POST /payments/initiate and PATCH /withdrawals/pay-with-wallet (txn_source member_product_purchase). */
export const purchaseOrderBody = z.object({
  pickup_type: pickupType,
  products,
  /** What the client showed, naira; refused when it is not the server's total. */
  total_price: optionalNumber('total price'),
  total_points: optionalNumber('total points'),
  total_quantity: optionalNumber('total quantity'),
});
export type PurchaseOrderBody = z.input<typeof purchaseOrderBody>;

export const purchaseLine = z.object({ product_id: z.number(), name: z.string(), product_qty: z.number(), price: z.number(), points: z.number() });

export const productPurchase = z.object({
  id: z.string(),
  pickup_type: z.enum(pickupTypeValues),
  payment_type: z.enum(['payment_gateway', 'pop', 'wallet', 'allowance']),
  /** The stockist who handed the order over; null until one does. */
  store_name: z.string().nullable(),
  store_address: z.string().nullable(),
  store_state: z.string().nullable(),
  store_phone: z.string().nullable(),
  total_quantity: z.number(),
  total_price: z.number(),
  total_points: z.number(),
  /** pending (receipt awaiting an admin), processing (paid, to be picked up), declined. */
  status: z.string(),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** Whether the order has a code the member may reveal (POST /product-purchases/order-code). */
  has_order_code: z.boolean().optional(),
  products: z.array(purchaseLine),
});
export type ProductPurchase = z.infer<typeof productPurchase>;

export const pagedProductPurchases = z.object({ data: z.array(productPurchase), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });

export const purchasePaymentMessages = {
  /** txn_source names what is paid for. */
  unknownSource: 'txn_source must be package_payment, member_product_purchase or stockist_product_purchase.',
  /** A stockist's re-stock is paid by card only here (a receipt goes with POST /product-purchases/stockist/{id}). */
  stockByCardOnly: 'A stock purchase is paid here by card only; upload a receipt with the stock purchase form instead.',
} as const;
