import { profileRefusals } from '../contracts/profile';
import { RuleViolation } from '../core/errors';
import { PaystackError, type PaystackClient } from '../gateway/paystack';

export type Bank = { name: string; code: string; slug: string };
export type ResolvedAccount = { bank_name: string; bank_code: string; account_number: string; account_name: string };

/** The provider's bank list changes a few times a year; a page load should not call it each time. */
export const BANK_LIST_TTL_MS = 60 * 60 * 1000;

export type BankDirectory = {
  banks: () => Promise<Bank[]>;
  /** Asks the gateway whose account this is; the name returned is the bank's, never the client's. */
  resolve: (input: { bankName: string; bankCode: string | null; accountNumber: string; accountField: string }) => Promise<ResolvedAccount>;
};

const normalise = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * The gateway's banks (cached in memory for `ttlMs`) and account verification, with the gateway's
 * failures turned into answers a person can act on.
 */
export function createBankDirectory(gateway: Pick<PaystackClient, 'listBanks' | 'resolveAccount'>, clock: () => Date, ttlMs = BANK_LIST_TTL_MS): BankDirectory {
  let cached: { loadedAt: number; banks: Promise<Bank[]> } | null = null;

  function banks(): Promise<Bank[]> {
    const now = clock().getTime();
    if (cached && now - cached.loadedAt < ttlMs) return cached.banks;
    // Concurrent page loads share one call; a failed call is not kept.
    const loading = gateway.listBanks().catch((error: unknown) => {
      if (cached?.banks === loading) cached = null;
      throw gatewayRefusal(error, profileRefusals.gatewayDown, 'bank_name');
    });
    cached = { loadedAt: now, banks: loading };
    return loading;
  }

  async function findBank(input: { bankName: string; bankCode: string | null }): Promise<{ name: string; code: string }> {
    const list = await banks();
    if (input.bankCode) {
      // Codes the list does not show (the gateway's test bank) are still the gateway's to judge.
      const listed = list.find((bank) => bank.code === input.bankCode);
      return { name: listed?.name ?? input.bankName.trim(), code: input.bankCode };
    }
    const wanted = normalise(input.bankName);
    const listed = list.find((bank) => normalise(bank.name) === wanted || bank.slug === wanted);
    if (!listed) throw new RuleViolation(profileRefusals.bankUnknown, 'bank_name');
    return { name: listed.name, code: listed.code };
  }

  async function resolve(input: { bankName: string; bankCode: string | null; accountNumber: string; accountField: string }): Promise<ResolvedAccount> {
    const bank = await findBank(input);
    try {
      const account = await gateway.resolveAccount(input.accountNumber, bank.code);
      return { bank_name: bank.name, bank_code: bank.code, account_number: account.accountNumber, account_name: account.accountName };
    } catch (error) {
      throw gatewayRefusal(error, profileRefusals.accountNotVerified, input.accountField);
    }
  }

  return { banks, resolve };
}

/** The gateway said no (4xx): the person should check what they typed. No answer (timeout, 5xx): try later. */
function gatewayRefusal(error: unknown, whenRefused: string, field: string): unknown {
  if (!(error instanceof PaystackError)) return error;
  const unreachable = error.httpStatus === 0 || error.httpStatus >= 500 || error.httpStatus === 429;
  return new RuleViolation(unreachable ? profileRefusals.gatewayDown : whenRefused, field);
}
