import { z } from 'zod';
import { pageNumber } from './fields';

/**
 * Global profit and profit pool as the portal API shows them (seed 000 §2.7, §7; seed 002 §7
 * "Bonuses"): money in naira, paged lists as `{ data, current_page, last_page, per_page, total }`.
 */

const paged = <T extends z.ZodTypeAny>(row: T) => z.object({ data: z.array(row), current_page: z.number(), last_page: z.number(), per_page: z.number(), total: z.number() });

/** GET /bonuses/{id}/global-profits: one row per share the member received. */
export const globalProfitRow = z.object({ id: z.number(), profit: z.number(), share_date: z.string(), created_at: z.string() });
export const pagedGlobalProfits = paged(globalProfitRow);

/** GET /bonuses/{id}/profit-pools: one row per monthly pool the member received (`month` = the month the pool was of). */
export const profitPoolRow = z.object({ id: z.number(), profit: z.number(), amount: z.number(), month: z.string(), created_at: z.string() });
export const pagedProfitPools = paged(profitPoolRow);

export const sharesPageQuery = z.object({ page: pageNumber });

/**
 * The admin totals' `type` (seed 002 §7 "query type", its values not shown): the period the total
 * covers on the company's calendar: all (default), today, this month, this year. Also taken by
 * GET /bonuses/bonus-stats.
 */
export const totalTypeQuery = z.object({
  type: z.enum(['all', 'today', 'month', 'year'], { error: 'The type must be one of all, today, month or year.' }).default('all'),
});

/** GET /bonuses/total-*-bonus: Σ credited (naira), how many credits, to how many members, over `type`. */
export const companyBonusTotal = z.object({
  bonus: z.number(),
  count: z.number(),
  members: z.number(),
  type: z.enum(['all', 'today', 'month', 'year']),
  /** total-global-profit-bonus only: members a share made now would be among. */
  eligible_count: z.number().optional(),
  /** total-profit-pool-bonus only: the same total under the name the seeds read (`profit_pool`). */
  profit_pool: z.number().optional(),
});

/**
 * GET /bonuses/bonus-stats?type= (admin): Σ credited per kind across all members (seed 001 §3.8)
 * over `type` (credits dated by when they were credited); the eligible count is as of now.
 */
export const companyBonusStats = z.object({
  matching_bonus_sum: z.number(),
  repurchase_bonus_sum: z.number(),
  unilevel_bonus_sum: z.number(),
  upgrade_bonus_sum: z.number(),
  referral_bonus_sum: z.number(),
  placement_bonus_sum: z.number(),
  welcome_bonus_sum: z.number(),
  equilibrium_bonus_sum: z.number(),
  loyalty_bonus_sum: z.number(),
  stockist_ref_bonus_sum: z.number(),
  stockist_upline_bonus_sum: z.number(),
  stockist_rebate_sum: z.number(),
  award_bonus_sum: z.number(),
  global_profit_sum: z.number(),
  profit_pool_sum: z.number(),
  total_bonus_sum: z.number(),
  global_profit_count: z.number(),
  profit_pool_count: z.number(),
  global_profit_eligible_count: z.number(),
  type: z.enum(['all', 'today', 'month', 'year']),
});

/** The dashboard's eligibility flags, added to GET /bonuses/{id}/bonus-stats. */
export const eligibilityFlags = z.object({
  global_profit_qualified: z.boolean(),
  profit_pool_qualified: z.boolean(),
  equilibrium_qualified: z.boolean(),
  loyalty_qualified: z.boolean(),
});
