import type { BonusCause, CompensationEvent } from '../compensation/events';
import { type Beneficiary, payIfActive } from '../compensation/policies';
import { percentOf } from '../core/money';

/**
 * Award bonuses (BUSINESS-RULES.md §3, the award row): when an incentive claim of worth W is
 * approved, the winner's sponsor gets pct(W, award_winner_sponsor_bonus_percentage) and each of
 * the winner's placement children gets pct(W, award_winner_dd_bonus_percentage). An inactive
 * beneficiary's share is withheld (it stays with the company), and recorded so they see why.
 * Pure: the consumer in projections.ts gathers the facts as they are when the approval is processed.
 */
export type AwardSettings = { award_winner_sponsor_bonus_percentage: number; award_winner_dd_bonus_percentage: number };

export function awardBonuses(input: {
  cause: BonusCause;
  worthKobo: number;
  incentive: { id: number; name: string };
  sponsor: Beneficiary | null;
  placementChildren: readonly Beneficiary[];
  settings: AwardSettings;
}): CompensationEvent[] {
  const { worthKobo: worth, settings } = input;
  const inputs = (percentage: number) => ({ base_kobo: worth, percentage, incentive_id: input.incentive.id, incentive: input.incentive.name });
  const sponsorShare = input.sponsor
    ? payIfActive(input.sponsor, 'award_sponsor', percentOf(worth, settings.award_winner_sponsor_bonus_percentage), input.cause, null, inputs(settings.award_winner_sponsor_bonus_percentage))
    : [];
  const childShares = input.placementChildren.flatMap((child) =>
    payIfActive(child, 'award_direct_downline', percentOf(worth, settings.award_winner_dd_bonus_percentage), input.cause, null, inputs(settings.award_winner_dd_bonus_percentage)),
  );
  return [...sponsorShare, ...childShares];
}
