import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BonusCredited } from '../compensation/events';
import { foldEvents } from '../core/command';
import { RuleViolation } from '../core/errors';
import { type WalletCommand, type WithdrawalRules, balanceOf, walletDecider, withdrawalFee } from './decider';
import type { BankSnapshot, WalletStreamEvent, WithdrawalRequested } from './events';

const m = 'member-1';
const decider = walletDecider(m);

/** Given past events, when a command, then these new events (or this refusal). */
const given = (past: WalletStreamEvent[]) => ({
  when: (command: WalletCommand) => {
    const state = foldEvents(decider, past);
    return {
      then: (expected: WalletStreamEvent[]) => expect(decider.decide(command, state)).toEqual(expected),
      thenThrows: (message: string) => {
        expect(() => decider.decide(command, state)).toThrow(RuleViolation);
        expect(() => decider.decide(command, state)).toThrow(message);
      },
      thenNothingHappened: () => expect(decider.decide(command, state)).toEqual([]),
      thenBalanceAfter: (kobo: number) => expect(balanceOf(foldEvents(decider, [...past, ...decider.decide(command, state)]))).toBe(kobo),
    };
  },
});

const naira = (n: number) => n * 100;
const bank: BankSnapshot = { bank_name: 'Test Bank', bank_code: '001', account_number: '0123456789', account_name: 'TEST ACCOUNT 6789' };
/** The demo company's rules: ₦2,000 to ₦500,000, 1.5% capped at ₦2,000 (flat ₦100 when flat). */
const rules: WithdrawalRules = { minimum_kobo: naira(2_000), maximum_kobo: naira(500_000), charge_type: 'percentage', charge_percent: 1.5, charge_flat_kobo: naira(100), charge_cap_kobo: naira(2_000) };
const flatRules: WithdrawalRules = { ...rules, charge_type: 'flat' };

const credited = (amountNaira: number, id = 'c'): BonusCredited => ({
  type: 'BonusCredited',
  data: { kind: 'referral', beneficiary_id: m, amount_kobo: naira(amountNaira), cause: { event_id: id, event_type: 'MemberActivated', stream_id: 'member-x', member_id: 'x' }, generation: 1, inputs: {} },
});

const withdraw = (amountNaira: number, overrides: Partial<Extract<WalletCommand, { type: 'RequestWithdrawal' }>['data']> = {}): WalletCommand => ({
  type: 'RequestWithdrawal',
  data: { withdrawal_id: 'w1', member_id: m, kind: 'withdrawal', amount_kobo: naira(amountNaira), reason: 'Wallet withdrawal', automatic: false, member_active: true, bank, rules, ...overrides },
});

const requested = (amountNaira: number, feeNaira: number, balanceBeforeNaira: number, overrides: Partial<WithdrawalRequested['data']> = {}): WithdrawalRequested => ({
  type: 'WithdrawalRequested',
  data: {
    withdrawal_id: 'w1',
    member_id: m,
    kind: 'withdrawal',
    amount_kobo: naira(amountNaira),
    fee_kobo: Math.round(feeNaira * 100),
    net_kobo: naira(amountNaira) - Math.round(feeNaira * 100),
    bank,
    reason: 'Wallet withdrawal',
    automatic: false,
    fee_inputs: { charge_type: 'percentage', charge_percent: 1.5, charge_flat_kobo: naira(100), charge_cap_kobo: naira(2_000) },
    balance_before_kobo: naira(balanceBeforeNaira),
    ...overrides,
  },
});

const sent = (via: 'transfer_response' | 'webhook' = 'transfer_response', recipient: string | null = 'RCP_1'): WalletStreamEvent => ({
  type: 'WithdrawalSent',
  data: { withdrawal_id: 'w1', member_id: m, transfer_reference: 'wdl_w1', transfer_code: 'TRF_1', recipient_code: recipient, via },
});
const succeeded = (via: 'transfer_response' | 'webhook' = 'transfer_response'): WalletStreamEvent => ({ type: 'WithdrawalSucceeded', data: { withdrawal_id: 'w1', member_id: m, transfer_reference: 'wdl_w1', via } });
const transferSent = (status: string): WalletCommand => ({ type: 'RecordTransferSent', data: { withdrawal_id: 'w1', transfer_reference: 'wdl_w1', transfer_code: 'TRF_1', recipient_code: 'RCP_1', transfer_status: status } });
const webhook = (outcome: 'success' | 'failed' | 'reversed'): WalletCommand => ({
  type: 'RecordTransferOutcome',
  data: { withdrawal_id: 'w1', outcome, transfer_reference: 'wdl_w1', transfer_code: 'TRF_1', via: 'webhook', reason: null },
});

