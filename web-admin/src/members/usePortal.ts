import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

/**
 * Reads one of the portal's member paths (`/api/users/{id}/...`, `/api/bonuses/{id}/...`) that the
 * per-member panels reuse, keyed so react-admin's refresh (which invalidates every query) reloads it.
 */
export const usePortal = <T>(path: string | null) =>
  useQuery({
    queryKey: ['portal', path],
    queryFn: async () => (await api.get<T>(path!)).data,
    enabled: path !== null,
  });

/** A photo stored by the api (`storage/photos/...`) as the browser fetches it. */
export const storageUrl = (path: string | null | undefined): string | undefined => {
  if (!path) return undefined;
  if (/^(https?:|data:|blob:)/i.test(path)) return path;
  return `/${path.replace(/^\/+/, '')}`;
};
