import type { CompensationEvent } from '../compensation/events';
import type { DomainEvent } from '../core/event-store';

export { walletStream } from '../compensation/events';

/**
 * Money leaving a member's wallet (BUSINESS-RULES.md §4), recorded on the same stream as the
 * bonuses that filled it, `wallet-<memberId>`, so one stream's version orders every credit and
 * debit and the balance can never be spent twice. Money in kobo.
 */
export type WithdrawalKind = 'withdrawal' | 'payout';

/** The verified bank account the money goes to, as it was when the withdrawal was requested. */
export type BankSnapshot = { bank_name: string; bank_code: string; account_number: string; account_name: string };

/** How the fee was worked out (null for fee-free payouts), so an auditor can recompute it. */
export type FeeInputs = { charge_type: 'percentage' | 'flat'; charge_percent: number; charge_flat_kobo: number; charge_cap_kobo: number };

/**
 * The wallet is debited `amount_kobo` now; the bank is to receive `net_kobo` = amount − fee.
 * `kind` payout: an administrator's "Make payout", fee-free. `automatic`: requested by the payout
 * run from the member's standing withdrawal amount.
 */
export type WithdrawalRequested = DomainEvent<
  'WithdrawalRequested',
  {
    withdrawal_id: string;
    member_id: string;
    kind: WithdrawalKind;
    amount_kobo: number;
    fee_kobo: number;
    net_kobo: number;
    bank: BankSnapshot;
    reason: string;
    automatic: boolean;
    fee_inputs: FeeInputs | null;
    balance_before_kobo: number;
  }
>;

export type TransferVia = 'transfer_response' | 'webhook' | 'verify';

/** The transfer was handed to the provider (`processing`). */
export type WithdrawalSent = DomainEvent<
  'WithdrawalSent',
  { withdrawal_id: string; member_id: string; transfer_reference: string; transfer_code: string; recipient_code: string | null; via: TransferVia }
>;

export type WithdrawalSucceeded = DomainEvent<
  'WithdrawalSucceeded',
  { withdrawal_id: string; member_id: string; transfer_reference: string; via: TransferVia }
>;

/**
 * The money did not reach the bank, and `returned_kobo` (the whole amount debited) is credited
 * back to the wallet. `refused`: the provider refused the transfer before taking it; `failed` /
 * `reversed`: the provider's own outcome.
 */
export type WithdrawalFailed = DomainEvent<
  'WithdrawalFailed',
  { withdrawal_id: string; member_id: string; outcome: 'refused' | 'failed' | 'reversed'; reason: string; returned_kobo: number; via: TransferVia | 'send' }
>;

/** The member paid for something from the wallet (a registration upgrade). */
export type WalletPaymentMade = DomainEvent<
  'WalletPaymentMade',
  {
    payment_id: string;
    member_id: string;
    purpose: string;
    amount_kobo: number;
    balance_before_kobo: number;
    cause: { description: string; package_id: number | null };
  }
>;

/** The member's standing withdrawal amount, requested by each payout run the balance allows (0 = none). */
export type WithdrawalAmountSet = DomainEvent<'WithdrawalAmountSet', { member_id: string; amount_kobo: number }>;

export type WalletEvent = WithdrawalRequested | WithdrawalSent | WithdrawalSucceeded | WithdrawalFailed | WalletPaymentMade | WithdrawalAmountSet;

/** Everything a wallet stream holds: the compensation plan's credits and these debits. */
export type WalletStreamEvent = CompensationEvent | WalletEvent;

export const walletEventTypes = [
  'WithdrawalRequested',
  'WithdrawalSent',
  'WithdrawalSucceeded',
  'WithdrawalFailed',
  'WalletPaymentMade',
  'WithdrawalAmountSet',
] as const satisfies readonly WalletEvent['type'][];

/**
 * The provider's transfer reference (16–50 of [a-z0-9_-]), derived from the withdrawal id so a
 * retried send carries the same reference and the provider never makes the transfer twice.
 */
export const transferReference = (withdrawalId: string) => `wdl_${withdrawalId.toLowerCase()}`;

export function withdrawalIdOfReference(reference: string): string | null {
  const match = /^wdl_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(reference);
  return match ? match[1]! : null;
}
