import { z } from 'zod';

/** Stockists, stock and pick-up orders as the portal API shows them (seeds 000 §3, 001 §3, 002 §3): money in naira. */

const paged = <T extends z.ZodTypeAny>(item: T) => z.object({ data: z.array(item), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });

const text = (label: string, max = 200) =>
  z.string({ error: `The ${label} is required.` }).trim().min(1, { error: `The ${label} is required.` }).max(max, { error: `The ${label} must be at most ${max} characters.` });

/** POST /stockists/create (multipart text fields). */
export const stockistApplicationFields = z.object({
  store_name: text('store name'),
  store_address: text('store address', 500),
  store_state: text('store state', 60),
  store_phone: z.string({ error: 'The store phone is required.' }).trim().regex(/^\+?[0-9 ()-]{7,20}$/, { error: 'The store phone must be a phone number.' }),
  package_id: z.coerce.number({ error: 'Choose a stockist package.' }).int({ error: 'Choose a stockist package.' }).positive({ error: 'Choose a stockist package.' }),
  referrer: text('signee (username or e-mail)', 120),
});

/** PUT /stockists/{id}/update: the store fields (package and signee cannot change here). */
export const stockistUpdateBody = stockistApplicationFields.pick({ store_name: true, store_address: true, store_state: true, store_phone: true }).extend({
  package_id: z.unknown().optional(),
  referrer: z.unknown().optional(),
});

export const stockistUpgradeFields = z.object({
  stockist_package_id: z.coerce.number({ error: 'Choose a stockist package.' }).int({ error: 'Choose a stockist package.' }).positive({ error: 'Choose a stockist package.' }),
});

export const stockist = z.object({
  id: z.string(),
  uuid: z.string(),
  user_uuid: z.string(),
  store_name: z.string(),
  store_address: z.string(),
  store_state: z.string(),
  store_phone: z.string(),
  package_id: z.number(),
  package_name: z.string(),
  stockist_package: z.string(),
  stockist_package_value: z.number(),
  rebate: z.number(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  referrer: z.string(),
  stockist_status: z.string(),
  status: z.string(),
  reg_date: z.string(),
  payment_id: z.string(),
  payment_receipt: z.string().nullable(),
  payment_status: z.string().optional(),
  payment_date: z.string().nullable().optional(),
});
export type StockistApi = z.infer<typeof stockist>;
export const pagedStockists = paged(stockist);

/** What members see when choosing where to collect. */
export const publicStockist = z.object({ id: z.string(), store_name: z.string(), store_address: z.string(), store_state: z.string(), store_phone: z.string() });
export const pagedPublicStockists = paged(publicStockist);

export const stockistUpgradeRow = z.object({
  id: z.string(),
  payment_id: z.string(),
  user_uuid: z.string(),
  username: z.string(),
  store_name: z.string(),
  store_address: z.string(),
  store_state: z.string(),
  store_phone: z.string(),
  stockist_package: z.string(),
  from_package: z.string().nullable(),
  stockist_package_value: z.number(),
  payment_receipt: z.string().nullable(),
  payment_status: z.string(),
  payment_date: z.string(),
  reg_date: z.string(),
  status: z.string(),
});
export const pagedStockistUpgrades = paged(stockistUpgradeRow);

export const stockistUpgradeHistoryRow = z.object({ id: z.string(), package_name: z.string(), status: z.string(), registration_value: z.number(), created_at: z.string() });

export const packageSummary = z.object({ id: z.number(), name: z.string(), registration_value: z.number(), pickup_amount: z.number(), sales_bonus_percentage: z.number() });
export const stockistPackageDifference = z.object({
  package_name: z.string(),
  package_difference: z.number(),
  rebate: z.number(),
  current_package: packageSummary,
  new_package: packageSummary,
  /** Upgrade pick-up: what the latest upgrade allows, and whether it was used. */
  pickup_allowance: z.number().optional(),
  pickup_used: z.boolean().optional(),
});

export const stockistStats = z.object({ package: z.string(), package_id: z.number(), rebate: z.number(), rebate_bonus: z.number(), stock_units: z.number() });
export const stockRecord = z.object({ product_id: z.number(), name: z.string(), image: z.string().nullable(), cost_price: z.number(), quantity: z.number(), in_stock: z.boolean() });
export const rebateEarning = z.object({ month: z.string(), created_at: z.string(), value: z.number() });
export const adminStockistStats = z.object({ stockist_count: z.number(), stockist_purchases_sum: z.number(), stockist_sales_sum: z.number() });
export const stockistSalesStats = z.object({ total_purchases: z.number(), total_sales: z.number() });

export const stockLine = z.object({ product_id: z.number(), name: z.string(), image: z.string().nullable(), product_qty: z.number(), price: z.number(), points: z.number() });
export const stockPurchase = z.object({
  id: z.string(),
  purchase_id: z.string(),
  user_uuid: z.string(),
  username: z.string(),
  store_name: z.string(),
  stockist_package: z.string(),
  pickup_type: z.string(),
  total_quantity: z.number(),
  total_price: z.number(),
  total_points: z.number(),
  payment_receipt: z.string().nullable(),
  /** Card (payment_gateway), receipt (pop), or nothing to pay (a pick-up, paid with the stockist package). */
  payment_method: z.enum(['payment_gateway', 'pop', 'package']),
  status: z.string(),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  products: z.array(stockLine),
});
export const pagedStockPurchases = paged(stockPurchase);

/** POST /product-purchases/stockist/{id}: the stock cart (pick-up types of seed 001 §4). */
export const stockPickupType = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const v = value?.trim() ?? '';
    if (v === '') {
      ctx.addIssue({ code: 'custom', message: 'Order type not selected' });
      return z.NEVER;
    }
    if (!['registration_pickup', 'upgrade_pickup', 're-stock'].includes(v)) {
      ctx.addIssue({ code: 'custom', message: 'The pick-up type must be registration_pickup, upgrade_pickup or re-stock.' });
      return z.NEVER;
    }
    return v as 'registration_pickup' | 'upgrade_pickup' | 're-stock';
  });

