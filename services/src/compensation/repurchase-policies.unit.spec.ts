import { describe, expect, it } from 'vitest';
import type { BonusCause, CompensationEvent } from './events';
import { type GenerationTables, type Upline, beneficiaryPackageChainBonuses, repurchaseBonuses, signeeBonus, stockistRebate, stockistUplineBonuses } from './policies';

const cause: BonusCause = { event_id: 'ev-repurchase-x', event_type: 'ProductPurchasePaid', stream_id: 'purchase-u1', member_id: 'x' };
const settings = { repurchase_bonus_percentage: 10, loyalty_bonus_percentage: 5 };
// Unilevel by package: Starter (1) 3 generations, Bronze (2) 4, Silver (3) pays 7% at generation 1.
const unilevel: GenerationTables = {
  1: [5, 3, 2, 0, 0, 0, 0, 0, 0, 0],
  2: [5, 3, 2, 1, 0, 0, 0, 0, 0, 0],
  3: [7, 3, 2, 1, 1, 1, 0, 0, 0, 0],
};
const upline = (id: string, packageId: number, active = true): Upline => ({ id, active, packageId });
const summary = (events: CompensationEvent[]) =>
  events.map((e) => ({ type: e.type, kind: e.data.kind, beneficiary: e.data.beneficiary_id, amount: e.data.amount_kobo, generation: e.data.generation, ...(e.type === 'BonusWithheld' ? { reason: e.data.reason } : {}) }));
const credited = (kind: string, beneficiary: string, amount: number, generation: number | null = null) => ({ type: 'BonusCredited', kind, beneficiary, amount, generation });
const withheld = (kind: string, beneficiary: string, amount: number, generation: number | null, reason: string) => ({ type: 'BonusWithheld', kind, beneficiary, amount, generation, reason });

describe('repurchase bonuses (Given X repurchases V = ₦20,000 = 2,000,000 kobo)', () => {
  const x = { id: 'x', active: true };

  it('pays the sponsor repurchase 10% = ₦2,000; unilevel by each beneficiary\'s package: s1 Silver gen 1 7% = ₦1,400, s2 Bronze gen 2 3% = ₦600, s3 Starter gen 3 2% = ₦400', () => {
    const events = repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [upline('s1', 3), upline('s2', 2), upline('s3', 1)], unilevelTables: unilevel, placementParentChildren: 1, settings });
    expect(summary(events)).toEqual([
      credited('repurchase', 's1', 200_000),
      credited('unilevel', 's1', 140_000, 1),
      credited('unilevel', 's2', 60_000, 2),
      credited('unilevel', 's3', 40_000, 3),
    ]);
  });

  it('prices unilevel by the BENEFICIARY\'s package, not the buyer\'s: gen 4 on Starter (3 generations) gets 0, gen 4 on Bronze gets 1% = ₦200', () => {
    const starterAtGen4 = repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [upline('s1', 1), upline('s2', 1), upline('s3', 1), upline('s4', 1)], unilevelTables: unilevel, placementParentChildren: null, settings });
    expect(summary(starterAtGen4).filter((e) => e.generation === 4)).toEqual([]);
    const bronzeAtGen4 = repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [upline('s1', 1), upline('s2', 1), upline('s3', 1), upline('s4', 2)], unilevelTables: unilevel, placementParentChildren: null, settings });
    expect(summary(bronzeAtGen4).filter((e) => e.generation === 4)).toEqual([credited('unilevel', 's4', 20_000, 4)]);
  });

  it('pays X loyalty 5% = ₦1,000 when X\'s placement parent has two placement children, and none with one child or no parent', () => {
    const two = repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [upline('s1', 2)], unilevelTables: unilevel, placementParentChildren: 2, settings });
    expect(summary(two)).toContainEqual(credited('loyalty', 'x', 100_000));
    for (const children of [1, null]) {
      const none = repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [upline('s1', 2)], unilevelTables: unilevel, placementParentChildren: children, settings });
      expect(summary(none).filter((e) => e.kind === 'loyalty')).toEqual([]);
    }
  });

  it('withholds an inactive sponsor\'s repurchase ₦2,000 and unilevel ₦1,400 without compression: gen 2 still gets its own 3% = ₦600', () => {
    const events = repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [upline('s1', 3, false), upline('s2', 2)], unilevelTables: unilevel, placementParentChildren: 1, settings });
    expect(summary(events)).toEqual([
      withheld('repurchase', 's1', 200_000, null, 'inactive_upline'),
      withheld('unilevel', 's1', 140_000, 1, 'inactive_upline'),
      credited('unilevel', 's2', 60_000, 2),
    ]);
  });

  it('withholds loyalty ₦1,000 from X when X is no longer active', () => {
    const events = repurchaseBonuses({ cause, member: { id: 'x', active: false }, valueKobo: 2_000_000, sponsorChain: [], unilevelTables: unilevel, placementParentChildren: 2, settings });
    expect(summary(events)).toEqual([withheld('loyalty', 'x', 100_000, null, 'inactive_beneficiary')]);
  });

  it('pays nothing to anyone above when X (the company root) has no sponsor, and rounds down to the kobo: 7% of ₦85.01 (8,501 kobo) = 595 kobo', () => {
    expect(repurchaseBonuses({ cause, member: x, valueKobo: 2_000_000, sponsorChain: [], unilevelTables: unilevel, placementParentChildren: null, settings })).toEqual([]);
    const [, unilevelShare] = repurchaseBonuses({ cause, member: x, valueKobo: 8_501, sponsorChain: [upline('s1', 3)], unilevelTables: unilevel, placementParentChildren: null, settings });
    expect(unilevelShare?.data).toMatchObject({ kind: 'unilevel', amount_kobo: 595, inputs: { base_kobo: 8_501, percentage: 7, package_id: 3 }, cause });
  });

  it('pays at most 10 generations, and a package without a table row pays 0', () => {
    const everyGeneration: GenerationTables = { 6: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] };
    const chain = Array.from({ length: 12 }, (_, i) => upline(`s${i + 1}`, 6));
    expect(beneficiaryPackageChainBonuses({ kind: 'unilevel', cause, baseKobo: 2_000_000, tables: everyGeneration, sponsorChain: chain }).map((e) => e.data.generation)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(beneficiaryPackageChainBonuses({ kind: 'unilevel', cause, baseKobo: 2_000_000, tables: everyGeneration, sponsorChain: [upline('s1', 4)] })).toEqual([]);
  });
});

