import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { earningsApi, type MemberIncentiveClaim } from './earnings';

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

export const walletBalanceQuery = (memberId: string) =>
  queryOptions({ queryKey: earningsKeys.walletBalance(memberId), queryFn: async ({ signal }) => (await earningsApi.walletBalance(memberId, signal)).data });

export function useWalletBalance(memberId: string) {
  return useQuery(walletBalanceQuery(memberId));
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
