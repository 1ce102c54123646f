import { z } from 'zod';
import { nairaFigure } from './fields';

/**
 * The back office's money-out and company-figures records (seed 002 Transactions tabs 1 and 3,
 * seed 001 §2.9, §2.12): withdrawals as react-admin reads them, and product sales by month.
 * Money in naira.
 */

/**
 * Where a withdrawal is (wallet/projections.ts): `pending` queued (the wallet is debited, the
 * transfer waits for the payout run or is being sent), `processing` handed to the payment
 * provider, `successful` the bank received it, `failed` it did not, and the whole amount went back
 * to the wallet. `outcome` says how it failed: `refused` by the provider before it took the
 * transfer, `failed` or `reversed` by the provider afterwards.
 */
export const adminWithdrawalStatus = z.enum(['pending', 'processing', 'successful', 'failed']);
export const withdrawalFailureOutcome = z.enum(['refused', 'failed', 'reversed']);

export const adminWithdrawal = z.object({
  id: z.string(),
  member_id: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  /** Debited from the wallet. */
  amount: nairaFigure,
  /** Seed 002 "Charge", seed 001 "fee": the same figure. */
  charge: nairaFigure,
  fee: nairaFigure,
  /** What the bank is sent: amount − charge. */
  net_amount: nairaFigure,
  status: adminWithdrawalStatus,
  outcome: withdrawalFailureOutcome.nullable(),
  /** withdrawal (the member's own) or payout (an administrator's "Make payout"). */
  type: z.enum(['withdrawal', 'payout']),
  /** Requested by a payout run from the member's standing withdrawal amount. */
  automatic: z.boolean(),
  reason: z.string(),
  bank_name: z.string(),
  account_number: z.string(),
  account_name: z.string(),
  transfer_reference: z.string(),
  transfer_code: z.string().nullable(),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  /** When the transfer went to the provider ("Payout Date"); null while queued. */
  payout_date: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** The wallet stream the withdrawal's events are recorded on. */
  stream_id: z.string(),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawal>;

/** One event of a withdrawal's life, oldest first, with who caused it. */
export const withdrawalHistoryEntry = z.object({
  id: z.number(),
  type: z.string(),
  recorded_at: z.string(),
  actor_type: z.string().nullable(),
  actor_id: z.string().nullable(),
  data: z.unknown(),
});
export type WithdrawalHistoryEntry = z.infer<typeof withdrawalHistoryEntry>;

/** GET /admin/withdrawals/:id: the record and its history. */
export const adminWithdrawalDetail = adminWithdrawal.extend({ history: z.array(withdrawalHistoryEntry) });
export type AdminWithdrawalDetail = z.infer<typeof adminWithdrawalDetail>;

/** Seed 002 "Monthly repurchase": month (1–12), year, total_qty, total (naira), by the Lagos month it was paid. */
export const monthlyRepurchase = z.object({ month: z.number(), year: z.number(), total_qty: z.number(), total: nairaFigure });
export type MonthlyRepurchase = z.infer<typeof monthlyRepurchase>;

/** The back office's `product-sales` resource: a month, `id` = "YYYY-MM". */
export const productSalesMonth = monthlyRepurchase.extend({ id: z.string(), period: z.string(), orders: z.number() });
export type ProductSalesMonth = z.infer<typeof productSalesMonth>;

/** GET /product-purchases/sum-prices: every paid product purchase, in naira. */
export const productSalesSum = z.object({ total: z.number(), total_qty: z.number(), count: z.number() });
export type ProductSalesSum = z.infer<typeof productSalesSum>;
