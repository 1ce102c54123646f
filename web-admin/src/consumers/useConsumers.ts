import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLogoutIfAccessDenied } from 'react-admin';
import type { ConsumersOverview } from '@portal/services/contracts/operators';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';

const KEY = ['portal', '/admin/consumers'];

/** The Consumers page's figures, polled every 2 s (rebuild progress, lag, workers' heartbeats). */
export const useConsumersOverview = () => {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useQuery({
    queryKey: KEY,
    queryFn: async (): Promise<ConsumersOverview> => {
      try {
        return (await api.get<ConsumersOverview>('/admin/consumers')).data;
      } catch (error) {
        await logoutIfAccessDenied(error);
        throw error;
      }
    },
    refetchInterval: 2_000,
  });
};

export type ConsumerAction = 'pause' | 'resume' | 'retry' | 'rebuild';

/** Runs an admin action on a consumer, shows the server's message and reloads the figures at once. */
export const useConsumerAction = () => {
  const queryClient = useQueryClient();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  return useMutation({
    mutationFn: async ({ name, action }: { name: string; action: ConsumerAction }) => (await api.post<unknown>(`/admin/consumers/${encodeURIComponent(name)}/${action}`, {})).message,
    onSuccess: (message) => notifySuccess(message),
    onError: (error) => notifyError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
};

/** Asks a rebuild of any read model of the registry (inline or not); the page's poll shows its progress. */
export const useReadModelRebuild = () => {
  const queryClient = useQueryClient();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  return useMutation({
    mutationFn: async (name: string) => (await api.post<unknown>(`/admin/read-models/${encodeURIComponent(name)}/rebuild`, {})).message,
    onSuccess: (message) => notifySuccess(message),
    onError: (error) => notifyError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
};
