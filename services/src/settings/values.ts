import { z } from 'zod';

/**
 * The company's settings record (seed 002 §3 "Settings"), as kept inside: money in kobo
 * (`*_kobo`), percentages as decimals. The API shows money in naira under the seeds' names.
 */
export const settingsValues = z.object({
  /** The username registrations fall back to when no placement is given (the company root). */
  default_referral_code: z.string(),
  /** Spillover below a full placement when the sponsor has no preference (docs/placement.md). */
  default_placement_preference: z.enum(['balanced', 'extreme_left', 'extreme_right', 'weaker_leg']).optional(),
  unit_point_value_kobo: z.number().int().nonnegative(),
  equillibrum_bonus: z.number().nonnegative(),
  loyalty_bonus_percentage: z.number().nonnegative(),
  welcome_bonus_percentage: z.number().nonnegative(),
  placement_bonus_percentage: z.number().nonnegative(),
  global_profit_value_kobo: z.number().int().nonnegative(),
  global_profit_first_percentage: z.number().nonnegative(),
  global_profit_second_percentage: z.number().nonnegative(),
  next_global_profit_share_month: z.number().int().min(1).max(12),
  next_global_profit_share_day: z.number().int().min(1).max(31),
  profit_pool_percentage: z.number().nonnegative(),
  profit_pool_duration: z.number().int().nonnegative(),
  profit_pool_days_offset: z.number().int().nonnegative(),
  profit_pool_num_of_downlines: z.number().int().nonnegative(),
  matching_bonus_total_pv: z.number().int().positive(),
  matching_bonus_percent: z.number().nonnegative(),
  repurchase_bonus_percentage: z.number().nonnegative(),
  matching_bonus_frequency: z.number().int().positive(),
  minimum_withdrawal_kobo: z.number().int().nonnegative(),
  maximum_withdrawal_kobo: z.number().int().nonnegative(),
  withdrawal_charge_type: z.enum(['percentage', 'flat']),
  /** The percentage type's charge, in percent. */
  charge: z.number().nonnegative(),
  /** The flat type's charge, in kobo. The API's `charge` shows whichever the type uses (contracts/settings.ts). */
  charge_kobo: z.number().int().nonnegative().default(0),
  withdrawal_charge_cap_kobo: z.number().int().nonnegative(),
  withdrawal_type: z.enum(['weekly', 'monthly']).nullable(),
  withdrawal_period: z.number().int().nullable(),
  company_phone: z.string(),
  company_email: z.string(),
  company_address: z.string(),
  award_winner_sponsor_bonus_percentage: z.number().nonnegative(),
  award_winner_dd_bonus_percentage: z.number().nonnegative(),
  stockist_referral_bonus_percentage: z.number().nonnegative(),
  home_page_message_subject: z.string(),
  home_page_message: z.string(),
  show_front_page_message: z.boolean(),
  general_message_subject: z.string(),
  general_message: z.string(),
});
export type SettingsValues = z.infer<typeof settingsValues>;
