import { useQuery } from '@tanstack/react-query';
import { authApi } from './auth';
import { packagesApi } from './packages';

export const queryKeys = {
  me: ['auth', 'user'] as const,
  packages: ['packages', 'all'] as const,
  package: (id: number) => ['packages', id] as const,
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
