import type { DomainEvent } from '../core/event-store';

/**
 * The compensation plan's results (BUSINESS-RULES.md §3), recorded on the beneficiary's wallet
 * stream `wallet-<memberId>`. Every bonus names its cause (the event that earned it), its
 * generation where one applies, and the inputs of its formula, so a member can ask "why did I get
 * this?" and an auditor can recompute it. A bonus that would have been paid but was not is
 * recorded as withheld, with its reason, so a member can also ask "why did I not get it?".
 */
export type BonusKind =
  | 'referral'
  | 'placement'
  | 'welcome'
  | 'equilibrium'
  | 'upgrade'
  | 'repurchase'
  | 'unilevel'
  | 'loyalty'
  | 'matching'
  | 'signee'
  | 'stockist_upline'
  | 'stockist_rebate'
  | 'award_sponsor'
  | 'award_direct_downline'
  | 'global_profit'
  | 'profit_pool';

export type BonusCause = {
  event_id: string;
  event_type: string;
  stream_id: string;
  /** The member whose action earned the bonus (activated, upgraded, repurchased...). */
  member_id: string | null;
};

export type BonusFormulaInputs = Record<string, number | string | null>;

/**
 * On a credited or withheld bonus that settles one held earlier: the registration payment whose
 * decision settled it. The bonus keeps the held bonus's key, cause, amount and inputs.
 */
export type SettledHold = { payment_id: string | null; decided_by_event_id: string };

export type BonusCredited = DomainEvent<
  'BonusCredited',
  {
    kind: BonusKind;
    beneficiary_id: string;
    amount_kobo: number;
    cause: BonusCause;
    generation: number | null;
    inputs: BonusFormulaInputs;
    settles_hold?: SettledHold;
  }
>;

export type WithheldReason =
  | 'inactive_upline'
  | 'inactive_beneficiary'
  | 'matching_cap_reached'
  | 'no_second_leg'
  /** A held bonus whose registration payment an admin declined. */
  | 'payment_declined'
  /** A held bonus whose unpaid registration expired. */
  | 'registration_expired';

/**
 * A bonus earned while the beneficiary's own registration payment awaited an admin's decision
 * (BUSINESS-RULES.md §3 "Trees"): not credited yet, not lost. Approving the payment credits it
 * with these figures; declining it, or the registration expiring, withholds it with the reason.
 */
export type BonusHeld = DomainEvent<
  'BonusHeld',
  {
    kind: BonusKind;
    beneficiary_id: string;
    amount_kobo: number;
    cause: BonusCause;
    generation: number | null;
    inputs: BonusFormulaInputs;
    /** The registration payment awaiting a decision at the cause. */
    payment_id: string;
  }
>;

export type BonusWithheld = DomainEvent<
  'BonusWithheld',
  {
    kind: BonusKind;
    beneficiary_id: string;
    /** What would have been paid. */
    amount_kobo: number;
    reason: WithheldReason;
    cause: BonusCause;
    generation: number | null;
    inputs: BonusFormulaInputs;
    settles_hold?: SettledHold;
  }
>;

export type CompensationEvent = BonusCredited | BonusWithheld | BonusHeld;

/** What a bonus policy appends (Consumer.appends): the wallet's bonus events. */
export const bonusEventTypes = ['BonusCredited', 'BonusWithheld', 'BonusHeld'] as const satisfies readonly CompensationEvent['type'][];

export const walletStream = (memberId: string) => `wallet-${memberId}`;

/** A bonus is keyed by (cause event, beneficiary, kind, generation): the same key is never paid twice. */
export const bonusKey = (b: { cause: BonusCause; beneficiary_id: string; kind: BonusKind; generation: number | null }) =>
  `${b.cause.event_id}:${b.beneficiary_id}:${b.kind}:${b.generation ?? 0}`;
