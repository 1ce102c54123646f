import { useCallback } from 'react';
import { usePermissions } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BonusGenerationRow, Settings, SettingsUpdateBody } from '@portal/services/contracts/settings';
import { api } from '../api/client';
import { useNotifyApiError, useNotifySuccess } from '../api/useNotifyApiError';
import { usePortalQuery } from '../api/usePortalQuery';

export type { BonusGenerationRow, Settings };
export type SettingName = Exclude<keyof Settings, 'id'>;

/** GET /api/settings/all: the one settings record (money in naira), shared by every page showing it. */
export const useSettings = () => usePortalQuery<Settings>('/settings/all');
/** Its cache entry, updated with the record a save answers. */
export const settingsQueryKey = ['portal', '/settings/all'] as const;

/** Only administrators change settings; finance staff read them (API.md §2). */
export const useCanEditSettings = (): boolean => {
  const { permissions } = usePermissions<'admin' | 'finance'>();
  return permissions === 'admin';
};

/**
 * Field errors for react-admin's Form from a refused call: the server's 422 names the field. Only
 * the form's own fields are kept (an error on a field the form lacks would block its next submit).
 */
export const submissionErrors = (error: unknown, fields: readonly string[]): Record<string, string> | undefined => {
  const body = (error as { body?: { errors?: Record<string, string[]> } })?.body;
  if (!body?.errors) return undefined;
  const entries = Object.entries(body.errors)
    .filter(([field]) => fields.includes(field))
    .map(([field, messages]) => [field, messages?.[0]] as const)
    .filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
};

/**
 * Sends a change through `send`, shows the server's own message (seed 002 §8) or its refusal, and
 * reloads the settings and tables. Resolves with the field errors for the form (nothing on success).
 */
export const useSaveThrough = () => {
  const queryClient = useQueryClient();
  const notifyError = useNotifyApiError();
  const notifySuccess = useNotifySuccess();
  return useCallback(
    async (send: () => Promise<{ message?: string }>, fields: readonly string[]): Promise<Record<string, string> | undefined> => {
      try {
        const answer = await send();
        notifySuccess(answer.message);
        await Promise.all([queryClient.invalidateQueries({ queryKey: settingsQueryKey }), queryClient.invalidateQueries({ queryKey: ['settings'] })]);
        return undefined;
      } catch (error) {
        await notifyError(error);
        return submissionErrors(error, fields);
      }
    },
    [queryClient, notifyError, notifySuccess],
  );
};

/** PUT /api/settings/update with the fields of one card. */
export const useUpdateSettings = () => {
  const saveThrough = useSaveThrough();
  return useCallback(
    (body: SettingsUpdateBody) => saveThrough(() => api.put<Settings>('/settings/update', body), Object.keys(body)),
    [saveThrough],
  );
};

/** The four generation tables and their seed paths (seed 002 §7). */
export type GenerationKind = 'referral' | 'upgrade' | 'unilevel' | 'stockist_upline';
export const generationPaths: Record<GenerationKind, { list: string; update: (id: number) => string }> = {
  referral: { list: '/settings/referral-bonus', update: (id) => `/settings/update-referral-bonus/${id}` },
  upgrade: { list: '/settings/upgrade-bonus', update: (id) => `/settings/upgrade-bonus/${id}/update` },
  unilevel: { list: '/settings/unilevel-bonus', update: (id) => `/settings/unilevel-bonus/${id}/update` },
  stockist_upline: { list: '/settings/stockist-upline-bonus', update: (id) => `/settings/stockist-upline-bonus/${id}` },
};

export const useGenerationTable = (kind: GenerationKind) =>
  useQuery({
    queryKey: ['settings', 'generations', kind],
    queryFn: async () => (await api.get<BonusGenerationRow[]>(generationPaths[kind].list)).data,
  });

export const GENERATIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const generationField = (n: number) => `generation_${n}_percentage` as keyof BonusGenerationRow;