describe('withdrawal requests: limits, balance, fee', () => {
  it('₦12,000 credited, ₦10,000 withdrawn at 1.5%: the wallet is debited ₦10,000, the fee is ₦150 and the bank gets ₦9,850; ₦2,000 stays', () => {
    given([credited(12_000)]).when(withdraw(10_000)).then([requested(10_000, 150, 12_000)]);
    given([credited(12_000)]).when(withdraw(10_000)).thenBalanceAfter(naira(2_000));
  });

  it('1.5% of ₦200,000 is ₦3,000, capped at ₦2,000: the bank gets ₦198,000', () => {
    given([credited(250_000)]).when(withdraw(200_000)).then([requested(200_000, 2_000, 250_000)]);
  });

  it('with no cap (0), 1.5% of ₦200,000 = ₦3,000 is charged in full: the bank gets ₦197,000', () => {
    const noCap = { ...rules, charge_cap_kobo: 0 };
    given([credited(250_000)])
      .when(withdraw(200_000, { rules: noCap }))
      .then([requested(200_000, 3_000, 250_000, { fee_inputs: { charge_type: 'percentage', charge_percent: 1.5, charge_flat_kobo: naira(100), charge_cap_kobo: 0 } })]);
  });

  it('a flat ₦100 on ₦5,000: the bank gets ₦4,900, whatever the amount', () => {
    const flatInputs = { charge_type: 'flat' as const, charge_percent: 1.5, charge_flat_kobo: naira(100), charge_cap_kobo: naira(2_000) };
    given([credited(5_000)]).when(withdraw(5_000, { rules: flatRules })).then([requested(5_000, 100, 5_000, { fee_inputs: flatInputs })]);
    given([credited(400_000)]).when(withdraw(400_000, { rules: flatRules })).then([requested(400_000, 100, 400_000, { fee_inputs: flatInputs })]);
  });

  it('rounds a percentage fee down to the kobo: 1.5% of ₦2,001.01 = ₦30.01515 → ₦30.01', () => {
    expect(withdrawalFee(200_101, rules)).toBe(3_001);
  });

  it('₦12,000 − ₦10,000 = ₦2,000 left: ₦2,001 more is refused as insufficient', () => {
    given([credited(12_000), requested(10_000, 150, 12_000)]).when(withdraw(2_001, { withdrawal_id: 'w2' })).thenThrows('Insufficient wallet balance.');
    given([credited(12_000), requested(10_000, 150, 12_000)]).when(withdraw(2_000, { withdrawal_id: 'w2' })).thenBalanceAfter(0);
  });

  it('an empty wallet refuses any withdrawal', () => {
    given([]).when(withdraw(2_000)).thenThrows('Insufficient wallet balance.');
  });

  it('₦1,999 is under the ₦2,000 minimum; ₦500,001 over the ₦500,000 maximum', () => {
    given([credited(600_000)]).when(withdraw(1_999)).thenThrows('The minimum withdrawal is ₦2,000.');
    given([credited(600_000)]).when(withdraw(500_001)).thenThrows('The maximum withdrawal is ₦500,000.');
  });

  it('a maximum of 0 means none: ₦600,000 of ₦600,000 is accepted (fee capped at ₦2,000)', () => {
    given([credited(600_000)]).when(withdraw(600_000, { rules: { ...rules, maximum_kobo: 0 } })).thenBalanceAfter(0);
  });

  it('refuses an inactive member and a member without verified bank details', () => {
    given([credited(12_000)]).when(withdraw(10_000, { member_active: false })).thenThrows('Only an active member can withdraw from the wallet.');
    given([credited(12_000)]).when(withdraw(10_000, { bank: null })).thenThrows('Add and verify your bank details before you withdraw.');
  });

  it('refuses an amount the fee would swallow: a flat ₦100 on ₦100', () => {
    given([credited(1_000)]).when(withdraw(100, { rules: { ...flatRules, minimum_kobo: 0 } })).thenThrows('The amount must be more than the withdrawal charge of ₦100.');
  });

  it('refuses zero, negative and fractional-kobo amounts', () => {
    given([credited(12_000)]).when(withdraw(0, { rules: { ...rules, minimum_kobo: 0 } })).thenThrows('withdrawal amount is invalid');
    given([credited(12_000)]).when(withdraw(-5)).thenThrows('withdrawal amount is invalid');
    given([credited(12_000)]).when({ ...withdraw(3_000), data: { ...(withdraw(3_000).data as object), amount_kobo: 300_000.5 } } as WalletCommand).thenThrows('withdrawal amount is invalid');
  });

  it('records a withdrawal id once: the same request again changes nothing', () => {
    given([credited(12_000), requested(10_000, 150, 12_000)]).when(withdraw(10_000)).thenNothingHappened();
  });

  it('withheld bonuses are not money in the wallet', () => {
    given([{ type: 'BonusWithheld', data: { ...credited(50_000).data, reason: 'inactive_upline' } }]).when(withdraw(2_000)).thenThrows('Insufficient wallet balance.');
  });
});

