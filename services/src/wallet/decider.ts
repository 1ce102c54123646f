import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import { type Kobo, formatNaira, percentOf } from '../core/money';
import type { SettingsValues } from '../settings/values';
import type {
  BankSnapshot,
  FeeInputs,
  TransferVia,
  WalletEvent,
  WalletPaymentMade,
  WalletStreamEvent,
  WithdrawalFailed,
  WithdrawalKind,
  WithdrawalRequested,
} from './events';

/**
 * A member's wallet (BUSINESS-RULES.md §4) folded from its stream: balance = Σ bonuses credited −
 * Σ withdrawals not failed − Σ wallet payments. Every debit is decided here against that balance,
 * at the stream's version, so the wallet never goes below zero.
 */
export type WithdrawalStatus = 'pending' | 'processing' | 'successful' | 'failed';
export type WithdrawalInWallet = { status: WithdrawalStatus; amountKobo: Kobo };

export type WalletState = {
  creditedKobo: Kobo;
  debitedKobo: Kobo;
  withdrawals: Readonly<Record<string, WithdrawalInWallet>>;
  walletPayments: readonly string[];
  standingAmountKobo: Kobo;
};

export type WithdrawalRules = {
  minimum_kobo: Kobo;
  /** 0 = no maximum. */
  maximum_kobo: Kobo;
  charge_type: 'percentage' | 'flat';
  /** Percentage type: percent of the amount. */
  charge_percent: number;
  /** Flat type: the charge. */
  charge_flat_kobo: Kobo;
  /** Percentage type: the fee's ceiling; 0 = no ceiling. */
  charge_cap_kobo: Kobo;
};

export type WalletCommand =
  | {
      type: 'RequestWithdrawal';
      data: {
        withdrawal_id: string;
        member_id: string;
        kind: WithdrawalKind;
        amount_kobo: Kobo;
        reason: string;
        automatic: boolean;
        member_active: boolean;
        /** The member's verified bank account; null when none is on file. */
        bank: BankSnapshot | null;
        rules: WithdrawalRules;
      };
    }
  | {
      type: 'RecordTransferSent';
      data: { withdrawal_id: string; transfer_reference: string; transfer_code: string; recipient_code: string | null; transfer_status: string };
    }
  | {
      type: 'RecordTransferOutcome';
      data: { withdrawal_id: string; outcome: 'success' | 'failed' | 'reversed'; transfer_reference: string; transfer_code: string; via: TransferVia; reason: string | null };
    }
  | { type: 'RecordTransferRefused'; data: { withdrawal_id: string; reason: string } }
  | { type: 'PayFromWallet'; data: Omit<WalletPaymentMade['data'], 'balance_before_kobo'> }
  | { type: 'SetStandingWithdrawalAmount'; data: { member_id: string; amount_kobo: Kobo; rules: Pick<WithdrawalRules, 'minimum_kobo' | 'maximum_kobo'> } };

const naira = formatNaira;

export const walletMessages = {
  insufficient: 'Insufficient wallet balance.',
  invalidAmount: 'withdrawal amount is invalid',
  inactive: 'Only an active member can withdraw from the wallet.',
  noBankDetails: 'Add and verify your bank details before you withdraw.',
  memberHasNoBankDetails: 'This member has no verified bank details to pay into.',
  belowMinimum: (minimumKobo: Kobo) => `The minimum withdrawal is ${naira(minimumKobo)}.`,
  aboveMaximum: (maximumKobo: Kobo) => `The maximum withdrawal is ${naira(maximumKobo)}.`,
  feeNotCovered: (feeKobo: Kobo) => `The amount must be more than the withdrawal charge of ${naira(feeKobo)}.`,
  unknownWithdrawal: 'Withdrawal not found.',
} as const;

export const initialWalletState = (): WalletState => ({ creditedKobo: 0, debitedKobo: 0, withdrawals: {}, walletPayments: [], standingAmountKobo: 0 });

export const balanceOf = (state: WalletState): Kobo => state.creditedKobo - state.debitedKobo;

/** The settings' withdrawal rules, in the decider's terms. */
export function withdrawalRules(settings: Pick<SettingsValues, 'minimum_withdrawal_kobo' | 'maximum_withdrawal_kobo' | 'withdrawal_charge_type' | 'charge' | 'charge_kobo' | 'withdrawal_charge_cap_kobo'>): WithdrawalRules {
  return {
    minimum_kobo: settings.minimum_withdrawal_kobo,
    maximum_kobo: settings.maximum_withdrawal_kobo,
    charge_type: settings.withdrawal_charge_type,
    charge_percent: settings.charge,
    charge_flat_kobo: settings.charge_kobo,
    charge_cap_kobo: settings.withdrawal_charge_cap_kobo,
  };
}

