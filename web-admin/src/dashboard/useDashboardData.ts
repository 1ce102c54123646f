import { useLogoutIfAccessDenied } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PickupStats } from '@portal/services/contracts/pickup-stats';
import type { companyBonusStats } from '@portal/services/contracts/profit-sharing';
import type { companyFinance } from '@portal/services/contracts/wallet';
import type { Settings } from '@portal/services/contracts/settings';
import { api } from '../api/client';

export type Period = PickupStats['type'];
export const periods: readonly Period[] = ['all', 'today', 'month', 'year'];
export type { PickupStats };
export type CompanyBonusStats = z.infer<typeof companyBonusStats>;
export type CompanyFinance = z.infer<typeof companyFinance>;
export type { Settings };

/** GET one portal path and unwrap its envelope; a 401/403 ends the session as react-admin's own calls do. */
const useApiQuery = <T>(path: string) => {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useQuery({
    queryKey: ['dashboard', path],
    queryFn: async (): Promise<T> => {
      try {
        return (await api.get<T>(path)).data;
      } catch (error) {
        await logoutIfAccessDenied(error);
        throw error;
      }
    },
  });
};

/** Members registered (the company root excluded). */
export const useTotalRegistrations = () => useApiQuery<number>('/users/total-registrations');
export const useTotalActiveUsers = () => useApiQuery<number>('/users/total-active-users');
export const useTotalRegistrationPv = () => useApiQuery<number>('/users/total-registration-pv');
export const useCompanyWallet = () => useApiQuery<CompanyFinance>('/bonuses/total-company-wallet');
/** Bonus totals per kind over the period (credits dated by when they were credited), and the global profit eligible count now. */
export const useBonusStats = (period: Period) => useApiQuery<CompanyBonusStats>(`/bonuses/bonus-stats?type=${period}`);
export const usePickupStats = (period: Period) => useApiQuery<PickupStats>(`/product-purchases/pickup-stats?type=${period}`);

/** The settings record (the message fields of seed 001 §3.9); the same cache entry as the settings pages'. */
export const settingsQueryKey = ['settings', 'all'] as const;
export const useSettingsRecord = () => {
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useQuery({
    queryKey: settingsQueryKey,
    queryFn: async () => {
      try {
        return (await api.get<Settings>('/settings/all')).data;
      } catch (error) {
        await logoutIfAccessDenied(error);
        throw error;
      }
    },
  });
};

/** Counts with US grouping. */
export const formatCount = (n: number | null | undefined): string => new Intl.NumberFormat('en-US').format(Number(n ?? 0));