describe('admin payouts: fee-free withdrawals', () => {
  it('₦1,000 paid out of ₦12,000: no fee, no minimum, the bank gets ₦1,000, ₦11,000 stays', () => {
    given([credited(12_000)])
      .when(withdraw(1_000, { kind: 'payout', reason: 'Refund' }))
      .then([requested(1_000, 0, 12_000, { kind: 'payout', reason: 'Refund', fee_inputs: null })]);
    given([credited(12_000)]).when(withdraw(1_000, { kind: 'payout' })).thenBalanceAfter(naira(11_000));
  });

  it('may pay an inactive member, above the maximum, but never more than the balance nor without a bank account', () => {
    given([credited(600_000)]).when(withdraw(600_000, { kind: 'payout', member_active: false })).thenBalanceAfter(0);
    given([credited(1_000)]).when(withdraw(1_001, { kind: 'payout' })).thenThrows('Insufficient wallet balance.');
    given([credited(1_000)]).when(withdraw(500, { kind: 'payout', bank: null })).thenThrows('This member has no verified bank details to pay into.');
  });
});

describe('transfers: pending → processing → successful | failed (money back)', () => {
  const afterRequest = [credited(12_000), requested(10_000, 150, 12_000)];

  it('a transfer answered success: sent and successful at once; ₦2,000 stays', () => {
    given(afterRequest).when(transferSent('success')).then([sent(), succeeded()]);
    given(afterRequest).when(transferSent('success')).thenBalanceAfter(naira(2_000));
  });

  it('a transfer answered pending is processing until its webhook', () => {
    given(afterRequest).when(transferSent('pending')).then([sent()]);
    given([...afterRequest, sent()]).when(webhook('success')).then([succeeded('webhook')]);
  });

  it('transfer.failed returns the whole ₦10,000 (fee included) to the wallet: ₦2,000 + ₦10,000 = ₦12,000', () => {
    given([...afterRequest, sent()])
      .when(webhook('failed'))
      .then([{ type: 'WithdrawalFailed', data: { withdrawal_id: 'w1', member_id: m, outcome: 'failed', reason: 'The transfer failed.', returned_kobo: naira(10_000), via: 'webhook' } }]);
    given([...afterRequest, sent()]).when(webhook('failed')).thenBalanceAfter(naira(12_000));
  });

  it('transfer.reversed returns the money too, even after the transfer was reported successful', () => {
    given([...afterRequest, sent()]).when(webhook('reversed')).thenBalanceAfter(naira(12_000));
    given([...afterRequest, sent(), succeeded()])
      .when(webhook('reversed'))
      .then([{ type: 'WithdrawalFailed', data: { withdrawal_id: 'w1', member_id: m, outcome: 'reversed', reason: 'The bank reversed the transfer.', returned_kobo: naira(10_000), via: 'webhook' } }]);
  });

  it('a webhook that arrives before the transfer answer was recorded sends and settles it; the late answer then adds nothing', () => {
    given(afterRequest).when(webhook('success')).then([sent('webhook', null), succeeded('webhook')]);
    given([...afterRequest, sent('webhook', null), succeeded('webhook')]).when(transferSent('pending')).thenNothingHappened();
  });

  it('each outcome applies once: a repeated webhook changes nothing and never returns the money twice', () => {
    given([...afterRequest, sent(), succeeded()]).when(webhook('success')).thenNothingHappened();
    const failedOnce: WalletStreamEvent = { type: 'WithdrawalFailed', data: { withdrawal_id: 'w1', member_id: m, outcome: 'failed', reason: 'x', returned_kobo: naira(10_000), via: 'webhook' } };
    given([...afterRequest, sent(), failedOnce]).when(webhook('failed')).thenNothingHappened();
    given([...afterRequest, sent(), failedOnce]).when(webhook('reversed')).thenNothingHappened();
    given([...afterRequest, sent(), failedOnce]).when(webhook('success')).thenNothingHappened();
  });

  it('an answer of failed or reversed at send time returns the money at once', () => {
    given(afterRequest).when(transferSent('failed')).thenBalanceAfter(naira(12_000));
  });

  it('a transfer the provider refused before taking it returns the money; once sent it can no longer be refused', () => {
    const refuse: WalletCommand = { type: 'RecordTransferRefused', data: { withdrawal_id: 'w1', reason: 'Recipient specified is invalid' } };
    given(afterRequest)
      .when(refuse)
      .then([{ type: 'WithdrawalFailed', data: { withdrawal_id: 'w1', member_id: m, outcome: 'refused', reason: 'Recipient specified is invalid', returned_kobo: naira(10_000), via: 'send' } }]);
    given([...afterRequest, sent()]).when(refuse).thenNothingHappened();
  });

  it('refuses news of a withdrawal the wallet does not hold', () => {
    given([credited(12_000)]).when(webhook('success')).thenThrows('Withdrawal not found.');
  });
});

