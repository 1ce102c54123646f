import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { earningsApi, type MemberIncentiveClaim, type WalletBalance } from './earnings';

export const earningsKeys = {
  /** Everything one member earned, claimed or withdrew: invalidated together after a change. */
  all: (memberId: string) => ['earnings', memberId] as const,
  bonusStats: (memberId: string) => ['earnings', memberId, 'bonus-stats'] as const,
  walletBalance: (memberId: string) => ['earnings', memberId, 'wallet-balance'] as const,
  bonuses: (memberId: string, page: number) => ['earnings', memberId, 'bonuses', page] as const,
  heldBonuses: (memberId: string) => ['earnings', memberId, 'held-bonuses'] as const,
  globalProfits: (memberId: string, page: number) => ['earnings', memberId, 'global-profits', page] as const,
  totalPv: (memberId: string) => ['earnings', memberId, 'total-pv'] as const,
  matchingStatus: (memberId: string) => ['earnings', memberId, 'matching-status'] as const,
  incentives: (memberId: string) => ['earnings', memberId, 'incentives'] as const,
  currentIncentive: (memberId: string) => ['earnings', memberId, 'incentives', 'current'] as const,
  claims: (memberId: string) => ['earnings', memberId, 'incentives', 'claims'] as const,
  withdrawals: (memberId: string, page: number) => ['earnings', memberId, 'withdrawals', page] as const,
  settings: ['settings', 'all'] as const,
  rankBadge: (rankId: number) => ['ranks', 'badge', rankId] as const,
};

// Each query's options are also started before its page renders (page-data.ts), so they are shared.
export const bonusStatsQuery = (memberId: string) =>
  queryOptions({ queryKey: earningsKeys.bonusStats(memberId), queryFn: async ({ signal }) => (await earningsApi.bonusStats(memberId, signal)).data });

export function useBonusStats(memberId: string) {
  return useQuery(bonusStatsQuery(memberId));
}

/**
 * A debit the member has just made (a withdrawal, a payment from the wallet). The server records
 * it at once, but the wallet's totals are the worker's `wallet-ledger` projection, which can take
 * some seconds to follow; until its answer counts the debit, the balance shown takes it off itself
 * and is asked for again every few seconds (walletDebited).
 */
interface PendingDebit {
  field: 'total_withdrawn' | 'total_spent';
  amount: number;
  /** The server's figure once it counts this debit. */
  reaches: number;
  /** After this the server's word is taken as it is, caught up or not. */
  until: number;
}

const PENDING_FOR_MS = 2 * 60_000;
const RECHECK_MS = 2_000;
const pendingDebits = new Map<string, PendingDebit[]>();
/** The server's last answer per member, before any pending debit is taken off. */
const lastAnswer = new Map<string, WalletBalance>();

function stillPending(memberId: string, answer: WalletBalance | undefined): PendingDebit[] {
  const now = Date.now();
  const left = (pendingDebits.get(memberId) ?? []).filter((d) => d.until > now && (!answer || answer[d.field] < d.reaches));
  if (left.length > 0) pendingDebits.set(memberId, left);
  else pendingDebits.delete(memberId);
  return left;
}

const roundKobo = (n: number) => Math.round(n * 100) / 100;

function withPendingDebits(memberId: string, answer: WalletBalance): WalletBalance {
  const shown = { ...answer };
  for (const debit of stillPending(memberId, answer)) {
    shown[debit.field] = roundKobo(shown[debit.field] + debit.amount);
    shown.balance = roundKobo(shown.balance - debit.amount);
  }
  return shown;
}

export const walletBalanceQuery = (memberId: string) =>
  queryOptions({
    queryKey: earningsKeys.walletBalance(memberId),
    queryFn: async ({ signal }) => {
      const answer = (await earningsApi.walletBalance(memberId, signal)).data;
      lastAnswer.set(memberId, answer);
      return withPendingDebits(memberId, answer);
    },
  });

export function useWalletBalance(memberId: string) {
  return useQuery({ ...walletBalanceQuery(memberId), refetchInterval: () => (stillPending(memberId, undefined).length > 0 ? RECHECK_MS : false) });
}

/**
 * After a command that took money from the wallet succeeded: every balance on screen (the wallet's
 * figures, Withdraw now's available balance) shows it at once and follows the server until its
 * totals count it; the rest of the member's earnings and the statement are asked for again.
 * Without an earlier answer to measure from, the balance is only asked for again (and again every
 * few seconds for a while, whoever shows it).
 */