describe('stockist bonuses (pure; their causing events come with the stockist capability)', () => {
  const stockistCause: BonusCause = { event_id: 'ev-stockist', event_type: 'StockistApproved', stream_id: 'stockist-1', member_id: 'st' };

  it('signee: Standard Stockist ₦250,000 × 5% = ₦12,500 to the signee; withheld when the signee is inactive', () => {
    const input = { cause: stockistCause, stockistPackage: { id: 2, registrationValueKobo: 25_000_000 }, stockistReferralPercentage: 5 };
    expect(summary(signeeBonus({ ...input, signee: { id: 'sg', active: true } }))).toEqual([credited('signee', 'sg', 1_250_000)]);
    expect(summary(signeeBonus({ ...input, signee: { id: 'sg', active: false } }))).toEqual([withheld('signee', 'sg', 1_250_000, null, 'inactive_beneficiary')]);
  });

  it('stockist upline: a ₦210,000 stock purchase pays s1 (Silver, 3%) ₦6,300 and s2 (Bronze, 2%) ₦4,200, by each beneficiary\'s package; inactive s3 withheld ₦2,100', () => {
    const tables: GenerationTables = { 2: [3, 2, 1], 3: [3, 2, 1] };
    const events = stockistUplineBonuses({ cause: stockistCause, valueKobo: 21_000_000, sponsorChain: [upline('s1', 3), upline('s2', 2), upline('s3', 2, false)], stockistUplineTables: tables });
    expect(summary(events)).toEqual([
      credited('stockist_upline', 's1', 630_000, 1),
      credited('stockist_upline', 's2', 420_000, 2),
      withheld('stockist_upline', 's3', 210_000, 3, 'inactive_upline'),
    ]);
  });

  it('stockist rebate: a ₦29,000 order approved by a Master Stockist (10%) pays the stockist ₦2,900; withheld when the stockist is inactive', () => {
    const input = { cause: stockistCause, orderValueKobo: 2_900_000, stockistPackage: { id: 3, salesBonusPercentage: 10 } };
    expect(summary(stockistRebate({ ...input, stockist: { id: 'st', active: true } }))).toEqual([credited('stockist_rebate', 'st', 290_000)]);
    expect(summary(stockistRebate({ ...input, stockist: { id: 'st', active: false } }))).toEqual([withheld('stockist_rebate', 'st', 290_000, null, 'inactive_beneficiary')]);
    const [rebate] = stockistRebate({ ...input, stockist: { id: 'st', active: true } });
    expect(rebate?.data.inputs).toEqual({ base_kobo: 2_900_000, percentage: 10, stockist_package_id: 3 });
  });
});
