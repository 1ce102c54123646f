import { describe, expect, it } from 'vitest';
import type { BonusCause } from '../compensation/events';
import type { MemberActivated, MemberPackageUpgraded } from '../membership/events';
import type { ProductPurchasePaid } from '../purchases/events';
import { type PlacementLink, type Rank, ancestorCredits, heldRank, pvDelta, rankAchievement } from './policies';

/** The seeded ranks (demo-company.ts): id, name, CPV points, minimum package id. */
const ranks: Rank[] = [
  { id: 1, name: 'Associate', points: 0, package_id: 1 },
  { id: 2, name: 'Supervisor', points: 500, package_id: 1 },
  { id: 3, name: 'Manager', points: 2_000, package_id: 2 },
  { id: 4, name: 'Senior Manager', points: 10_000, package_id: 3 },
  { id: 5, name: 'Director', points: 50_000, package_id: 4 },
];
const cause: BonusCause = { event_id: 'ev-1', event_type: 'MemberActivated', stream_id: 'member-d', member_id: 'd' };

const activated = (data: Partial<MemberActivated['data']>): MemberActivated => ({ type: 'MemberActivated', data: { member_id: 'x', package_id: 2, ...data } });
const upgraded = (pointValueAdded: number): MemberPackageUpgraded => ({
  type: 'MemberPackageUpgraded',
  data: { member_id: 'x', payment_id: 'p', from_package_id: 2, to_package_id: 4, difference_kobo: 10_500_000, point_value_added: pointValueAdded, pickup_allowance_kobo: 0 },
});
const purchase = (pickupType: ProductPurchasePaid['data']['pickup_type'], totalPoints: number): ProductPurchasePaid => ({
  type: 'ProductPurchasePaid',
  data: { purchase_id: 'u', member_id: 'x', pickup_type: pickupType, total_price_kobo: 2_500_000, total_points: totalPoints, lines: [], payment_method: 'wallet' },
});

describe('the PV an event adds to its member', () => {
  it('Given X pays Bronze (PV 25), When X is activated, Then X gains 25 PV', () => {
    expect(pvDelta(activated({ payment_id: 'pay-1', point_value: 25 }))).toBe(25);
  });

  it('Given the company root is activated without a payment, Then it gains 0 PV (even if a package PV is named)', () => {
    expect(pvDelta(activated({ payment_id: null, point_value: 400 }))).toBe(0);
    expect(pvDelta(activated({}))).toBe(0);
  });

  it('Given X upgrades Bronze (25) → Gold (100), Then X gains the difference 100 − 25 = 75 PV', () => {
    expect(pvDelta(upgraded(75))).toBe(75);
  });

  it('Given a paid repurchase of 2 × 3 + 1 × 2 = 8 points, Then X gains 8 PV; a registration or upgrade pick-up adds 0 (the package PV is counted already)', () => {
    expect(pvDelta(purchase('repurchase_pickup', 8))).toBe(8);
    expect(pvDelta(purchase('registration_pickup', 8))).toBe(0);
    expect(pvDelta(purchase('upgrade_pickup', 8))).toBe(0);
  });

  it('adds nothing for a negative or fractional amount rather than taking CPV down: −5 → 0, 7.9 → 7', () => {
    expect(pvDelta(upgraded(-5))).toBe(0);
    expect(pvDelta(upgraded(7.9))).toBe(7);
  });
});

