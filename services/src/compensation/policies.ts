import { percentOf } from '../core/money';
import type { BonusCause, BonusCredited, BonusFormulaInputs, BonusHeld, BonusKind, BonusWithheld, CompensationEvent, WithheldReason } from './events';

/**
 * The compensation plan as pure functions (BUSINESS-RULES.md §3): given the facts at the moment a
 * cause is processed, the bonuses it pays. No database, clock or randomness; the consumer in
 * projections.ts gathers the facts and records the results.
 *
 * Trees: generation 1 is the nearest upline. Inactive uplines are skipped without compression:
 * their share is not paid to anyone (it stays with the company) and is recorded as withheld. An
 * upline whose registration payment awaits an admin's decision has it held instead.
 */
export type Beneficiary = {
  id: string;
  active: boolean;
  /** Not active, but this registration payment awaited an admin's decision at the cause: hold, do not withhold. */
  pendingPaymentId?: string | null;
};
export type Upline = Beneficiary & { packageId: number };

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

/**
 * Pays `amount` to an active beneficiary, holds it for one whose registration payment awaits a
 * decision, withholds it from anyone else; nothing when the amount is 0.
 */
export function payIfActive(beneficiary: Beneficiary, kind: BonusKind, amount: number, cause: BonusCause, generation: number | null, inputs: BonusFormulaInputs, inactiveReason: WithheldReason = 'inactive_upline'): CompensationEvent[] {
  if (amount <= 0) return [];
  const fields = { kind, beneficiary_id: beneficiary.id, amount_kobo: amount, cause, generation, inputs };
  if (beneficiary.active) return [decision('credited', fields)];
  if (beneficiary.pendingPaymentId) return [{ type: 'BonusHeld', data: { ...fields, payment_id: beneficiary.pendingPaymentId } } satisfies BonusHeld];
  return [decision('withheld', { ...fields, reason: inactiveReason })];
}

/**
 * Settles a held bonus when its registration payment is decided: credited with the cause's
 * figures when approved, withheld with the reason when declined or expired.
 */