describe('wallet payments and the standing withdrawal amount', () => {
  const pay = (amountNaira: number, id = 'p1'): WalletCommand => ({
    type: 'PayFromWallet',
    data: { payment_id: id, member_id: m, purpose: 'upgrade', amount_kobo: naira(amountNaira), cause: { description: 'Package upgrade', package_id: 3 } },
  });

  it('pays ₦5,000 of ₦12,000 from the wallet: ₦7,000 stays; the same payment again changes nothing', () => {
    given([credited(12_000)])
      .when(pay(5_000))
      .then([{ type: 'WalletPaymentMade', data: { payment_id: 'p1', member_id: m, purpose: 'upgrade', amount_kobo: naira(5_000), balance_before_kobo: naira(12_000), cause: { description: 'Package upgrade', package_id: 3 } } }]);
    given([credited(12_000)]).when(pay(5_000)).thenBalanceAfter(naira(7_000));
    const paid = decider.decide(pay(5_000), foldEvents(decider, [credited(12_000)]));
    given([credited(12_000), ...paid]).when(pay(5_000)).thenNothingHappened();
  });

  it('refuses a wallet payment above the balance', () => {
    given([credited(4_999)]).when(pay(5_000)).thenThrows('Insufficient wallet balance.');
  });

  it('sets a standing ₦5,000 within ₦2,000–₦500,000, refuses ₦1,000, and 0 stops it', () => {
    const set = (amountNaira: number): WalletCommand => ({ type: 'SetStandingWithdrawalAmount', data: { member_id: m, amount_kobo: naira(amountNaira), rules: { minimum_kobo: rules.minimum_kobo, maximum_kobo: rules.maximum_kobo } } });
    given([]).when(set(5_000)).then([{ type: 'WithdrawalAmountSet', data: { member_id: m, amount_kobo: naira(5_000) } }]);
    given([]).when(set(1_000)).thenThrows('The minimum withdrawal is ₦2,000.');
    given([]).when(set(600_000)).thenThrows('The maximum withdrawal is ₦500,000.');
    given([]).when(set(0)).then([{ type: 'WithdrawalAmountSet', data: { member_id: m, amount_kobo: 0 } }]);
  });
});

