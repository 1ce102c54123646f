import { describe, expect, it } from 'vitest';
import type { BonusCause, BonusHeld, CompensationEvent } from './events';
import { activationBonuses, equilibriumBonus, payIfActive, settleHeldBonus, sponsorChainBonuses, type Upline } from './policies';

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

describe('held bonuses (an upline whose registration payment awaits an admin at the cause)', () => {
  it('Given X activates on Bronze ₦35,000 under s1 (active), s2 (receipt awaiting approval) and s3 (unpaid, no receipt), Then s1 is credited 10% = ₦3,500, s2 held 5% = ₦1,750 for its payment, s3 withheld 3% = ₦1,050', () => {
    const sponsorChain: Upline[] = [
      { id: 's1', active: true, packageId: 2 },
      { id: 's2', active: false, pendingPaymentId: 'pay-s2', packageId: 2 },
      { id: 's3', active: false, pendingPaymentId: null, packageId: 2 },
    ];
    const events = sponsorChainBonuses({ kind: 'referral', cause, baseKobo: 3_500_000, percentages: referral, sponsorChain, packageId: 2 });
    expect(events.map((e) => [e.type, e.data.beneficiary_id, e.data.amount_kobo, e.type === 'BonusHeld' ? e.data.payment_id : e.type === 'BonusWithheld' ? e.data.reason : null])).toEqual([
      ['BonusCredited', 's1', 350_000, null],
      ['BonusHeld', 's2', 175_000, 'pay-s2'],
      ['BonusWithheld', 's3', 105_000, 'inactive_upline'],
    ]);
  });

  it('Given ₦1,750 held for s2, When its payment is approved, Then ₦1,750 is credited with the same cause, generation and inputs, naming the payment and the decision', () => {
    const [held] = payIfActive({ id: 's2', active: false, pendingPaymentId: 'pay-s2' }, 'referral', 175_000, cause, 2, { base_kobo: 3_500_000, percentage: 5, package_id: 2 });
    expect(held!.type).toBe('BonusHeld');
    const settled = settleHeldBonus(held!.data as BonusHeld['data'], { approved: true }, 'ev-activation-s2');
    expect(settled).toEqual({
      type: 'BonusCredited',
      data: { kind: 'referral', beneficiary_id: 's2', amount_kobo: 175_000, cause, generation: 2, inputs: { base_kobo: 3_500_000, percentage: 5, package_id: 2 }, settles_hold: { payment_id: 'pay-s2', decided_by_event_id: 'ev-activation-s2' } },
    });
  });

  it('Given ₦1,750 held for s2, When its payment is declined, Then the ₦1,750 is withheld as payment_declined (never credited)', () => {
    const [held] = payIfActive({ id: 's2', active: false, pendingPaymentId: 'pay-s2' }, 'referral', 175_000, cause, 2, {});
    const settled = settleHeldBonus(held!.data as BonusHeld['data'], { approved: false, reason: 'payment_declined' }, 'ev-declined');
    expect(settled).toMatchObject({ type: 'BonusWithheld', data: { amount_kobo: 175_000, reason: 'payment_declined', settles_hold: { payment_id: 'pay-s2' } } });
  });

  it('Given P with two active placement children while P’s own receipt awaits approval, Then P’s equilibrium 2% × ₦35,000 = ₦700 is held, not withheld', () => {
    const events = equilibriumBonus({
      cause,
      member: { id: 'p', active: false, pendingPaymentId: 'pay-p', registrationValueKobo: 3_500_000 },
      children: [{ id: 'l', active: true }, { id: 'r', active: true }],
      alreadyDecided: false,
      settings,
    });
    expect(events.map((e) => [e.type, e.data.amount_kobo])).toEqual([['BonusHeld', 70_000]]);
  });
});