export const stockDetail = z.object({ name: z.string(), product_purchase_id: z.string(), product_qty: z.number(), price: z.number(), created_at: z.string(), status: z.string(), pickup_type: z.string() });

export const prevMonthSales = z.object({ month: z.string(), total_sales: z.number(), restocked: z.number(), available: z.number() });

export const orderCodeBody = z.object({
  password: z.string({ error: 'Enter your password to see the order code.' }).min(1, { error: 'Enter your password to see the order code.' }),
  order_id: z.uuid({ error: 'Order not found.' }),
});

export const orderLookupLine = z.object({
  product_id: z.number(),
  name: z.string(),
  image: z.string().nullable(),
  worth: z.number(),
  unit_price: z.number(),
  price: z.number(),
  product_qty: z.number(),
  points: z.number(),
  in_stock: z.number(),
  stock_qty: z.number(),
  qualify: z.number(),
  claim_type: z.string(),
  product_purchase_id: z.string(),
});
export const orderLookup = z.object({
  purchase_id: z.string(),
  order_code: z.string(),
  status: z.string(),
  pickup_type: z.string(),
  total_price: z.number(),
  can_approve: z.boolean(),
  products: z.array(orderLookupLine),
  user: z.object({ username: z.string(), first_name: z.string(), last_name: z.string(), phone: z.string(), email: z.string(), photo_path: z.string().nullable() }),
});

export const processedOrder = z.object({
  id: z.string(),
  order_id: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  email: z.string(),
  pickup_type: z.string(),
  total_price: z.number(),
  status: z.string(),
  created_at: z.string(),
  order_date: z.string(),
});
export const pagedProcessedOrders = paged(processedOrder);

export const orderDetails = z.object({ id: z.string(), status: z.string(), pickup_type: z.string(), products: z.array(stockLine) });

/** Product claims: a member's order lines not yet collected (processing), collected (approved) or declined. */
export const productClaim = z.object({
  id: z.string(),
  product_purchase_id: z.string(),
  product_id: z.number(),
  name: z.string(),
  image: z.string().nullable(),
  worth: z.number(),
  points: z.number(),
  product_qty: z.number(),
  pickup_type: z.string(),
  status: z.string(),
  username: z.string(),
  created_at: z.string(),
});
export const pagedProductClaims = paged(productClaim);
