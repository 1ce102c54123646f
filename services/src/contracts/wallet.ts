import { z } from 'zod';
import { nairaAmount as strictNaira, optionalText } from './fields';

/**
 * Withdrawals, payouts and company finance as the portal API shows them (seed 000 §3
 * "Withdrawal", §7; seed 001 §2.9, §2.11; seed 002 §3): money in naira.
 */

/** A naira amount sent as a number or a digit string; anything else gets `message`. */
const nairaAmount = (message: string, options: { allowZero?: boolean; fraction?: string } = {}) =>
  strictNaira('amount', { invalid: message, positive: !options.allowZero, ...(options.fraction ? { fraction: options.fraction } : {}) });

export const initiateWithdrawalBody = z.object({ amount: nairaAmount('withdrawal amount is invalid') });
export type InitiateWithdrawalBody = z.input<typeof initiateWithdrawalBody>;

/** 0 stops the standing withdrawal. */
export const withdrawalAmountBody = z.object({ withdrawal_amount: nairaAmount('withdrawal amount is invalid', { allowZero: true }) });
export type WithdrawalAmountBody = z.input<typeof withdrawalAmountBody>;

/** Admin "Make payout" (seed 001 §2.11): the form's narration is sent as `reason` (either name is read). */
export const bankTransferBody = z.object({
  amount: nairaAmount('The amount must be a number above zero.', { fraction: 'The amount can have at most two decimals (kobo).' }),
  reason: optionalText('reason', 200).optional(),
  narration: optionalText('narration', 200).optional(),
});
export type BankTransferBody = z.input<typeof bankTransferBody>;
/** The back office's payout form: the request's rules, and a narration the bank statement shows. */
export const bankTransferForm = bankTransferBody.extend({
  narration: z.string({ error: 'The narration field is required.' }).trim().min(1, 'The narration field is required.').max(200, 'The narration may not be greater than 200 characters.'),
});

export const withdrawalStatus = z.enum(['pending', 'processing', 'successful', 'failed']);

export const withdrawal = z.object({
  id: z.string(),
  member_uuid: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  amount: z.number(),
  fee: z.number(),
  /** Seed 002 calls the fee "Charge". */
  charge: z.number(),
  net_amount: z.number(),
  status: withdrawalStatus,
  /** withdrawal (the member's) or payout (an administrator's). */
  type: z.enum(['withdrawal', 'payout']),
  automatic: z.boolean(),
  reason: z.string(),
  bank_name: z.string(),
  account_number: z.string(),
  account_name: z.string(),
  transfer_reference: z.string(),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  /** When the transfer went to the provider ("Payout Date"); null while pending. */
  payout_date: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawal>;

export const pagedWithdrawals = z.object({
  data: z.array(withdrawal),
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  total: z.number(),
});

/** `total`: successful + processing + pending, the money that left the wallet. */
export const withdrawalTotal = z.object({ total: z.number(), successful: z.number(), processing: z.number(), pending: z.number(), count: z.number() });

export const companyFinance = z.object({
  /** Σ approved payments received. */
  total_company_wallet: z.number(),
  /** Σ successful withdrawals and payouts. */
  total_withdrawals: z.number(),
  balance: z.number(),
});
