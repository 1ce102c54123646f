import type { Settings } from '@portal/services/contracts/settings';
import type { z } from 'zod';
import type { rankBadge } from '@portal/services/contracts/catalogue';
import type { Withdrawal } from '@portal/services/contracts/wallet';
import type { CurrentIncentive, MemberIncentiveClaim } from '@portal/services/contracts/incentives';
import type { TotalPv } from '@portal/services/contracts/points';
import type { globalProfitRow } from '@portal/services/contracts/profit-sharing';
import type { MatchingStatus } from '@portal/services/contracts/matching';
import { api } from './client';
import type { Paged } from './payments';

/**
 * What a member earned and spent (seed 000 §2.5, §2.7, §7): bonuses, points, incentives and
 * withdrawals. Money arrives in naira; the shapes are the services' contracts.
 */

/** GET /bonuses/{id}/bonus-stats: per-kind totals in naira plus the qualification flags. */
export interface BonusStats {
  matching_bonus: number;
  repurchase_bonus: number;
  unilevel_bonus: number;
  upgrade_bonus: number;
  /** The signee (stockist referral) bonus. */
  stockist_ref_bonus: number;
  referral_bonus: number;
  placement_bonus: number;
  global_profit: number;
  profit_pool: number;
  welcome_bonus: number;
  equilibrium_bonus: number;
  loyalty_bonus: number;
  award_bonus: number;
  stockist_upline_bonus: number;
  stockist_rebate: number;
  /** Every kind credited (contracts/earnings.ts): the wallet's "Total bonus" is the same figure. */
  total_wallet_earned: number;
  global_profit_qualified?: boolean;
  profit_pool_qualified?: boolean;
  equilibrium_qualified?: boolean;
  loyalty_qualified?: boolean;
}

/** GET /bonuses/{id}/wallet-balance */
export interface WalletBalance {
  total_bonus: number;
  total_withheld?: number;
  /** Bonuses held until the member's own registration payment is decided (not in the balance yet). */
  total_held?: number;
  total_withdrawn: number;
  total_spent: number;
  balance: number;
}

/**
 * One row of GET /wallet/{id}/bonuses: a credited bonus, one that was not paid and why, or one held
 * until the member's registration payment is decided (once decided, the settling line replaces it).
 */
export interface BonusRow {
  id: number | string;
  /** Display name of the kind, e.g. "Referral bonus". */
  type: string;
  kind: string;
  entry: 'credited' | 'withheld' | 'held';
  amount: number;
  generation: number | null;
  cause_username?: string | null;
  explanation: string;
  created_at: string;
}

/** One line of GET /bonuses/{id}/held-bonuses: a bonus waiting for the member's payment approval. */
export type HeldBonusLine = Pick<BonusRow, 'id' | 'type' | 'kind' | 'amount' | 'generation' | 'explanation' | 'created_at'> & { cause_username: string | null };

/** GET /bonuses/{id}/held-bonuses: naira held until the member's registration payment is approved. */
export interface HeldBonuses {
  total_held: number;
  count: number;
  lines: HeldBonusLine[];
}

export type { Withdrawal, TotalPv, CurrentIncentive, MemberIncentiveClaim, MatchingStatus };
export type GlobalProfitRow = z.infer<typeof globalProfitRow>;
export type RankBadge = z.infer<typeof rankBadge>;

export const earningsApi = {
  /** The member's own matching figure explained (no id: the server answers for the signed-in member). */
  matchingStatus: (signal?: AbortSignal) => api.get<MatchingStatus>('/bonuses/matching-status', { signal, quiet: true }),
  bonusStats: (memberId: string, signal?: AbortSignal) => api.get<BonusStats>(`/bonuses/${memberId}/bonus-stats`, { signal }),
  walletBalance: (memberId: string, signal?: AbortSignal) => api.get<WalletBalance>(`/bonuses/${memberId}/wallet-balance`, { signal }),
  bonuses: (memberId: string, page: number, signal?: AbortSignal) => api.get<Paged<BonusRow>>(`/wallet/${memberId}/bonuses?page=${page}`, { signal }),
  /** Quiet: the welcome page shows nothing when the held bonuses cannot be read. */
  heldBonuses: (memberId: string, signal?: AbortSignal) => api.get<HeldBonuses>(`/bonuses/${memberId}/held-bonuses`, { signal, quiet: true }),
  /** Quiet: the table says itself when it cannot load (the list is newer than the wallet). */
  globalProfits: (memberId: string, page: number, signal?: AbortSignal) =>
    api.get<Paged<GlobalProfitRow>>(`/bonuses/${memberId}/global-profits?page=${page}`, { signal, quiet: true }),
  /** Quiet: the CPV card says itself when the points are not available. */
  totalPv: (memberId: string, signal?: AbortSignal) => api.get<TotalPv>(`/users/${memberId}/total-pv`, { signal, quiet: true }),

  currentIncentive: (memberId: string, signal?: AbortSignal) =>
    api.get<CurrentIncentive>(`/incentive-claims/${memberId}/current-incentive`, { signal, quiet: true }),
  claims: (memberId: string, signal?: AbortSignal) => api.get<MemberIncentiveClaim[] | Paged<MemberIncentiveClaim>>(`/incentive-claims/${memberId}/claims`, { signal, quiet: true }),
  claimIncentive: (memberId: string, body: { rank_id: number; incentive_id: number }) => api.post<unknown>(`/incentive-claims/${memberId}/create`, body),
  rankBadge: (rankId: number, signal?: AbortSignal) => api.get<RankBadge>(`/ranks/current-rank-badge/${rankId}`, { signal, quiet: true }),

  settings: (signal?: AbortSignal) => api.get<Settings>('/settings/all', { signal }),
  inviteGuest: (memberId: string, body: { email: string; referrer: string | null }) => api.post<null>(`/users/${memberId}/invite-guest`, body),

  withdrawals: (memberId: string, page: number, signal?: AbortSignal) => api.get<Paged<Withdrawal>>(`/withdrawals/${memberId}/user-history?page=${page}`, { signal }),
  setWithdrawalAmount: (amount: number) => api.put<{ withdrawal_amount: number }>('/users/withdrawal-amount', { withdrawal_amount: amount }),
  requestWithdrawal: (memberId: string, amount: number) => api.post<Withdrawal>(`/withdrawals/${memberId}/initiate`, { amount }),
};
