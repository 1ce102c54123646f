import { z } from 'zod';

/** `?type=` of GET /product-purchases/pickup-stats: the period, on the company's (Lagos) calendar. */
export const pickupStatsQuery = z.object({
  type: z.enum(['all', 'today', 'month', 'year'], { error: 'The type must be one of all, today, month or year.' }).default('all'),
});

/** One calendar month (Lagos) of the chart: counts and naira per pick-up type. */
export const pickupMonth = z.object({
  month: z.string().describe('YYYY-MM'),
  registration_count: z.number(),
  upgrade_count: z.number(),
  repurchase_count: z.number(),
  registration_amount: z.number(),
  upgrade_amount: z.number(),
  repurchase_amount: z.number(),
});

/**
 * GET /product-purchases/pickup-stats (admin dashboard, seed 001 §3.8): counts and naira per
 * pick-up type over `type`, plus the last twelve months for the dashboard's chart.
 */
export const pickupStats = z.object({
  registration_count: z.number(),
  upgrade_count: z.number(),
  repurchase_count: z.number(),
  registration_amount: z.number(),
  upgrade_amount: z.number(),
  repurchase_amount: z.number(),
  type: z.enum(['all', 'today', 'month', 'year']),
  monthly: z.array(pickupMonth),
});
export type PickupStats = z.infer<typeof pickupStats>;
