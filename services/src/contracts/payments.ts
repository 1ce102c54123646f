import { z } from 'zod';
import { asNumber, isWholeKobo, MAX_INT4, MAX_NAIRA, nairaFigure, optionalText } from './fields';

/**
 * Package payments as the portal API shows them (seed 000 §7 "Initiate payment", seed 002 §3
 * "Package payment"): money in naira.
 */
const flag = z.union([z.boolean(), z.number(), z.string()]).transform((v) => v === true || v === 1 || v === '1' || v === 'true');
/** What the client showed, in naira: a decimal amount of whole kobo (never "0x7d0", never rounded). */
const optionalNumber = z.union([z.number(), z.string()]).optional().nullable().transform((v, ctx) => {
  if (v === undefined || v === null || v === '') return null;
  const n = asNumber(v);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_NAIRA) {
    ctx.addIssue({ code: 'custom', message: 'The amount must be an amount in naira.' });
    return z.NEVER;
  }
  if (!isWholeKobo(n)) {
    ctx.addIssue({ code: 'custom', message: 'The amount may have at most two decimals (whole kobo).' });
    return z.NEVER;
  }
  return n;
});
/** A package id read loosely (the seeds send it several ways), but only a catalogue id or nothing. */
const packageIdOrNull = (v: unknown): number | null => {
  const n = asNumber(v);
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= MAX_INT4 ? n : null;
};
/** meta_data carries the package id: a number, a digit string, or an object with package_id. */
const packageReference = z.unknown().optional().transform((v): number | null => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'object' && 'package_id' in (v as object)) return packageIdOrNull((v as { package_id: unknown }).package_id);
  if (typeof v === 'string' && v.trim().startsWith('{')) {
    try {
      return packageIdOrNull((JSON.parse(v) as { package_id?: unknown }).package_id);
    } catch {
      return null;
    }
  }
  return packageIdOrNull(v);
});

export const initiatePaymentBody = z.object({
  amount: optionalNumber,
  description: optionalText('description', 500).optional().default(''),
  txn_source: z.string().max(50).optional().default('package_payment'),
  is_upgrade: flag.optional().default(false),
  meta_data: packageReference,
  payment_type: z.enum(['payment_gateway', 'pop'], { error: 'Choose how to pay: payment_gateway or pop.' }),
});
export type InitiatePaymentBody = z.input<typeof initiatePaymentBody>;

export const initiatedGatewayPayment = z.object({
  authorization_url: z.string(),
  access_code: z.string(),
  reference: z.string(),
  payment_id: z.string(),
  amount: z.number(),
  /** Product purchases: the purchase being paid. */
  purchase_id: z.string().optional(),
});

export const verifyPaymentBody = z.object({ reference: z.string().min(1, 'The reference is required.').max(100) });
export const verifiedPayment = z.object({ success: z.boolean(), status: z.string(), payment_id: z.string().nullable() });

export const packagePayment = z.object({
  id: z.string(),
  member_uuid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  /** The package paid for (seeds read it as `name` and as `package_name`). */
  name: z.string(),
  package_name: z.string(),
  previous_package_name: z.string().nullable(),
  /** product_purchase: a repurchase's payment (receipts wait in the same admin list). */
  purpose: z.enum(['registration', 'upgrade', 'product_purchase', 'stock_purchase']),
  payment_type: z.enum(['payment_gateway', 'pop', 'wallet']),
  amount: nairaFigure,
  amount_paid: nairaFigure.nullable(),
  status: z.string(),
  status_reason: z.string().nullable(),
  narration: z.string(),
  description: z.string(),
  reference: z.string().nullable(),
  payment_receipt: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type PackagePayment = z.infer<typeof packagePayment>;

export const packageSummary = z.object({ id: z.number(), name: z.string(), registration_value: z.number(), pickup_amount: z.number(), point_value: z.number() });
export const packageDifference = z.object({
  package_name: z.string(),
  package_difference: z.number(),
  current_package: packageSummary,
  new_package: packageSummary,
  /** ?is_upgrade_pickup=1: whether the latest upgrade's one pick-up was taken (a declined one is given back). */
  pickup_used: z.boolean().optional(),
});
export type PackageDifference = z.infer<typeof packageDifference>;

export const paymentMessages = {
  receiptUploaded: 'Payment reciept uploaded successfuly',
  verified: 'Payment Verified successfully',
  notVerified: 'Unable to verify payment',
  mismatch: 'Your payment was received, but its amount differs from the amount due; an administrator will review it.',
  approved: 'Payment approved successfully',
  declined: 'Payment declined successfully',
  reinstated: 'Registration reinstated successfully',
  walletPaid: 'Payment successful',
} as const;
