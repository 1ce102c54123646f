import { percentOf } from '../core/money';
import type { BonusCause, BonusCredited, BonusFormulaInputs, BonusKind, BonusWithheld, CompensationEvent, WithheldReason } from './events';

/**
 * The compensation plan as pure functions (BUSINESS-RULES.md §3): given the facts at the moment a
 * cause is processed, the bonuses it pays. No database, clock or randomness; the consumer in
 * projections.ts gathers the facts and records the results.
 *
 * Trees: generation 1 is the nearest upline. Inactive uplines are skipped without compression:
 * their share is not paid to anyone (it stays with the company) and is recorded as withheld.
 */
export type Upline = { id: string; active: boolean; packageId: number };

export type PlanSettings = {
  welcome_bonus_percentage: number;
  placement_bonus_percentage: number;
  equillibrum_bonus: number;
};

function decision(
  outcome: 'credited' | 'withheld',
  fields: { kind: BonusKind; beneficiary_id: string; amount_kobo: number; cause: BonusCause; generation: number | null; inputs: BonusFormulaInputs; reason?: WithheldReason },
): CompensationEvent {
  const { reason, ...rest } = fields;
  if (outcome === 'credited') return { type: 'BonusCredited', data: rest } satisfies BonusCredited;
  return { type: 'BonusWithheld', data: { ...rest, reason: reason ?? 'inactive_upline' } } satisfies BonusWithheld;
}

/** Pays or withholds `amount` to `beneficiary` by its activity; nothing when the amount is 0. */
function payIfActive(beneficiary: { id: string; active: boolean }, kind: BonusKind, amount: number, cause: BonusCause, generation: number | null, inputs: BonusFormulaInputs, inactiveReason: WithheldReason = 'inactive_upline'): CompensationEvent[] {
  if (amount <= 0) return [];
  const fields = { kind, beneficiary_id: beneficiary.id, amount_kobo: amount, cause, generation, inputs };
  return [beneficiary.active ? decision('credited', fields) : decision('withheld', { ...fields, reason: inactiveReason })];
}

/**
 * Generation bonuses up the sponsor chain: generation g is paid pct(base, percentages[g-1]).
 * Used by referral (base = registration value, percentages of the activated package) and upgrade
 * (base = the difference, percentages of the new package).
 */
export function sponsorChainBonuses(input: {
  kind: 'referral' | 'upgrade';
  cause: BonusCause;
  baseKobo: number;
  percentages: readonly number[];
  sponsorChain: readonly Upline[];
  packageId: number;
}): CompensationEvent[] {
  return input.sponsorChain.slice(0, 10).flatMap((upline, index) => {
    const generation = index + 1;
    const percentage = input.percentages[index] ?? 0;
    const amount = percentOf(input.baseKobo, percentage);
    return payIfActive(upline, input.kind, amount, input.cause, generation, { base_kobo: input.baseKobo, percentage, package_id: input.packageId });
  });
}

/**
 * Activation of X on package P (BUSINESS-RULES.md §3): referral to the sponsor chain, placement to
 * the placement parent when it is not the sponsor, welcome to X.
 */
export function activationBonuses(input: {
  cause: BonusCause;
  member: { id: string; sponsorId: string | null };
  packageId: number;
  registrationValueKobo: number;
  referralPercentages: readonly number[];
  sponsorChain: readonly Upline[];
  placementParent: { id: string; active: boolean } | null;
  settings: PlanSettings;
}): CompensationEvent[] {
  const base = input.registrationValueKobo;
  const referral = sponsorChainBonuses({ kind: 'referral', cause: input.cause, baseKobo: base, percentages: input.referralPercentages, sponsorChain: input.sponsorChain, packageId: input.packageId });
  const placement =
    input.placementParent && input.placementParent.id !== input.member.sponsorId
      ? payIfActive(input.placementParent, 'placement', percentOf(base, input.settings.placement_bonus_percentage), input.cause, null, { base_kobo: base, percentage: input.settings.placement_bonus_percentage })
      : [];
  const welcome = payIfActive({ id: input.member.id, active: true }, 'welcome', percentOf(base, input.settings.welcome_bonus_percentage), input.cause, null, {
    base_kobo: base,
    percentage: input.settings.welcome_bonus_percentage,
  });
  return [...referral, ...placement, ...welcome];
}

/**
 * Equilibrium: the first time a member has two placement children, both active, the member gets
 * pct(own package registration value, equillibrum_bonus). `alreadyDecided` is true once it was
 * paid or withheld for this member (it happens once in a member's life).
 */
export function equilibriumBonus(input: {
  cause: BonusCause;
  member: { id: string; active: boolean; registrationValueKobo: number };
  children: readonly { id: string; active: boolean }[];
  alreadyDecided: boolean;
  settings: PlanSettings;
}): CompensationEvent[] {
  if (input.alreadyDecided) return [];
  if (input.children.length < 2 || !input.children.every((child) => child.active)) return [];
  const amount = percentOf(input.member.registrationValueKobo, input.settings.equillibrum_bonus);
  return payIfActive(input.member, 'equilibrium', amount, input.cause, null, {
    base_kobo: input.member.registrationValueKobo,
    percentage: input.settings.equillibrum_bonus,
    left_child: input.children[0]?.id ?? null,
    right_child: input.children[1]?.id ?? null,
  }, 'inactive_beneficiary');
}