describe('the leg each placement ancestor receives', () => {
  // R ─left─ A ─right─ B ─left─ X   (X sits on B's left, B on A's right, A on R's left)
  const tree: PlacementLink[] = [
    { member_id: 'R', placement_parent_id: null, placement_leg: null },
    { member_id: 'A', placement_parent_id: 'R', placement_leg: 'left' },
    { member_id: 'B', placement_parent_id: 'A', placement_leg: 'right' },
    { member_id: 'X', placement_parent_id: 'B', placement_leg: 'left' },
  ];

  it('Given X (on B’s left) gains 25 PV, Then B gets 25 on its left, A 25 on its right (B’s leg), R 25 on its left (A’s leg), each CPV + 25', () => {
    expect(ancestorCredits('X', 25, tree)).toEqual([
      { member_id: 'B', cpv: 25, left_pv: 25, right_pv: 0 },
      { member_id: 'A', cpv: 25, left_pv: 0, right_pv: 25 },
      { member_id: 'R', cpv: 25, left_pv: 25, right_pv: 0 },
    ]);
  });

  it('Given the root gains PV, or 0 PV is added, Then no ancestor receives anything', () => {
    expect(ancestorCredits('R', 25, tree)).toEqual([]);
    expect(ancestorCredits('X', 0, tree)).toEqual([]);
  });
});

describe('the rank held (highest rank with points ≤ CPV and package id ≤ the member’s package id)', () => {
  it('Given CPV 0 on Starter (package 1), Then Associate (0 points) is held', () => {
    expect(heldRank(ranks, 0, 1)?.name).toBe('Associate');
  });

  it('Given CPV 499, Then still Associate; Given CPV 500, Then Supervisor (500 ≤ 500)', () => {
    expect(heldRank(ranks, 499, 2)?.name).toBe('Associate');
    expect(heldRank(ranks, 500, 2)?.name).toBe('Supervisor');
  });

  it('Given CPV 2,010 on Starter (package 1), Then Supervisor: Manager needs 2,000 points and package 2', () => {
    expect(heldRank(ranks, 2_010, 1)?.name).toBe('Supervisor');
    expect(heldRank(ranks, 2_010, 2)?.name).toBe('Manager');
  });

  it('Given CPV 60,000 on Silver (package 3), Then Senior Manager: Director needs package 4', () => {
    expect(heldRank(ranks, 60_000, 3)?.name).toBe('Senior Manager');
  });

  it('Given no rank at 0 points, Then a member with CPV 100 holds none', () => {
    expect(heldRank(ranks.slice(1), 100, 6)).toBeNull();
  });
});

describe('whether a RankAchieved is due', () => {
  const due = (cpv: number, packageId: number, recordedRankId: number | null) => rankAchievement({ memberId: 'a', cpv, packageId, recordedRankId, ranks, cause });

  it('Given no rank recorded and CPV 25, Then Associate is achieved, with no previous rank and the cause', () => {
    expect(due(25, 2, null)).toEqual({
      type: 'RankAchieved',
      data: { member_id: 'a', rank_id: 1, rank_name: 'Associate', previous_rank_id: null, cpv: 25, package_id: 2, cause },
    });
  });

  it('Given Associate recorded and CPV 450 + 75 = 525, Then Supervisor is achieved (previous Associate)', () => {
    expect(due(525, 2, 1)?.data).toMatchObject({ rank_id: 2, rank_name: 'Supervisor', previous_rank_id: 1, cpv: 525 });
  });

  it('Given Associate recorded, When CPV jumps from 450 to 450 + 1,650 = 2,100 on Bronze, Then Manager directly (the rank held, not each rank between)', () => {
    expect(due(2_100, 2, 1)?.data).toMatchObject({ rank_id: 3, previous_rank_id: 1 });
  });

  it('Given Supervisor recorded and CPV still 2,010 on Starter, Then nothing; When the member upgrades to Bronze (package 2) with no PV change, Then Manager is achieved', () => {
    expect(due(2_010, 1, 2)).toBeNull();
    expect(due(2_010, 2, 2)?.data).toMatchObject({ rank_id: 3, rank_name: 'Manager', previous_rank_id: 2, package_id: 2 });
  });

  it('Given Manager recorded, Then a held rank equal (Manager) or lower (a rank whose points an admin raised) records nothing: ranks never go down', () => {
    expect(due(2_500, 2, 3)).toBeNull();
    expect(due(600, 2, 3)).toBeNull();
  });

  it('Given a recorded rank no longer in the catalogue, Then the held rank is recorded', () => {
    expect(due(600, 2, 99)?.data).toMatchObject({ rank_id: 2, previous_rank_id: 99 });
  });
});
