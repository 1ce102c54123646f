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
/**
 * The most of one product an order (a member's pick-up or repurchase, a stockist's stock purchase)
 * may hold: 1,000. The seeds set no maximum; the largest pick-up allowance of the demo plan buys
 * fewer than 100 of the cheapest product, so 1,000 never stops a real order and keeps a typo
 * (999999999) from reaching the totals. The member app's quantity inputs use the same constant.
 */
export const MAX_LINE_QUANTITY = 1_000;

/** What a bad quantity answers: the seeds' wording where they give one (seed 000 §5). */
export const quantityMessages = {
  belowOne: 'One of your selection has quantity less than 1',
  notWhole: 'One of your selection has a quantity that is not a whole number.',
  aboveMax: `One of your selection has quantity more than ${MAX_LINE_QUANTITY.toLocaleString('en-US')} (at most ${MAX_LINE_QUANTITY.toLocaleString('en-US')} of each product per order).`,
} as const;

/**
 * Why a line's quantity cannot be ordered (null when it can): below 1, not a whole number, or above
 * MAX_LINE_QUANTITY. Shared by the api (contract and pricing) and the member app's cart.
 */
export function lineQuantityProblem(qty: number): string | null {
  if (typeof qty !== 'number' || Number.isNaN(qty)) return quantityMessages.notWhole;
  if (qty < 1) return quantityMessages.belowOne;
  if (!Number.isInteger(qty)) return quantityMessages.notWhole;
  if (qty > MAX_LINE_QUANTITY) return quantityMessages.aboveMax;
  return null;
}

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
    // Unknown products are the decider's (its message); beyond this bound no catalogue goes.
    if (Math.abs(line.productId) > MAX_INT4) ctx.addIssue({ code: 'custom', message: 'A selected product is not in the catalogue.' });
    else {
      const problem = lineQuantityProblem(line.qty);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
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

/**
 * GET /product-purchases/user/{id}/pickup-status (a member's pick-ups) and GET
 * /product-purchases/stockist/{id}/pickup-status (a stockist's stock pick-ups): whether each
 * once-only pick-up is taken, read as the server reads it when it refuses a second one
 * (purchases/commands.ts allowanceFor, stockists/commands.ts stockAllowance), so the pages offer
 * only what would be accepted whatever the length of the history. A declined pick-up is not taken.
 */
export const pickupStatus = z.object({
  registration_pickup_used: z.boolean(),
  /** The latest upgrade's pick-up; null while there is none to make (no upgrade yet, or, for a member, the registration pick-up still to make). */
  upgrade_pickup_used: z.boolean().nullable(),
});
export type PickupStatus = z.infer<typeof pickupStatus>;

export const pagedProductPurchases = z.object({ data: z.array(productPurchase), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });

export const purchasePaymentMessages = {
  /** txn_source names what is paid for. */
  unknownSource: 'txn_source must be package_payment, member_product_purchase or stockist_product_purchase.',
  /** A stockist's re-stock is paid by card only here (a receipt goes with POST /product-purchases/stockist/{id}). */
  stockByCardOnly: 'A stock purchase is paid here by card only; upload a receipt with the stock purchase form instead.',
} as const;
