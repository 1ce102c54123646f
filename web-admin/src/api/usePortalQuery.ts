import { useQuery } from '@tanstack/react-query';
import { useLogoutIfAccessDenied } from 'react-admin';
import { api } from './client';

/**
 * Reads one portal path (API.md §1) and unwraps its `{ success, message, data }` envelope, for the
 * back-office pages that show figures rather than react-admin resources. Keyed by path, so pages
 * reading the same path share one request and react-admin's refresh (which invalidates every query)
 * reloads it; a 401/403 ends the session as react-admin's own calls do. A null path waits.
 */
export const usePortalQuery = <T>(path: string | null, options: { retry?: boolean; staleTime?: number } = {}) => {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useQuery({
    queryKey: ['portal', path],
    queryFn: async (): Promise<T> => {
      try {
        return (await api.get<T>(path!)).data;
      } catch (error) {
        await logoutIfAccessDenied(error);
        throw error;
      }
    },
    enabled: path !== null,
    ...options,
  });
};
