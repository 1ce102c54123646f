import { z } from 'zod';
import { nairaFigure } from './fields';

/**
 * Matching cycles and the periodic shares as the back office and the member app see them
 * (issue 14 items 3 and 5). Money in naira; PV as whole numbers; dates YYYY-MM-DD (Lagos).
 */

/** Who closed a cycle or started a run: the schedule (a system actor) or an admin, with their name and e-mail. */
export const runActor = z.object({ type: z.enum(['system', 'admin', 'member', 'anonymous']), id: z.string().nullable(), name: z.string(), email: z.string().nullable() });
export type RunActor = z.infer<typeof runActor>;

/** One row of GET /admin/matching-cycles; `id` is the cycle's end date. */
export const adminMatchingCycle = z.object({
  id: z.string(),
  cycle_end: z.string(),
  frequency_days: z.number(),
  total_pv: z.number(),
  percent: z.number(),
  unit_point_value: z.number(),
  closed_at: z.string(),
  closed_by: runActor,
  paid_at: z.string().nullable(),
  members_paid: z.number(),
  members_capped: z.number(),
  members_not_qualified: z.number(),
  pairs: z.number(),
  credited: nairaFigure,
  withheld: nairaFigure,
});
export type AdminMatchingCycle = z.infer<typeof adminMatchingCycle>;

export const matchingOutcomes = ['paid', 'capped', 'not_qualified'] as const;
export const matchingReasons = ['inactive', 'no_second_leg', 'payment_pending'] as const;

/** One row of GET /admin/matching-results (a cycle's show page filters by cycle_end). */
export const adminMatchingResult = z.object({
  id: z.string(),
  cycle_end: z.string(),
  member_id: z.string(),
  username: z.string(),
  full_name: z.string(),
  outcome: z.enum(matchingOutcomes),
  reason: z.string().nullable(),
  /** The reason in words (null when paid). */
  reason_text: z.string().nullable(),
  left_pv: z.number(),
  right_pv: z.number(),
  pairs: z.number(),
  credited: nairaFigure,
  withheld: nairaFigure,
  carried_left: z.number(),
  carried_right: z.number(),
});

/** POST /admin/matching-cycles/close-due: the cycles this call closed, oldest first. */
export const closeDueResult = z.object({ closed: z.array(z.string()) });

/** One row of GET /admin/global-profit-runs; `id` is the share date. */
export const adminGlobalProfitRun = z.object({
  id: z.string(),
  share_date: z.string(),
  pool: nairaFigure,
  first_percentage: z.number(),
  second_percentage: z.number(),
  run_at: z.string(),
  run_by: runActor,
  members_paid: z.number(),
  credited: nairaFigure,
  /** pool − credited: what the floors and an empty list left with the company. */
  kept: nairaFigure,
});

/** One row of GET /admin/profit-pool-runs; `id` is the month (YYYY-MM) the pool is of. */
export const adminProfitPoolRun = z.object({
  id: z.string(),
  month: z.string(),
  basis: nairaFigure,
  percentage: z.number(),
  pool: nairaFigure,
  run_at: z.string(),
  run_by: runActor,
  members_paid: z.number(),
  credited: nairaFigure,
  kept: nairaFigure,
});

/** POST /admin/global-profit-runs/run-due and /admin/profit-pool-runs/run-due. */
export const runDueResult = z.object({ period: z.string().nullable(), ran: z.boolean() });

/**
 * GET /bonuses/matching-status: the member's own matching figure explained. Standing legs are the
 * leg volumes not yet used by paid pairs; `pairs_now` what they would make at a close now.
 */
export const matchingStatus = z.object({
  left_pv: z.number(),
  right_pv: z.number(),
  pair_pv: z.number(),
  pairs_now: z.number(),
  percent: z.number(),
  unit_point_value: z.number(),
  /** pairs_now × pair_pv × unit value × percent, before the cap (naira). */
  bonus_now: z.number(),
  /** The package's cap per cycle (naira); 0 = no cap. */
  cap: z.number(),
  /** What a close now would pay, the cap applied, if the member qualifies. */
  payable_now: z.number(),
  /** Whether a close now would pay: active with two active placement children. */
  qualified: z.boolean(),
  /** Why not, when not: 'inactive' | 'no_second_leg'. */
  not_qualified_reason: z.string().nullable(),
  /** Short text the screens show under the figures. */
  summary: z.string(),
  next_cycle_end: z.string(),
  /** The instant the next cycle closes: the midnight (Lagos) after its last day. */
  next_close_at: z.string(),
  frequency_days: z.number(),
  last_cycle: z
    .object({
      cycle_end: z.string(),
      outcome: z.enum([...matchingOutcomes, 'no_pair']),
      reason: z.string().nullable(),
      left_pv: z.number(),
      right_pv: z.number(),
      pairs: z.number(),
      credited: z.number(),
      withheld: z.number(),
      carried_left: z.number(),
      carried_right: z.number(),
      /** The result in words. */
      text: z.string(),
    })
    .nullable(),
});
export type MatchingStatus = z.infer<typeof matchingStatus>;
