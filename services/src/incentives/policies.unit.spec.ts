import { describe, expect, it } from 'vitest';
import type { BonusCause, CompensationEvent } from '../compensation/events';
import { type AwardSettings, awardBonuses } from './policies';

const naira = (n: number) => Math.round(n * 100);
const cause: BonusCause = { event_id: 'e-approved', event_type: 'IncentiveClaimApproved', stream_id: 'incentive-claim-c1', member_id: 'winner' };
/** The demo company's settings: sponsor 5%, each direct downline 2%. */
const settings: AwardSettings = { award_winner_sponsor_bonus_percentage: 5, award_winner_dd_bonus_percentage: 2 };
const phone = { id: 2, name: 'Android phone' };

const paid = (kind: 'award_sponsor' | 'award_direct_downline', beneficiary: string, amountKobo: number, percentage: number, worthKobo: number): CompensationEvent => ({
  type: 'BonusCredited',
  data: { kind, beneficiary_id: beneficiary, amount_kobo: amountKobo, cause, generation: null, inputs: { base_kobo: worthKobo, percentage, incentive_id: 2, incentive: 'Android phone' } },
});

describe('award bonuses on an approved incentive claim', () => {
  it('₦120,000 approved: sponsor 5% = ₦6,000, each of two placement children 2% = ₦2,400', () => {
    const decisions = awardBonuses({
      cause,
      worthKobo: naira(120_000),
      incentive: phone,
      sponsor: { id: 'sponsor', active: true },
      placementChildren: [{ id: 'left', active: true }, { id: 'right', active: true }],
      settings,
    });
    expect(decisions).toEqual([
      paid('award_sponsor', 'sponsor', naira(6_000), 5, naira(120_000)),
      paid('award_direct_downline', 'left', naira(2_400), 2, naira(120_000)),
      paid('award_direct_downline', 'right', naira(2_400), 2, naira(120_000)),
    ]);
  });

  it('an inactive right child: its 2% of ₦120,000 = ₦2,400 is withheld (inactive_upline), not passed to anyone', () => {
    const decisions = awardBonuses({
      cause,
      worthKobo: naira(120_000),
      incentive: phone,
      sponsor: { id: 'sponsor', active: true },
      placementChildren: [{ id: 'left', active: true }, { id: 'right', active: false }],
      settings,
    });
    expect(decisions.map((d) => [d.type, d.data.beneficiary_id, d.data.amount_kobo])).toEqual([
      ['BonusCredited', 'sponsor', naira(6_000)],
      ['BonusCredited', 'left', naira(2_400)],
      ['BonusWithheld', 'right', naira(2_400)],
    ]);
    expect(decisions[2]).toMatchObject({ type: 'BonusWithheld', data: { reason: 'inactive_upline', kind: 'award_direct_downline' } });
  });

  it('an inactive sponsor: 5% of ₦15,000 = ₦750 withheld; a winner without placement children pays no downline share', () => {
    const decisions = awardBonuses({ cause, worthKobo: naira(15_000), incentive: phone, sponsor: { id: 'sponsor', active: false }, placementChildren: [], settings });
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ type: 'BonusWithheld', data: { kind: 'award_sponsor', beneficiary_id: 'sponsor', amount_kobo: naira(750), reason: 'inactive_upline' } });
  });

  it('the company root has no sponsor: only the children are paid', () => {
    const decisions = awardBonuses({ cause, worthKobo: naira(120_000), incentive: phone, sponsor: null, placementChildren: [{ id: 'left', active: true }], settings });
    expect(decisions).toEqual([paid('award_direct_downline', 'left', naira(2_400), 2, naira(120_000))]);
  });

  it('rounding down to the kobo: 2.5% of ₦10,000.33 = ₦250.00825 → ₦250.00 (25,000 kobo); the company keeps the fraction', () => {
    const decisions = awardBonuses({
      cause,
      worthKobo: 1_000_033,
      incentive: phone,
      sponsor: { id: 'sponsor', active: true },
      placementChildren: [],
      settings: { award_winner_sponsor_bonus_percentage: 2.5, award_winner_dd_bonus_percentage: 0 },
    });
    expect(decisions.map((d) => d.data.amount_kobo)).toEqual([25_000]);
  });

  it('0% settings pay and withhold nothing', () => {
    const decisions = awardBonuses({
      cause,
      worthKobo: naira(120_000),
      incentive: phone,
      sponsor: { id: 'sponsor', active: true },
      placementChildren: [{ id: 'left', active: false }],
      settings: { award_winner_sponsor_bonus_percentage: 0, award_winner_dd_bonus_percentage: 0 },
    });
    expect(decisions).toEqual([]);
  });
});