export async function walletDebited(queryClient: QueryClient, memberId: string, debit: { field: PendingDebit['field']; amount: number }): Promise<void> {
  const before = lastAnswer.get(memberId);
  const until = Date.now() + PENDING_FOR_MS;
  pendingDebits.set(memberId, [
    ...(pendingDebits.get(memberId) ?? []),
    // Unknown starting point: reaches nothing, so it only keeps the balance being asked for until `until`.
    before ? { ...debit, reaches: roundKobo(before[debit.field] + debit.amount), until } : { ...debit, amount: 0, reaches: Number.POSITIVE_INFINITY, until: Date.now() + 30_000 },
  ]);
  if (before) queryClient.setQueryData(earningsKeys.walletBalance(memberId), withPendingDebits(memberId, before));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: earningsKeys.all(memberId) }),
    queryClient.invalidateQueries({ queryKey: ['wallet-statement', memberId] }),
  ]);
}

export const bonusesQuery = (memberId: string, page: number) =>
  queryOptions({ queryKey: earningsKeys.bonuses(memberId, page), queryFn: async ({ signal }) => (await earningsApi.bonuses(memberId, page, signal)).data });

/** Server-paged, newest first; the previous page stays on screen while the next one loads. */
export function useBonuses(memberId: string, page: number) {
  return useQuery({ ...bonusesQuery(memberId, page), placeholderData: keepPreviousData });
}

/** Bonuses held until the member's registration payment is approved; re-read while it waits. */
export function useHeldBonuses(memberId: string, options: { pollMs?: number } = {}) {
  return useQuery({
    queryKey: earningsKeys.heldBonuses(memberId),
    queryFn: async ({ signal }) => (await earningsApi.heldBonuses(memberId, signal)).data,
    refetchInterval: options.pollMs,
  });
}

export const globalProfitsQuery = (memberId: string, page: number) =>
  queryOptions({ queryKey: earningsKeys.globalProfits(memberId, page), queryFn: async ({ signal }) => (await earningsApi.globalProfits(memberId, page, signal)).data });

export function useGlobalProfits(memberId: string, page: number) {
  return useQuery({ ...globalProfitsQuery(memberId, page), placeholderData: keepPreviousData });
}

export const totalPvQuery = (memberId: string) =>
  queryOptions({ queryKey: earningsKeys.totalPv(memberId), queryFn: async ({ signal }) => (await earningsApi.totalPv(memberId, signal)).data });

export function useTotalPv(memberId: string) {
  return useQuery(totalPvQuery(memberId));
}

export const currentIncentiveQuery = (memberId: string) =>
  queryOptions({ queryKey: earningsKeys.currentIncentive(memberId), queryFn: async ({ signal }) => (await earningsApi.currentIncentive(memberId, signal)).data ?? null });

export function useCurrentIncentive(memberId: string) {
  return useQuery(currentIncentiveQuery(memberId));
}

/** The claims list, whether the server answers a plain list or a paged one. */
export const incentiveClaimsQuery = (memberId: string) =>
  queryOptions({
    queryKey: earningsKeys.claims(memberId),
    queryFn: async ({ signal }): Promise<MemberIncentiveClaim[]> => {
      const data = (await earningsApi.claims(memberId, signal)).data;
      if (Array.isArray(data)) return data;
      return data && Array.isArray(data.data) ? data.data : [];
    },
  });

export function useIncentiveClaims(memberId: string) {
  return useQuery(incentiveClaimsQuery(memberId));
}

export function useRankBadge(rankId: number | null | undefined) {
  return useQuery({
    queryKey: earningsKeys.rankBadge(rankId ?? 0),
    queryFn: async ({ signal }) => (await earningsApi.rankBadge(rankId!, signal)).data,
    enabled: typeof rankId === 'number' && rankId > 0,
    staleTime: 5 * 60_000,
  });
}

export const settingsQuery = () => queryOptions({ queryKey: earningsKeys.settings, queryFn: async ({ signal }) => (await earningsApi.settings(signal)).data, staleTime: 60_000 });

export function useSettings() {
  return useQuery(settingsQuery());
}

export const withdrawalsQuery = (memberId: string, page: number) =>
  queryOptions({ queryKey: earningsKeys.withdrawals(memberId, page), queryFn: async ({ signal }) => (await earningsApi.withdrawals(memberId, page, signal)).data });

export function useWithdrawals(memberId: string, page: number) {
  return useQuery({ ...withdrawalsQuery(memberId, page), placeholderData: keepPreviousData });
}

/** GET /bonuses/matching-status: the signed-in member's legs, pairs now, last cycle and next close. */
export const matchingStatusQuery = (memberId: string) =>
  queryOptions({ queryKey: earningsKeys.matchingStatus(memberId), queryFn: async ({ signal }) => (await earningsApi.matchingStatus(signal)).data });

export function useMatchingStatus(memberId: string) {
  return useQuery(matchingStatusQuery(memberId));
}
