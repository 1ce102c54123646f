import { z } from 'zod';
import { placementPreference } from './placement';
import { MAX_NAIRA, flag, isWholeKobo, numeric, numericOrEmpty, optionalText, percentage, requiredText, wholeNumber } from './fields';

/**
 * The company settings record as the portal API shows it and takes it (seed 002 §3 "Settings").
 *
 * Units at the API: money in naira (unit_point_value, global_profit_value, minimum_withdrawal,
 * maximum_withdrawal, withdrawal_charge_cap); `charge` is naira when withdrawal_charge_type is
 * `flat` and a percent when it is `percentage`. Inside (services/src/settings/values.ts) money is
 * kobo under `<name>_kobo`, the percent charge is `charge` and the flat charge is `charge_kobo`;
 * both are kept, so switching the type back and forth keeps each value.
 */

export const settingsMessages = {
  updated: 'Setting updated successfully',
  frontPageEnabled: 'The front page message is now shown',
  frontPageDisabled: 'The front page message is now hidden',
  nothingToUpdate: 'Please send at least one setting to change.',
  notFound: 'Setting not found.',
} as const;

export const settings = z.object({
  id: z.number(),
  equillibrum_bonus: z.number(),
  loyalty_bonus_percentage: z.number(),
  welcome_bonus_percentage: z.number(),
  placement_bonus_percentage: z.number(),
  global_profit_value: z.number(),
  global_profit_first_percentage: z.number(),
  global_profit_second_percentage: z.number(),
  next_global_profit_share_month: z.number(),
  next_global_profit_share_day: z.number(),
  profit_pool_percentage: z.number(),
  profit_pool_duration: z.number(),
  profit_pool_days_offset: z.number(),
  profit_pool_num_of_downlines: z.number(),
  matching_bonus_total_pv: z.number(),
  matching_bonus_percent: z.number(),
  repurchase_bonus_percentage: z.number(),
  matching_bonus_frequency: z.number(),
  unit_point_value: z.number(),
  minimum_withdrawal: z.number(),
  /** 0 means no maximum. */
  maximum_withdrawal: z.number(),
  withdrawal_charge_type: z.enum(['percentage', 'flat']),
  charge: z.number(),
  withdrawal_charge_cap: z.number(),
  withdrawal_type: z.enum(['weekly', 'monthly']).nullable(),
  /** Weekly: 1..7 = Sunday..Saturday; monthly: day 1..30. */
  withdrawal_period: z.number().nullable(),
  company_phone: z.string(),
  company_email: z.string(),
  company_address: z.string(),
  award_winner_sponsor_bonus_percentage: z.number(),
  award_winner_dd_bonus_percentage: z.number(),
  stockist_referral_bonus_percentage: z.number(),
  home_page_message_subject: z.string(),
  home_page_message: z.string(),
  show_front_page_message: z.boolean(),
  general_message_subject: z.string(),
  general_message: z.string(),
  /** Where a recruit spills when the sponsor has no preference of her own (docs/placement.md). */
  default_placement_preference: placementPreference,
});
export type Settings = z.infer<typeof settings>;

export type SettingName = Exclude<keyof Settings, 'id'>;
export const settingNames = Object.keys(settings.shape).filter((name) => name !== 'id') as SettingName[];

/** The front-page notice may be read before anyone signs in; every other setting needs an account. */
export const publicSettingNames: readonly SettingName[] = ['home_page_message_subject', 'home_page_message', 'show_front_page_message'];

/**
 * GET /settings/{name}: `data` is an object holding that one setting under its own name
 * (`{ "unit_point_value": 1500 }`), so a client reads `data.<name>` as it would from /settings/all.
 */
export const singleSetting = z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()]));

const bonusPercent = (label: string) => percentage(label, 'please enter a valid number');
const profitPercent = (label: string) => percentage(label, 'Please enter a valid number');
const percent = (label: string) => percentage(label);

/**
 * A naira setting kept in kobo: at most ₦10 billion and at most two decimals. A fraction of a kobo
 * is refused at the field (issue 11), never rounded away in silence.
 */
const nairaRules = (label: string, min: number, minMessage: string) => (n: z.ZodNumber) =>
  n.min(min, minMessage).max(MAX_NAIRA, `The ${label} is too large (at most ₦10,000,000,000).`);
