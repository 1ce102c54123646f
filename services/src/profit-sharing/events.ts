import type { DomainEvent } from '../core/event-store';

/**
 * The periodic shares of BUSINESS-RULES.md §3 "Global profit" and "Profit pool". Each run is one
 * event on a stream named by its period, appended at expected version 0: a period is shared once,
 * whatever the number of workers or repeated jobs. The event fixes the pool and its rule's
 * parameters; the policy (projections.ts) pays the members from it.
 */

/** A global profit share: `pool_kobo` = setting.global_profit_value at the share date. */
export type GlobalProfitShared = DomainEvent<
  'GlobalProfitShared',
  { share_date: string; pool_kobo: number; first_percentage: number; second_percentage: number }
>;

export type ProfitPoolCriteria = {
  /** The profit-pool package (policies.ts `profitPoolPackageId`: the highest registration package). */
  package_id: number;
  /** At least this many active members the member sponsored. */
  min_downlines: number;
  /** Activated at least this many days before the run's date... */
  days_offset: number;
  /** ...and at most this many months before it. */
  duration_months: number;
};

/** The profit pool of `month` (YYYY-MM): pct(that month's registration and upgrade payments). */
export type ProfitPoolShared = DomainEvent<
  'ProfitPoolShared',
  { month: string; basis_kobo: number; percentage: number; pool_kobo: number; criteria: ProfitPoolCriteria }
>;

export type ProfitSharingEvent = GlobalProfitShared | ProfitPoolShared;

export const globalProfitStream = (shareDate: string) => `global-profit-${shareDate}`;
export const profitPoolStream = (month: string) => `profit-pool-${month}`;
