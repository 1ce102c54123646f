import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PackagePayment } from '@portal/services/contracts/payments';
import { authApi } from './auth';
import { packagesApi } from './packages';
import { paymentsApi } from './payments';
import { profileApi } from './profile';

export const queryKeys = {
  me: ['auth', 'user'] as const,
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

/** The signed-in account (GET /api/auth/user → data). */
export function useCurrentUser(enabled = true) {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: async ({ signal }) => (await authApi.currentUser(signal)).data,
    enabled,
    staleTime: 30_000,
  });
}

export function usePackages() {
  return useQuery({
    queryKey: queryKeys.packages,
    queryFn: async ({ signal }) => {
      const data = (await packagesApi.all(signal)).data;
      return Array.isArray(data) ? data : [];
    },
    staleTime: 5 * 60_000,
  });
}

export function usePackage(id: number | null | undefined) {
  return useQuery({
    queryKey: queryKeys.package(id ?? 0),
    queryFn: async ({ signal }) => (await packagesApi.one(id!, signal)).data,
    enabled: typeof id === 'number' && id > 0,
    staleTime: 5 * 60_000,
  });
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
export function useProfileDetails(memberId: string) {
  return useQuery({
    queryKey: queryKeys.profileDetails(memberId),
    queryFn: async ({ signal }) => (await profileApi.details(memberId, signal)).data ?? null,
  });
}

/** GET /users/{id}/profile: who the member is plus the profile (fields null before one exists). */
export function useMemberProfile(memberId: string) {
  return useQuery({
    queryKey: queryKeys.memberProfile(memberId),
    queryFn: async ({ signal }) => (await profileApi.profile(memberId, signal)).data,
  });
}

export function useUpline(memberId: string) {
  return useQuery({
    queryKey: queryKeys.upline(memberId),
    queryFn: async ({ signal }) => (await profileApi.upline(memberId, signal)).data ?? null,
    staleTime: 5 * 60_000,
  });
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

export function useUpgradeHistory(memberId: string, page: number) {
  return useQuery({
    queryKey: queryKeys.upgradeHistory(memberId, page),
    queryFn: async ({ signal }) => (await paymentsApi.upgradeHistory(memberId, page, signal)).data,
    placeholderData: keepPreviousData,
  });
}

export function usePackageDifference(memberId: string, packageId: number | null) {
  return useQuery({
    queryKey: queryKeys.packageDifference(memberId, packageId ?? 0),
    queryFn: async ({ signal }) => (await paymentsApi.packageDifference(memberId, packageId!, signal)).data,
    enabled: typeof packageId === 'number' && packageId > 0,
  });
}
