import { describe, expect, it } from 'vitest';
import type { BonusCause, CompensationEvent } from './events';
import { activationBonuses, equilibriumBonus, sponsorChainBonuses, type Upline } from './policies';

const settings = { welcome_bonus_percentage: 2, placement_bonus_percentage: 3, equillibrum_bonus: 2 };
const cause: BonusCause = { event_id: 'ev-activation-x', event_type: 'MemberActivated', stream_id: 'member-x', member_id: 'x' };
const referral = [10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5];
const chain = (...actives: boolean[]): Upline[] => actives.map((active, i) => ({ id: `s${i + 1}`, active, packageId: 2 }));
const credited = (kind: string, beneficiary: string, amount: number, generation: number | null = null) => ({ type: 'BonusCredited', kind, beneficiary, amount, generation });
const summary = (events: CompensationEvent[]) =>
  events.map((e) => ({ type: e.type, kind: e.data.kind, beneficiary: e.data.beneficiary_id, amount: e.data.amount_kobo, generation: e.data.generation, ...(e.type === 'BonusWithheld' ? { reason: e.data.reason } : {}) }));

describe('activation bonuses (Given X activates on Bronze ₦35,000 = 3,500,000 kobo)', () => {
  it('pays referral 10% = ₦3,500 to gen 1, 5% = ₦1,750 to gen 2, 3% = ₦1,050 to gen 3; welcome 2% = ₦700 to X; no placement bonus when the placement parent is the sponsor', () => {
    const events = activationBonuses({
      cause, member: { id: 'x', sponsorId: 's1' }, packageId: 2, registrationValueKobo: 3_500_000, referralPercentages: referral,
      sponsorChain: chain(true, true, true), placementParent: { id: 's1', active: true }, settings,
    });
    expect(summary(events)).toEqual([
      credited('referral', 's1', 350_000, 1),
      credited('referral', 's2', 175_000, 2),
      credited('referral', 's3', 105_000, 3),
      credited('welcome', 'x', 70_000),
    ]);
  });

  it('pays the placement parent 3% = ₦1,050 when it is not the sponsor', () => {
    const events = activationBonuses({
      cause, member: { id: 'x', sponsorId: 's1' }, packageId: 2, registrationValueKobo: 3_500_000, referralPercentages: referral,
      sponsorChain: chain(true), placementParent: { id: 'p', active: true }, settings,
    });
    expect(summary(events)).toContainEqual(credited('placement', 'p', 105_000));
  });

  it('withholds the share of an inactive upline without compression: gen 2 inactive keeps its ₦1,750, gen 3 still gets ₦1,050', () => {
    const events = activationBonuses({
      cause, member: { id: 'x', sponsorId: 's1' }, packageId: 2, registrationValueKobo: 3_500_000, referralPercentages: referral,
      sponsorChain: chain(true, false, true), placementParent: { id: 's1', active: true }, settings,
    });
    expect(summary(events).slice(0, 3)).toEqual([
      credited('referral', 's1', 350_000, 1),
      { type: 'BonusWithheld', kind: 'referral', beneficiary: 's2', amount: 175_000, generation: 2, reason: 'inactive_upline' },
      credited('referral', 's3', 105_000, 3),
    ]);
  });

  it('pays at most 10 generations and skips generations whose percentage is 0', () => {
    const events = sponsorChainBonuses({ kind: 'referral', cause, baseKobo: 3_500_000, percentages: [10, 0, 3], sponsorChain: chain(...Array(12).fill(true)), packageId: 2 });
    expect(summary(events).map((e) => e.generation)).toEqual([1, 3]);
  });

  it('rounds each amount down to the kobo: 0.5% of ₦15,000.01 (1,500,001 kobo) = 7,500 kobo', () => {
    const events = sponsorChainBonuses({ kind: 'referral', cause, baseKobo: 1_500_001, percentages: [0.5], sponsorChain: chain(true), packageId: 1 });
    expect(events[0]?.data.amount_kobo).toBe(7_500);
  });

  it('records the formula inputs so the amount can be recomputed', () => {
    const [first] = sponsorChainBonuses({ kind: 'upgrade', cause, baseKobo: 10_500_000, percentages: [5], sponsorChain: chain(true), packageId: 4 });
    expect(first?.data).toMatchObject({ kind: 'upgrade', amount_kobo: 525_000, inputs: { base_kobo: 10_500_000, percentage: 5, package_id: 4 }, cause });
  });
});

describe('equilibrium bonus (Given a Bronze member ₦35,000 whose two placement children are active)', () => {
  const member = { id: 'p', active: true, registrationValueKobo: 3_500_000 };
  it('pays 2% = ₦700 the first time both children are active', () => {
    const events = equilibriumBonus({ cause, member, children: [{ id: 'l', active: true }, { id: 'r', active: true }], alreadyDecided: false, settings });
    expect(summary(events)).toEqual([credited('equilibrium', 'p', 70_000)]);
  });
  it('pays nothing while one child is inactive or missing, and never twice', () => {
    expect(equilibriumBonus({ cause, member, children: [{ id: 'l', active: true }, { id: 'r', active: false }], alreadyDecided: false, settings })).toEqual([]);
    expect(equilibriumBonus({ cause, member, children: [{ id: 'l', active: true }], alreadyDecided: false, settings })).toEqual([]);
    expect(equilibriumBonus({ cause, member, children: [{ id: 'l', active: true }, { id: 'r', active: true }], alreadyDecided: true, settings })).toEqual([]);
  });
  it('withholds it from an inactive member', () => {
    const events = equilibriumBonus({ cause, member: { ...member, active: false }, children: [{ id: 'l', active: true }, { id: 'r', active: true }], alreadyDecided: false, settings });
    expect(summary(events)).toEqual([{ type: 'BonusWithheld', kind: 'equilibrium', beneficiary: 'p', amount: 70_000, generation: null, reason: 'inactive_beneficiary' }]);
  });
});