export function settleHeldBonus(held: BonusHeld['data'], outcome: { approved: true } | { approved: false; reason: 'payment_declined' | 'registration_expired' }, decidedByEventId: string): CompensationEvent {
  const { payment_id, ...fields } = held;
  const settles_hold = { payment_id, decided_by_event_id: decidedByEventId };
  if (outcome.approved) return { type: 'BonusCredited', data: { ...fields, settles_hold } } satisfies BonusCredited;
  return { type: 'BonusWithheld', data: { ...fields, reason: outcome.reason, settles_hold } } satisfies BonusWithheld;
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
  placementParent: Beneficiary | null;
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
  member: Beneficiary & { registrationValueKobo: number };
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

// ---- repurchases and stockists (BUSINESS-RULES.md §3) ----------------------------------------

export type RepurchaseSettings = { repurchase_bonus_percentage: number; loyalty_bonus_percentage: number };

/** A generation table by package id: the percentages of generations 1..10 (unilevel, stockist upline). */
export type GenerationTables = Readonly<Record<number, readonly number[]>>;

/**
 * Generation bonuses up the sponsor chain priced by each BENEFICIARY's own package (unlike
 * referral and upgrade, priced by the package bought): generation g is paid
 * pct(base, tables[beneficiary's package][g-1]). Used by unilevel and stockist upline.
 */
export function beneficiaryPackageChainBonuses(input: {
  kind: 'unilevel' | 'stockist_upline';
  cause: BonusCause;
  baseKobo: number;
  tables: GenerationTables;
  sponsorChain: readonly Upline[];
}): CompensationEvent[] {
  return input.sponsorChain.slice(0, 10).flatMap((upline, index) => {
    const generation = index + 1;
    const percentage = input.tables[upline.packageId]?.[index] ?? 0;
    return payIfActive(upline, input.kind, percentOf(input.baseKobo, percentage), input.cause, generation, { base_kobo: input.baseKobo, percentage, package_id: upline.packageId });
  });
}

/**
 * A paid repurchase of value V by X: repurchase to X's sponsor, pct(V, repurchase_bonus_percentage);
 * unilevel to X's sponsor chain by each beneficiary's package; loyalty to X, pct(V,
 * loyalty_bonus_percentage), when X's placement parent has two placement children (paid or not:
 * the rule counts children, where equilibrium counts active ones).
 */
export function repurchaseBonuses(input: {
  cause: BonusCause;
  member: { id: string; active: boolean };
  valueKobo: number;
  /** Generation 1 is X's sponsor. */
  sponsorChain: readonly Upline[];
  unilevelTables: GenerationTables;
  /** How many placement children X's placement parent has; null when X has no placement parent. */
  placementParentChildren: number | null;
  settings: RepurchaseSettings;
}): CompensationEvent[] {
  const base = input.valueKobo;
  const sponsor = input.sponsorChain[0];
  const repurchase = sponsor
    ? payIfActive(sponsor, 'repurchase', percentOf(base, input.settings.repurchase_bonus_percentage), input.cause, null, { base_kobo: base, percentage: input.settings.repurchase_bonus_percentage })
    : [];
  const unilevel = beneficiaryPackageChainBonuses({ kind: 'unilevel', cause: input.cause, baseKobo: base, tables: input.unilevelTables, sponsorChain: input.sponsorChain });
  const loyalty =
    input.placementParentChildren !== null && input.placementParentChildren >= 2
      ? payIfActive(input.member, 'loyalty', percentOf(base, input.settings.loyalty_bonus_percentage), input.cause, null, {
          base_kobo: base,
          percentage: input.settings.loyalty_bonus_percentage,
          placement_parent_children: input.placementParentChildren,
        }, 'inactive_beneficiary')
      : [];
  return [...repurchase, ...unilevel, ...loyalty];
}

/** Approval of a stockist registration on stockist package S: the signee named in the application gets pct(S.registration_value, stockist_referral_bonus_percentage). */
export function signeeBonus(input: {
  cause: BonusCause;
  signee: Beneficiary;
  stockistPackage: { id: number; registrationValueKobo: number };
  stockistReferralPercentage: number;
}): CompensationEvent[] {
  const base = input.stockistPackage.registrationValueKobo;
  return payIfActive(input.signee, 'signee', percentOf(base, input.stockistReferralPercentage), input.cause, null, {
    base_kobo: base,
    percentage: input.stockistReferralPercentage,
    stockist_package_id: input.stockistPackage.id,
  }, 'inactive_beneficiary');
}

/** An approved stock purchase of value V by stockist X: X's sponsor chain, by each beneficiary's package in the stockist-upline table. */
export function stockistUplineBonuses(input: { cause: BonusCause; valueKobo: number; sponsorChain: readonly Upline[]; stockistUplineTables: GenerationTables }): CompensationEvent[] {
  return beneficiaryPackageChainBonuses({ kind: 'stockist_upline', cause: input.cause, baseKobo: input.valueKobo, tables: input.stockistUplineTables, sponsorChain: input.sponsorChain });
}

/** A stockist approves a member's pick-up order of value V: the stockist gets pct(V, its stockist package's sales_bonus_percentage). */
export function stockistRebate(input: {
  cause: BonusCause;
  stockist: Beneficiary;
  orderValueKobo: number;
  stockistPackage: { id: number; salesBonusPercentage: number };
}): CompensationEvent[] {
  const base = input.orderValueKobo;
  return payIfActive(input.stockist, 'stockist_rebate', percentOf(base, input.stockistPackage.salesBonusPercentage), input.cause, null, {
    base_kobo: base,
    percentage: input.stockistPackage.salesBonusPercentage,
    stockist_package_id: input.stockistPackage.id,
  }, 'inactive_beneficiary');
}
