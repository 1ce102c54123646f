import { type LedgerRow, bonusLabel, explain } from '../compensation/explanations';
import type { CompensationEvent } from '../compensation/events';
import { formatNaira } from '../core/money';
import type { WalletEvent } from '../wallet/events';

/**
 * What an event did, in words, for the trace and the statement (docs/audit.md): a bonus in the
 * words the member's wallet uses (compensation/explanations.ts, its formula with its inputs), a
 * withdrawal with its bank and fee, a returned transfer with its reason. Pure: usernames are looked
 * up by the caller and passed in.
 */
export type Described = { type: string; stream_id: string; data: unknown };

const last4 = (account: string) => `••${account.slice(-4)}`;

/** `ownWallet`: a line of the member's own statement, so a bonus need not say whose it is. */
export function describeEvent(event: Described, usernames: ReadonlyMap<string, string>, options: { ownWallet?: boolean } = {}): string {
  const known = event as unknown as CompensationEvent | WalletEvent;
  switch (known.type) {
    case 'BonusCredited':
    case 'BonusWithheld':
    case 'BonusHeld': {
      const d = known.data;
      const row: LedgerRow = {
        entry: known.type === 'BonusCredited' ? 'credited' : known.type === 'BonusWithheld' ? 'withheld' : 'held',
        kind: d.kind,
        generation: d.generation,
        reason: known.type === 'BonusWithheld' ? known.data.reason : null,
        cause_type: d.cause.event_type,
        cause_username: d.cause.member_id ? (usernames.get(d.cause.member_id) ?? null) : null,
        inputs: d.inputs,
        settles_hold: 'settles_hold' in d && d.settles_hold !== undefined,
      };
      const beneficiary = options.ownWallet ? undefined : usernames.get(d.beneficiary_id);
      return `${beneficiary ? `To ${beneficiary}: ` : ''}${explain(row)}`;
    }
    case 'WithdrawalRequested': {
      const d = known.data;
      const what = d.kind === 'payout' ? 'Payout' : d.automatic ? 'Automatic withdrawal' : 'Withdrawal';
      const fee = d.fee_kobo > 0 ? `, fee ${formatNaira(d.fee_kobo)}, the bank receives ${formatNaira(d.net_kobo)}` : '';
      return `${what} of ${formatNaira(d.amount_kobo)} to ${d.bank.bank_name} ${last4(d.bank.account_number)} (${d.bank.account_name})${fee}${d.reason ? `: ${d.reason}` : ''}.`;
    }
    case 'WithdrawalFailed':
      return `Withdrawal ${known.data.outcome === 'reversed' ? 'reversed by the bank' : known.data.outcome === 'refused' ? 'refused by the provider' : 'failed'}: ${known.data.reason} ${formatNaira(known.data.returned_kobo)} returned to the wallet.`;
    case 'WithdrawalSent':
      return `Transfer sent to the provider under reference ${known.data.transfer_reference}.`;
    case 'WithdrawalSucceeded':
      return `Transfer ${known.data.transfer_reference} paid into the bank account.`;
    case 'WalletPaymentMade':
      return `Paid ${formatNaira(known.data.amount_kobo)} from the wallet: ${known.data.cause.description}.`;
    case 'WithdrawalAmountSet':
      return `Standing withdrawal amount set to ${formatNaira(known.data.amount_kobo)}.`;
    default:
      return describeOther(event, usernames);
  }
}

/** Events outside the wallet, by their type in words and the amounts they carry. */
function describeOther(event: Described, usernames: ReadonlyMap<string, string>): string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const words = event.type.replace(/([a-z])([A-Z])/g, '$1 $2');
  const member = typeof data.member_id === 'string' ? usernames.get(data.member_id) : undefined;
  const amounts = Object.entries(data)
    .filter(([key, value]) => key.endsWith('_kobo') && typeof value === 'number')
    .map(([key, value]) => `${key.replace(/_kobo$/, '').replace(/_/g, ' ')} ${formatNaira(value as number)}`);
  const paymentId = typeof data.payment_id === 'string' ? ` (payment ${data.payment_id.slice(0, 8)}…)` : '';
  return `${words}${member ? ` — ${member}` : ''}${paymentId}${amounts.length > 0 ? `: ${amounts.join(', ')}` : ''}.`;
}

/** The member ids whose usernames make a description readable. */
export function membersNamedBy(event: Described): string[] {
  const data = (event.data ?? {}) as Record<string, unknown> & { cause?: { member_id?: string | null } };
  return [data.member_id, data.beneficiary_id, data.cause?.member_id].filter((id): id is string => typeof id === 'string');
}

/** The kind of a wallet line, for the statement's type column. */
export function lineType(event: Described): string {
  const data = (event.data ?? {}) as { kind?: string };
  switch (event.type) {
    case 'BonusCredited':
      return bonusLabel(data.kind ?? '');
    case 'WithdrawalRequested':
      return data.kind === 'payout' ? 'Payout' : 'Withdrawal';
    case 'WithdrawalFailed':
      return 'Withdrawal returned';
    case 'WalletPaymentMade':
      return 'Wallet payment';
    default:
      return event.type;
  }
}
