import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getStoredUser, storeUser } from '../auth/token';
import type { PackagePayment } from '@portal/services/contracts/payments';
import { authApi } from './auth';
import { packagesApi } from './packages';
import { paymentsApi } from './payments';
import { profileApi } from './profile';

export const queryKeys = {
  me: ['auth', 'user'] as const,
  placementPreference: (memberId: string) => ['profile', memberId, 'placement-preference'] as const,
  packages: ['packages', 'all'] as const,
  package: (id: number) => ['packages', id] as const,
  banks: ['payments', 'banks'] as const,
  /** Everything about one member's profile (details, profile, upline): invalidated together. */
  profile: (memberId: string) => ['profile', memberId] as const,
  profileDetails: (memberId: string) => ['profile', memberId, 'details'] as const,
  memberProfile: (memberId: string) => ['profile', memberId, 'profile'] as const,
  upline: (memberId: string) => ['profile', memberId, 'upline'] as const,
  /** Everything about one member's package payments. */
  payments: (memberId: string) => ['payments', memberId] as const,
  packagePayments: (memberId: string) => ['payments', memberId, 'package-payments'] as const,
  upgradeHistory: (memberId: string, page: number) => ['payments', memberId, 'upgrade-history', page] as const,
  packageDifference: (memberId: string, packageId: number) => ['payments', memberId, 'package-difference', packageId] as const,
};

/**
 * The signed-in account (GET /api/auth/user → data). A paid member's reload starts from the copy kept
 * beside the token (auth/token.ts), marked stale so it is asked for again at once, and keeps the copy
 * current. page-data.ts asks for it with the first script, with the same options.
 */
export const currentUserQuery = (enabled = true) =>
  queryOptions({
    queryKey: queryKeys.me,
    queryFn: async ({ signal }) => (await authApi.currentUser(signal)).data,
    enabled,
    staleTime: 30_000,
    initialData: () => {
      if (!enabled) return undefined;
      const stored = getStoredUser<Awaited<ReturnType<typeof authApi.currentUser>>['data']>();
      // Only a paid member's copy: an unpaid one would send the member to /welcome on a stale word,
      // when an admin may have approved the payment since (the approval happens elsewhere).
      return stored && 'payment' in stored && stored.payment === 'approved' ? stored : undefined;
    },
    initialDataUpdatedAt: 0,
  });

export function useCurrentUser(enabled = true) {
  const query = useQuery(currentUserQuery(enabled));
  // The stored copy is dated 0: anything later is the server's answer, whether it came before or after mounting.
  const answered = query.dataUpdatedAt > 0;
  useEffect(() => {
    if (enabled && query.data && answered) storeUser(query.data);
  }, [enabled, query.data, answered]);
  return query;
}

export const packagesQuery = () =>
  queryOptions({
    queryKey: queryKeys.packages,
    queryFn: async ({ signal }) => {
      const data = (await packagesApi.all(signal)).data;
      return Array.isArray(data) ? data : [];
    },
    staleTime: 5 * 60_000,
  });

export function usePackages() {
  return useQuery(packagesQuery());
}

export const packageQuery = (id: number | null | undefined) =>
  queryOptions({
    queryKey: queryKeys.package(id ?? 0),
    queryFn: async ({ signal }) => (await packagesApi.one(id!, signal)).data,
    enabled: typeof id === 'number' && id > 0,
    staleTime: 5 * 60_000,
  });

export function usePackage(id: number | null | undefined) {
  return useQuery(packageQuery(id));
}

/** GET /payments/banks → [{ bank, code }]. */
export function useBanks() {
  return useQuery({
    queryKey: queryKeys.banks,
    queryFn: async ({ signal }) => {
      const data = (await paymentsApi.banks(signal)).data;
      return Array.isArray(data) ? data : [];
    },
    staleTime: 30 * 60_000,
  });
}

/** GET /users/{id}/profile-details; null until the member submits a profile or a bank account. */
export const profileDetailsQuery = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.profileDetails(memberId), queryFn: async ({ signal }) => (await profileApi.details(memberId, signal)).data ?? null });

export function useProfileDetails(memberId: string) {
  return useQuery(profileDetailsQuery(memberId));
}

/** GET /users/{id}/profile: who the member is plus the profile (fields null before one exists). */
export const memberProfileQuery = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.memberProfile(memberId), queryFn: async ({ signal }) => (await profileApi.profile(memberId, signal)).data });

export function useMemberProfile(memberId: string) {
  return useQuery(memberProfileQuery(memberId));
}

export const uplineQuery = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.upline(memberId), queryFn: async ({ signal }) => (await profileApi.upline(memberId, signal)).data ?? null, staleTime: 5 * 60_000 });

export function useUpline(memberId: string) {
  return useQuery(uplineQuery(memberId));
}

/** The member's package payments, newest first (card payments still open at the provider are left out). */
export function usePackagePayments(memberId: string, options: { pollWhile?: (rows: PackagePayment[]) => boolean; pollMs?: number } = {}) {
  const { pollWhile, pollMs = 30_000 } = options;
  return useQuery({
    queryKey: queryKeys.packagePayments(memberId),
    queryFn: async ({ signal }): Promise<PackagePayment[]> => (await paymentsApi.packagePayments(memberId, signal)).data?.data ?? [],
    refetchInterval: (query) => (pollWhile && query.state.data && pollWhile(query.state.data) ? pollMs : false),
  });
}

export const upgradeHistoryQuery = (memberId: string, page: number) =>
  queryOptions({ queryKey: queryKeys.upgradeHistory(memberId, page), queryFn: async ({ signal }) => (await paymentsApi.upgradeHistory(memberId, page, signal)).data });

export function useUpgradeHistory(memberId: string, page: number) {
  return useQuery({ ...upgradeHistoryQuery(memberId, page), placeholderData: keepPreviousData });
}

/** GET /users/{id}/placement-preference: where the member's spillover recruits go. */
export const placementPreferenceQuery = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.placementPreference(memberId), queryFn: async ({ signal }) => (await profileApi.placementPreference(memberId, signal)).data });

export function usePackageDifference(memberId: string, packageId: number | null) {
  return useQuery({
    queryKey: queryKeys.packageDifference(memberId, packageId ?? 0),
    queryFn: async ({ signal }) => (await paymentsApi.packageDifference(memberId, packageId!, signal)).data,
    enabled: typeof packageId === 'number' && packageId > 0,
  });
}