describe('the balance, for any sequence of credits, withdrawals, transfer outcomes and wallet payments', () => {
  const amount = fc.integer({ min: 1, max: 50_000_000 });
  const operation = fc.oneof(
    fc.record({ op: fc.constant('credit' as const), amount }),
    fc.record({ op: fc.constant('withdraw' as const), amount }),
    fc.record({ op: fc.constant('payout' as const), amount }),
    fc.record({ op: fc.constant('pay' as const), amount }),
    fc.record({ op: fc.constant('outcome' as const), pick: fc.nat(), outcome: fc.constantFrom('success' as const, 'failed' as const, 'reversed' as const) }),
    fc.record({ op: fc.constant('sent' as const), pick: fc.nat(), status: fc.constantFrom('pending', 'success', 'failed', 'reversed', 'otp') }),
  );
  const anyRules: WithdrawalRules = { ...rules, minimum_kobo: 1, maximum_kobo: 0 };

  it('equals credits − debits (withdrawals not failed + wallet payments) and never goes below zero', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const log: WalletStreamEvent[] = [];
        // The model, kept apart from the decider: what was credited, and each debit with whether it came back.
        let credits = 0;
        const debits: Array<{ id: string; amount: number; returned: boolean; concluded: 'no' | 'succeeded' | 'failed' }> = [];
        let payments = 0;
        const balance = () => credits - debits.filter((d) => !d.returned).reduce((s, d) => s + d.amount, 0) - payments;
        operations.forEach((operation, index) => {
          const state = foldEvents(decider, log);
          const attempt = (command: WalletCommand): WalletStreamEvent[] => {
            try {
              return decider.decide(command, state);
            } catch (error) {
              if (error instanceof RuleViolation) return [];
              throw error;
            }
          };
          switch (operation.op) {
            case 'credit': {
              const event = credited(operation.amount / 100, `c${index}`);
              log.push(event);
              credits += event.data.amount_kobo;
              break;
            }
            case 'withdraw':
            case 'payout': {
              const kind = operation.op === 'payout' ? 'payout' : 'withdrawal';
              const request = withdraw(0) as Extract<WalletCommand, { type: 'RequestWithdrawal' }>;
              const events = attempt({ ...request, data: { ...request.data, withdrawal_id: `w${index}`, kind, amount_kobo: operation.amount, rules: anyRules } });
              const fee = kind === 'payout' ? 0 : withdrawalFee(operation.amount, anyRules);
              const allowed = operation.amount <= balance() && fee < operation.amount;
              expect(events.length).toBe(allowed ? 1 : 0);
              if (allowed) debits.push({ id: `w${index}`, amount: operation.amount, returned: false, concluded: 'no' });
              log.push(...events);
              break;
            }
            case 'pay': {
              const events = attempt({ type: 'PayFromWallet', data: { payment_id: `p${index}`, member_id: m, purpose: 'upgrade', amount_kobo: operation.amount, cause: { description: 'x', package_id: null } } });
              const allowed = operation.amount <= balance();
              expect(events.length).toBe(allowed ? 1 : 0);
              if (allowed) payments += operation.amount;
              log.push(...events);
              break;
            }
            case 'outcome':
            case 'sent': {
              const debit = debits[operation.pick % Math.max(1, debits.length)];
              if (!debit) break;
              const events =
                operation.op === 'outcome'
                  ? attempt({ type: 'RecordTransferOutcome', data: { withdrawal_id: debit.id, outcome: operation.outcome, transfer_reference: 'r', transfer_code: 't', via: 'webhook', reason: null } })
                  : attempt({ type: 'RecordTransferSent', data: { withdrawal_id: debit.id, transfer_reference: 'r', transfer_code: 't', recipient_code: null, transfer_status: operation.status } });
              for (const event of events) {
                if (event.type === 'WithdrawalFailed') {
                  expect(debit.returned).toBe(false);
                  debit.returned = true;
                  debit.concluded = 'failed';
                }
                if (event.type === 'WithdrawalSucceeded') debit.concluded = 'succeeded';
              }
              log.push(...events);
              break;
            }
          }
          const folded = balanceOf(foldEvents(decider, log));
          expect(folded).toBe(balance());
          expect(folded).toBeGreaterThanOrEqual(0);
        });
      }),
      { numRuns: 300 },
    );
  });
});
