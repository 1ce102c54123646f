import { formatNaira } from '../core/money';
import type { BonusKind } from './events';

/**
 * "Why did I get this?" and "why did I not?" in words, for the wallet's bonus table (seed 000
 * §2.7), from what each BonusCredited / BonusWithheld recorded: its cause and its formula's inputs.
 * One explainer per kind whose cause is not a member's action or whose formula reads differently;
 * the rest share the generic "<kind> for <whose action>, generation g: p% of ₦base".
 */
export type LedgerRow = {
  entry: string;
  kind: string;
  generation: number | null;
  reason: string | null;
  cause_type: string;
  cause_username: string | null;
  inputs: unknown;
  /** A credited or withheld line that settles a bonus held for the member's registration payment. */
  settles_hold?: boolean;
};

type Inputs = Record<string, string | number | null | undefined>;

const labels: Record<BonusKind, string> = {
  referral: 'Referral bonus', placement: 'Placement bonus', welcome: 'Welcome bonus', equilibrium: 'Equilibrium bonus', upgrade: 'Upgrade bonus',
  repurchase: 'Repurchase bonus', unilevel: 'Unilevel bonus', loyalty: 'Loyalty bonus', matching: 'Matching bonus', signee: 'Signee bonus',
  stockist_upline: 'Stockist upline bonus', stockist_rebate: 'Stockist rebate', award_sponsor: 'Award bonus (sponsor)',
  award_direct_downline: 'Award bonus (direct downline)', global_profit: 'Global profit', profit_pool: 'Profit pool',
};

export const bonusLabel = (kind: string): string => labels[kind as BonusKind] ?? kind;

const withheldReasons: Record<string, string> = {
  inactive_upline: 'Not paid: you were not active when it was earned.',
  inactive_beneficiary: 'Not paid: you were not active when it was earned.',
  matching_cap_reached: "Not paid: your package's matching cap for the cycle was reached.",
  no_second_leg: 'Not paid: you had no active second leg.',
  payment_declined: 'Not paid: it was held for your registration payment, which was declined.',
  registration_expired: 'Not paid: it was held for your registration payment, and your registration expired unpaid.',
};

const naira = (kobo: unknown) => formatNaira(Number(kobo ?? 0));
const inputsOf = (r: LedgerRow) => (r.inputs ?? {}) as Inputs;
const notPaid = (r: LedgerRow, why: Record<string, string> = withheldReasons) => why[r.reason ?? ''] ?? withheldReasons[r.reason ?? ''] ?? 'Not paid.';
function withOutcome(r: LedgerRow, paid: string, why?: Record<string, string>): string {
  if (r.entry === 'held') return `${paid} Held: it is credited when an admin approves your registration payment.`;
  if (r.entry === 'credited') return r.settles_hold ? `${paid} It was held until your registration payment was approved.` : paid;
  return `${paid} ${notPaid(r, why)}`;
}

/** Whose action caused it: "ada's activation", "ada's repurchase of ₦29,000", "ada's incentive award (Android phone)". */
function causeText(r: LedgerRow): string {
  const who = r.cause_username ?? 'a member';
  const i = inputsOf(r);
  switch (r.cause_type) {
    case 'MemberActivated':
      return `${who}'s activation`;
    case 'MemberPackageUpgraded':
      return `${who}'s upgrade`;
    case 'ProductPurchasePaid':
      return `${who}'s repurchase${i.base_kobo !== undefined ? ` of ${naira(i.base_kobo)}` : ''}`;
    case 'StockistApproved':
      return `${who}'s stockist registration${i.base_kobo !== undefined ? ` (package of ${naira(i.base_kobo)})` : ''}`;
    case 'StockPurchaseApproved':
      return `${who}'s stock purchase${i.base_kobo !== undefined ? ` of ${naira(i.base_kobo)}` : ''}`;
    case 'ProductPurchaseCollected':
      return `${who}'s order of ${naira(i.base_kobo)} you handed over`;
    case 'IncentiveClaimApproved':
      return `${who}'s incentive award${typeof i.incentive === 'string' ? ` (${i.incentive})` : ''}`;
    default:
      return `${who}'s ${r.cause_type}`;
  }
}

function generic(r: LedgerRow): string {
  const i = inputsOf(r);
  const formula = i.base_kobo !== undefined && i.percentage !== undefined ? `: ${i.percentage}% of ${naira(i.base_kobo)}` : '';
  const generation = r.generation ? `, generation ${r.generation}` : '';
  return withOutcome(r, `${bonusLabel(r.kind)} for ${causeText(r)}${generation}${formula}.`);
}

/** Matching is caused by a cycle closing (matching/policies.ts inputs). */
function matching(r: LedgerRow): string {
  const i = inputsOf(r);
  const pairs = Number(i.pairs ?? 0);
  const paid = `Matching bonus for the cycle ending ${i.cycle_end}: ${pairs} ${pairs === 1 ? 'pair' : 'pairs'} of ${i.total_pv} PV × ${naira(i.unit_point_value_kobo)} × ${i.percent}%.`;
  return withOutcome(r, paid, {
    matching_cap_reached: `Not paid: the part above your package's matching cap of ${naira(i.cap_kobo)} per cycle.`,
    inactive_beneficiary: 'Not paid: you were not active when the cycle closed.',
    no_second_leg: 'Not paid: you need an active member directly under you on each leg.',
  });
}

/** Equilibrium says which event completed the member's two active legs. */
function equilibrium(r: LedgerRow): string {
  const i = inputsOf(r);
  const paid = `Equilibrium bonus: both of your placement legs became active with ${causeText(r)}: ${i.percentage}% of your package's ${naira(i.base_kobo)}.`;
  return withOutcome(r, paid);
}

/** Periodic shares are caused by a run, not a member's action: they explain their pool (profit-sharing/policies.ts inputs). */
function globalProfit(r: LedgerRow): string {
  if (r.entry !== 'credited') return generic(r);
  const i = inputsOf(r);
  return `Global profit shared on ${i.share_date}: ${naira(i.equal_share_kobo)}, an equal part of ${i.first_percentage}% of the ${naira(i.pool_kobo)} pool among ${i.eligible_count} eligible members, plus ${naira(i.cpv_share_kobo)} for your CPV of ${i.cpv} out of ${i.total_cpv}.`;
}

function profitPool(r: LedgerRow): string {
  if (r.entry !== 'credited') return generic(r);
  const i = inputsOf(r);
  return `Profit pool for ${i.month}: ${i.percentage}% of ${naira(i.basis_kobo)} registration and upgrade payments = ${naira(i.pool_kobo)}, shared equally among ${i.qualifying_count} qualifying members.`;
}

const explainers: Partial<Record<BonusKind, (r: LedgerRow) => string>> = {
  matching,
  equilibrium,
  global_profit: globalProfit,
  profit_pool: profitPool,
};

export function explain(r: LedgerRow): string {
  return (explainers[r.kind as BonusKind] ?? generic)(r);
}
