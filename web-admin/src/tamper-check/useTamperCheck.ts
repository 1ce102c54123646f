import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLogoutIfAccessDenied } from 'react-admin';
import type { LatestLogVerifications, LogVerification } from '@portal/services/contracts/log-verification';
import { api } from '../api/client';

const LATEST = ['portal', '/admin/log-verifications/latest'];
const isUnderWay = (run: LogVerification | null | undefined) => run?.status === 'queued' || run?.status === 'running';

/**
 * The newest tamper check and the newest finished one; polled every second while a run is under
 * way, so the progress bar moves and the result appears when the worker finishes.
 */
export const useLatestTamperCheck = () => {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useQuery({
    queryKey: LATEST,
    queryFn: async (): Promise<LatestLogVerifications> => {
      try {
        return (await api.get<LatestLogVerifications>('/admin/log-verifications/latest')).data;
      } catch (error) {
        await logoutIfAccessDenied(error);
        throw error;
      }
    },
    refetchInterval: (query) => (isUnderWay(query.state.data?.latest) ? 1000 : false),
  });
};

/** Starts a run (or joins the one under way); the latest query then follows it. */
export const useStartTamperCheck = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api.post<LogVerification>('/admin/log-verifications')).data,
    onSuccess: (run) => {
      client.setQueryData<LatestLogVerifications>(LATEST, (previous) => ({ latest: run, last_finished: previous?.last_finished ?? null }));
      void client.invalidateQueries({ queryKey: LATEST });
    },
  });
};

export { isUnderWay };