/** Percentage type: min(pct(A, charge), cap), no cap when the cap is 0; flat type: the flat charge. */
export function withdrawalFee(amountKobo: Kobo, rules: WithdrawalRules): Kobo {
  if (rules.charge_type === 'flat') return rules.charge_flat_kobo;
  const fee = percentOf(amountKobo, rules.charge_percent);
  return rules.charge_cap_kobo > 0 ? Math.min(fee, rules.charge_cap_kobo) : fee;
}

function withStatus(state: WalletState, withdrawalId: string, status: WithdrawalStatus): WalletState {
  const withdrawal = state.withdrawals[withdrawalId];
  if (!withdrawal) return state;
  return { ...state, withdrawals: { ...state.withdrawals, [withdrawalId]: { ...withdrawal, status } } };
}

export function evolveWallet(state: WalletState, event: WalletStreamEvent): WalletState {
  switch (event.type) {
    case 'BonusCredited':
      return { ...state, creditedKobo: state.creditedKobo + event.data.amount_kobo };
    case 'BonusWithheld':
    case 'BonusHeld':
      // Held money is not in the balance until its payment is approved (a BonusCredited then).
      return state;
    case 'WithdrawalRequested':
      return {
        ...state,
        debitedKobo: state.debitedKobo + event.data.amount_kobo,
        withdrawals: { ...state.withdrawals, [event.data.withdrawal_id]: { status: 'pending', amountKobo: event.data.amount_kobo } },
      };
    case 'WithdrawalSent':
      return withStatus(state, event.data.withdrawal_id, 'processing');
    case 'WithdrawalSucceeded':
      return withStatus(state, event.data.withdrawal_id, 'successful');
    case 'WithdrawalFailed':
      return { ...withStatus(state, event.data.withdrawal_id, 'failed'), debitedKobo: state.debitedKobo - event.data.returned_kobo };
    case 'WalletPaymentMade':
      return { ...state, debitedKobo: state.debitedKobo + event.data.amount_kobo, walletPayments: [...state.walletPayments, event.data.payment_id] };
    case 'WithdrawalAmountSet':
      return { ...state, standingAmountKobo: event.data.amount_kobo };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

function requestWithdrawal(command: Extract<WalletCommand, { type: 'RequestWithdrawal' }>['data'], state: WalletState): WalletEvent[] {
  if (state.withdrawals[command.withdrawal_id]) return [];
  const amount = command.amount_kobo;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RuleViolation(walletMessages.invalidAmount, 'amount');
  const isPayout = command.kind === 'payout';
  const { rules } = command;
  if (!isPayout) {
    if (!command.member_active) throw new RuleViolation(walletMessages.inactive);
    if (amount < Math.max(rules.minimum_kobo, 1)) throw new RuleViolation(walletMessages.belowMinimum(rules.minimum_kobo), 'amount');
    if (rules.maximum_kobo > 0 && amount > rules.maximum_kobo) throw new RuleViolation(walletMessages.aboveMaximum(rules.maximum_kobo), 'amount');
  }
  if (!command.bank) throw new RuleViolation(isPayout ? walletMessages.memberHasNoBankDetails : walletMessages.noBankDetails, 'bank_account_number');
  const balance = balanceOf(state);
  if (amount > balance) throw new RuleViolation(walletMessages.insufficient, 'amount');
  const fee = isPayout ? 0 : withdrawalFee(amount, rules);
  if (fee >= amount) throw new RuleViolation(walletMessages.feeNotCovered(fee), 'amount');
  const feeInputs: FeeInputs | null = isPayout
    ? null
    : { charge_type: rules.charge_type, charge_percent: rules.charge_percent, charge_flat_kobo: rules.charge_flat_kobo, charge_cap_kobo: rules.charge_cap_kobo };
  const requested: WithdrawalRequested = {
    type: 'WithdrawalRequested',
    data: {
      withdrawal_id: command.withdrawal_id,
      member_id: command.member_id,
      kind: command.kind,
      amount_kobo: amount,
      fee_kobo: fee,
      net_kobo: amount - fee,
      bank: command.bank,
      reason: command.reason,
      automatic: command.automatic,
      fee_inputs: feeInputs,
      balance_before_kobo: balance,
    },
  };
  return [requested];
}

/** The provider's transfer statuses that end a transfer without the money arriving (reference §4.7). */
const UNSUCCESSFUL_TRANSFER_STATUSES = ['failed', 'reversed', 'abandoned', 'blocked', 'rejected'];

function failed(state: WalletState, memberId: string, withdrawalId: string, outcome: WithdrawalFailed['data']['outcome'], reason: string, via: WithdrawalFailed['data']['via']): WithdrawalFailed {
  return { type: 'WithdrawalFailed', data: { withdrawal_id: withdrawalId, member_id: memberId, outcome, reason, returned_kobo: state.withdrawals[withdrawalId]!.amountKobo, via } };
}

function decideWallet(command: WalletCommand, state: WalletState, memberId: string): WalletEvent[] {
  switch (command.type) {
    case 'RequestWithdrawal':
      return requestWithdrawal(command.data, state);

    case 'RecordTransferSent': {
      const d = command.data;
      const withdrawal = state.withdrawals[d.withdrawal_id];
      if (!withdrawal) throw new RuleViolation(walletMessages.unknownWithdrawal);
      // A webhook that came first already moved it on: the provider's answer adds nothing.
      if (withdrawal.status !== 'pending') return [];
      const sent: WalletEvent = {
        type: 'WithdrawalSent',
        data: { withdrawal_id: d.withdrawal_id, member_id: memberId, transfer_reference: d.transfer_reference, transfer_code: d.transfer_code, recipient_code: d.recipient_code, via: 'transfer_response' },
      };
      if (d.transfer_status === 'success') {
        return [sent, { type: 'WithdrawalSucceeded', data: { withdrawal_id: d.withdrawal_id, member_id: memberId, transfer_reference: d.transfer_reference, via: 'transfer_response' } }];
      }
      if (UNSUCCESSFUL_TRANSFER_STATUSES.includes(d.transfer_status)) {
        const outcome = d.transfer_status === 'reversed' ? 'reversed' : 'failed';
        return [sent, failed(state, memberId, d.withdrawal_id, outcome, `The transfer was ${d.transfer_status}.`, 'transfer_response')];
      }
      return [sent];
    }

    case 'RecordTransferOutcome': {
      const d = command.data;
      const withdrawal = state.withdrawals[d.withdrawal_id];
      if (!withdrawal) throw new RuleViolation(walletMessages.unknownWithdrawal);
      // The outcome may arrive before the provider's answer to the send was recorded.
      const sent: WalletEvent[] =
        withdrawal.status === 'pending'
          ? [{ type: 'WithdrawalSent', data: { withdrawal_id: d.withdrawal_id, member_id: memberId, transfer_reference: d.transfer_reference, transfer_code: d.transfer_code, recipient_code: null, via: d.via } }]
          : [];
      const open = withdrawal.status === 'pending' || withdrawal.status === 'processing';
      if (d.outcome === 'success') {
        if (!open) return [];
        return [...sent, { type: 'WithdrawalSucceeded', data: { withdrawal_id: d.withdrawal_id, member_id: memberId, transfer_reference: d.transfer_reference, via: d.via } }];
      }
      // A transfer reported successful can still be reversed later; the money comes back then too.
      const reversible = open || (d.outcome === 'reversed' && withdrawal.status === 'successful');
      if (!reversible) return [];
      const reason = d.reason ?? (d.outcome === 'reversed' ? 'The bank reversed the transfer.' : 'The transfer failed.');
      return [...sent, failed(state, memberId, d.withdrawal_id, d.outcome, reason, d.via)];
    }

    case 'RecordTransferRefused': {
      const d = command.data;
      const withdrawal = state.withdrawals[d.withdrawal_id];
      if (!withdrawal) throw new RuleViolation(walletMessages.unknownWithdrawal);
      if (withdrawal.status !== 'pending') return [];
      return [failed(state, memberId, d.withdrawal_id, 'refused', d.reason, 'send')];
    }

    case 'PayFromWallet': {
      const d = command.data;
      if (state.walletPayments.includes(d.payment_id)) return [];
      if (!Number.isSafeInteger(d.amount_kobo) || d.amount_kobo <= 0) throw new RuleViolation('The amount must be more than zero.', 'amount');
      const balance = balanceOf(state);
      if (d.amount_kobo > balance) throw new RuleViolation(walletMessages.insufficient, 'amount');
      return [{ type: 'WalletPaymentMade', data: { ...d, balance_before_kobo: balance } }];
    }

    case 'SetStandingWithdrawalAmount': {
      const d = command.data;
      if (!Number.isSafeInteger(d.amount_kobo) || d.amount_kobo < 0) throw new RuleViolation(walletMessages.invalidAmount, 'withdrawal_amount');
      if (d.amount_kobo > 0) {
        if (d.amount_kobo < d.rules.minimum_kobo) throw new RuleViolation(walletMessages.belowMinimum(d.rules.minimum_kobo), 'withdrawal_amount');
        if (d.rules.maximum_kobo > 0 && d.amount_kobo > d.rules.maximum_kobo) throw new RuleViolation(walletMessages.aboveMaximum(d.rules.maximum_kobo), 'withdrawal_amount');
      }
      // Setting it again to the same amount still records the member's choice: it is their say-so.
      return [{ type: 'WithdrawalAmountSet', data: { member_id: d.member_id, amount_kobo: d.amount_kobo } }];
    }

    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

/** The wallet decider for one member's stream (the member's id goes into the events it decides). */
export const walletDecider = (memberId: string): Decider<WalletState, WalletCommand, WalletStreamEvent> => ({
  initialState: initialWalletState,
  evolve: evolveWallet,
  decide: (command, state) => decideWallet(command, state, memberId),
});