export const fractionOfKoboMessage = (label: string) => `The ${label} may have at most two decimals (whole kobo).`;
const nairaSetting = (label: string, invalid: string, min: number, minMessage: string) =>
  numeric(invalid, nairaRules(label, min, minMessage)).refine(isWholeKobo, fractionOfKoboMessage(label));
const nairaSettingOrEmpty = (label: string, invalid: string, minMessage: string) =>
  numericOrEmpty(invalid, nairaRules(label, 0, minMessage)).refine(isWholeKobo, fractionOfKoboMessage(label));

/** PUT /settings/update: any subset of the fields; the rest keep their values. */
export const settingsUpdateBody = z
  .object({
    equillibrum_bonus: numeric('please enter a valid number', (n) => n.min(1, 'The matching (equilibrium) bonus must be at least 1.').max(100, 'The matching (equilibrium) bonus cannot be more than 100.')),
    loyalty_bonus_percentage: bonusPercent('loyalty bonus percentage'),
    welcome_bonus_percentage: bonusPercent('welcome bonus percentage'),
    placement_bonus_percentage: bonusPercent('placement bonus percentage'),
    global_profit_value: nairaSetting('global profit amount', 'Please enter a valid number', 0, 'The global profit amount cannot be negative.'),
    global_profit_first_percentage: profitPercent('global profit first percentage'),
    global_profit_second_percentage: profitPercent('global profit second percentage'),
    next_global_profit_share_month: wholeNumber('global profit share month', 1, 12),
    next_global_profit_share_day: wholeNumber('global profit share day', 1, 31),
    profit_pool_percentage: profitPercent('profit pool percentage'),
    profit_pool_duration: wholeNumber('profit pool duration', 1, 12),
    profit_pool_days_offset: wholeNumber('profit pool days offset', 1),
    profit_pool_num_of_downlines: wholeNumber('required downlines', 1),
    matching_bonus_total_pv: wholeNumber('matching bonus total PV', 1),
    matching_bonus_percent: percent('matching bonus percent'),
    repurchase_bonus_percentage: percent('repurchase bonus percentage'),
    matching_bonus_frequency: wholeNumber('matching bonus frequency (days)', 1),
    unit_point_value: nairaSetting('unit point value', 'unit point value is invalid', 1, 'The unit point value must be at least ₦1.'),
    minimum_withdrawal: nairaSettingOrEmpty('minimum withdrawal', 'minimum withdrawal is invalid', 'The minimum withdrawal cannot be negative.'),
    maximum_withdrawal: nairaSettingOrEmpty('maximum withdrawal', 'maximum withdrawal is invalid', 'The maximum withdrawal cannot be negative.'),
    withdrawal_charge_type: z.enum(['percentage', 'flat'], { error: 'The withdrawal charge type must be percentage or flat.' }),
    charge: numericOrEmpty('charge field is invalid', (n) => n.min(0, 'The charge cannot be negative.').max(MAX_NAIRA, 'The charge is too large (at most ₦10,000,000,000).')),
    withdrawal_charge_cap: nairaSettingOrEmpty('withdrawal charge cap', 'withdrawal charge cap field is invalid', 'The withdrawal charge cap cannot be negative.'),
    withdrawal_type: z.preprocess((v) => (v === '' ? null : v), z.enum(['weekly', 'monthly'], { error: 'The payout type must be weekly or monthly.' }).nullable()),
    withdrawal_period: z.preprocess(
      (v) => (v === '' ? null : typeof v === 'string' ? Number(v) : v),
      z.number({ error: 'The payout day must be a whole number.' }).int('The payout day must be a whole number.').nullable(),
    ),
    company_phone: requiredText('company phone', 50).regex(/^\+?[0-9 ()-]{7,20}$/, 'The company phone must be a valid phone number.'),
    company_email: requiredText('company email').pipe(z.email('The company email must be a valid email address.')),
    company_address: requiredText('company address', 500),
    award_winner_sponsor_bonus_percentage: percent('award winner upline bonus percentage'),
    award_winner_dd_bonus_percentage: percent('award winner direct downline bonus percentage'),
    stockist_referral_bonus_percentage: percent('stockist referral bonus percentage'),
    home_page_message_subject: optionalText('home page message subject', 255),
    home_page_message: optionalText('home page message'),
    show_front_page_message: flag('front page notification'),
    general_message_subject: optionalText('general message subject', 255),
    general_message: optionalText('general message'),
    default_placement_preference: placementPreference,
  })
  .partial()
  .superRefine((body, ctx) => {
    for (const [subject, message, label] of messagePairs) checkMessagePair(body[subject], body[message], subject, label, ctx);
    // A flat charge is naira; a percentage charge may have any decimals. With the type in force
    // instead of sent, the command checks it (settings/commands.ts).
    if (body.withdrawal_charge_type === 'flat' && body.charge !== undefined && !isWholeKobo(body.charge)) ctx.addIssue({ code: 'custom', path: ['charge'], message: fractionOfKoboMessage('flat charge') });
  });
