import { z } from 'zod';

/**
 * Points as the portal API shows them (seed 000 "Total PV"; BUSINESS-RULES.md §3 "PV and CPV").
 * PV are whole numbers (1 PV = setting unit_point_value naira, for display only).
 */

/** GET /users/{id}/total-pv: total_pv is the CPV; zeros and nulls for a member with no PV yet. */
export const totalPv = z.object({
  total_pv: z.number(),
  personal_pv: z.number(),
  cpv: z.number(),
  /** Cumulative PV of each placement leg (never decreases; matching keeps its own carry). */
  left_pv: z.number(),
  right_pv: z.number(),
  rank_id: z.number().nullable(),
  rank_name: z.string().nullable(),
});
export type TotalPv = z.infer<typeof totalPv>;

export const pointsMessages = {
  totalPv: 'Total PV',
  totalRegistrationPv: 'Total registration PV',
  memberNotFound: 'Member not found.',
} as const;
