import type { z } from 'zod';
import type { PickupStats } from '@portal/services/contracts/pickup-stats';
import type { companyBonusStats } from '@portal/services/contracts/profit-sharing';
import type { companyFinance } from '@portal/services/contracts/wallet';
import { usePortalQuery } from '../api/usePortalQuery';

export type Period = PickupStats['type'];
export const periods: readonly Period[] = ['all', 'today', 'month', 'year'];
export type { PickupStats };
export type CompanyBonusStats = z.infer<typeof companyBonusStats>;
export type CompanyFinance = z.infer<typeof companyFinance>;

/** Members registered (the company root excluded). */
export const useTotalRegistrations = () => usePortalQuery<number>('/users/total-registrations');
export const useTotalActiveUsers = () => usePortalQuery<number>('/users/total-active-users');
export const useTotalRegistrationPv = () => usePortalQuery<number>('/users/total-registration-pv');
export const useCompanyWallet = () => usePortalQuery<CompanyFinance>('/bonuses/total-company-wallet');
/** Bonus totals per kind over the period (credits dated by when they were credited), and the global profit eligible count now. */
export const useBonusStats = (period: Period) => usePortalQuery<CompanyBonusStats>(`/bonuses/bonus-stats?type=${period}`);
export const usePickupStats = (period: Period) => usePortalQuery<PickupStats>(`/product-purchases/pickup-stats?type=${period}`);

/** Counts with US grouping. */
export const formatCount = (n: number | null | undefined): string => new Intl.NumberFormat('en-US').format(Number(n ?? 0));