export type SettingsUpdateBody = z.infer<typeof settingsUpdateBody>;

/**
 * A message members read needs a subject and a text, or neither (clearing it): a text without a
 * subject, or a subject without a text, is refused at the empty field (issue 11). Sent together,
 * as the back office's message forms do; the forms check with the schemas below.
 */
const messagePairs = [
  ['general_message_subject', 'general_message', 'general message'],
  ['home_page_message_subject', 'home_page_message', 'front page message'],
] as const;

function checkMessagePair(subject: string | undefined, message: string | undefined, subjectField: string, label: string, ctx: z.RefinementCtx): void {
  if (subject === undefined || message === undefined) return;
  const hasSubject = subject.trim() !== '';
  const hasMessage = message.trim() !== '';
  if (hasMessage && !hasSubject) ctx.addIssue({ code: 'custom', path: [subjectField], message: `The ${label} needs a subject.` });
  if (hasSubject && !hasMessage) ctx.addIssue({ code: 'custom', path: [subjectField.replace('_subject', '')], message: `The ${label} needs a text.` });
}

/** A cleared input may come as null from a form: the same as empty. */
const formText = (label: string, max?: number) => z.preprocess((v) => v ?? '', optionalText(label, max));

export const generalMessageForm = z
  .object({ general_message_subject: formText('general message subject', 255), general_message: formText('general message') })
  .superRefine((body, ctx) => checkMessagePair(body.general_message_subject, body.general_message, 'general_message_subject', 'general message', ctx));
export const frontPageMessageForm = z
  .object({ home_page_message_subject: formText('home page message subject', 255), home_page_message: formText('home page message') })
  .superRefine((body, ctx) => checkMessagePair(body.home_page_message_subject, body.home_page_message, 'home_page_message_subject', 'front page message', ctx));

// ---- the four bonus generation tables ------------------------------------------------------

export const bonusTableKinds = ['referral', 'upgrade', 'unilevel', 'stockist-upline'] as const;
export type BonusTableKind = (typeof bonusTableKinds)[number];

export const GENERATIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export type GenerationField = `generation_${(typeof GENERATIONS)[number]}_percentage`;
export const generationField = (generation: number) => `generation_${generation}_percentage` as GenerationField;

/** One row per registration package; `id` is the package's id. Percentages of 0 show as a dash. */
export const bonusGenerationRow = z.object({
  id: z.number(),
  /** The registration package's name. */
  name: z.string(),
  package_id: z.number(),
  ...Object.fromEntries(GENERATIONS.map((g) => [generationField(g), z.number()])),
}) as z.ZodObject<{ id: z.ZodNumber; name: z.ZodString; package_id: z.ZodNumber } & Record<GenerationField, z.ZodNumber>>;
export type BonusGenerationRow = z.infer<typeof bonusGenerationRow>;

/** Empty means 0; anything else must be a number: '{field} is not a valid number' (seed 002 §5). */
const generationPercent = (field: GenerationField) =>
  numericOrEmpty(`${field} is not a valid number`, (n) => n.min(0, `${field} must be between 0 and 100`).max(100, `${field} must be between 0 and 100`)).optional();

/** PUT bodies of the four tables: any of generation_1_percentage..generation_10_percentage. */
export const bonusGenerationBody = z.object(Object.fromEntries(GENERATIONS.map((g) => [generationField(g), generationPercent(generationField(g))]))) as z.ZodObject<
  Record<GenerationField, ReturnType<typeof generationPercent>>
>;
export type BonusGenerationBody = z.infer<typeof bonusGenerationBody>;
