import type { BonusCause } from '../compensation/events';
import type { MemberActivated, MemberPackageUpgraded, PlacementLeg } from '../membership/events';
import type { ProductPurchasePaid } from '../purchases/events';
import type { RankAchieved } from './events';

/**
 * The rules of points (BUSINESS-RULES.md §3 "PV and CPV", "Matching" on leg volumes, "Ranks and
 * incentives"), pure: the `points` policy (projections.ts) does the same in set-based SQL and
 * decides ranks with these functions.
 */

/** The events that add PV to a member. */
export type PvEvent = MemberActivated | MemberPackageUpgraded | ProductPurchasePaid;

/** PV are whole and never negative: a malformed amount adds nothing rather than taking CPV down. */
const wholePv = (value: number | undefined | null): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/**
 * The personal PV an event adds to its member: the package's PV at activation (nothing for the
 * company root, activated without a payment), the PV difference at an upgrade, the purchase's
 * points for a repurchase only (registration and upgrade pick-ups are paid by the package, whose
 * PV is already counted).
 */
export function pvDelta(event: PvEvent): number {
  switch (event.type) {
    case 'MemberActivated':
      return event.data.payment_id ? wholePv(event.data.point_value) : 0;
    case 'MemberPackageUpgraded':
      return wholePv(event.data.point_value_added);
    case 'ProductPurchasePaid':
      return event.data.pickup_type === 'repurchase_pickup' ? wholePv(event.data.total_points) : 0;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

/** One step of the placement tree: a member, its placement parent and the leg it sits on. */
export type PlacementLink = { member_id: string; placement_parent_id: string | null; placement_leg: PlacementLeg | null };

/** What an ancestor receives when PV is added below it: the CPV, on the leg its downline member is in. */
export type AncestorCredit = { member_id: string; cpv: number; left_pv: number; right_pv: number };

/**
 * Every placement ancestor of the member receives the PV in its CPV and in the leg the path from
 * the member arrives by: the leg of the ancestor's child on that path, not the member's own leg.
 * `links` holds the member and each ancestor (any order); the walk stops at the top of the tree.
 */
export function ancestorCredits(memberId: string, pv: number, links: readonly PlacementLink[]): AncestorCredit[] {
  if (pv <= 0) return [];
  const byId = new Map(links.map((link) => [link.member_id, link]));
  const credits: AncestorCredit[] = [];
  const seen = new Set<string>([memberId]);
  let child = byId.get(memberId);
  while (child?.placement_parent_id && !seen.has(child.placement_parent_id)) {
    const ancestor = child.placement_parent_id;
    seen.add(ancestor);
    credits.push({ member_id: ancestor, cpv: pv, left_pv: child.placement_leg === 'left' ? pv : 0, right_pv: child.placement_leg === 'right' ? pv : 0 });
    child = byId.get(ancestor);
  }
  return credits;
}

export type Rank = { id: number; name: string; points: number; package_id: number };

/** Ranks are ordered by their points, then by id (two ranks at the same points: the later one is higher). */
export const rankOrder = (a: Rank, b: Rank): number => a.points - b.points || a.id - b.id;

/** The rank held: the highest rank whose points ≤ CPV and whose package id ≤ the member's package id. */
export function heldRank(ranks: readonly Rank[], cpv: number, packageId: number): Rank | null {
  let held: Rank | null = null;
  for (const rank of ranks) {
    if (rank.points <= cpv && rank.package_id <= packageId && (!held || rankOrder(rank, held) > 0)) held = rank;
  }
  return held;
}

/**
 * Whether reaching a rank is due: only when the rank held now is above the rank recorded (ranks
 * never go down, and a rank held already is not recorded again). A recorded rank that no longer
 * exists in the catalogue counts as none.
 */
export function rankAchievement(input: {
  memberId: string;
  cpv: number;
  packageId: number;
  recordedRankId: number | null;
  ranks: readonly Rank[];
  cause: BonusCause;
}): RankAchieved | null {
  const held = heldRank(input.ranks, input.cpv, input.packageId);
  if (!held) return null;
  const recorded = input.recordedRankId === null ? null : (input.ranks.find((rank) => rank.id === input.recordedRankId) ?? null);
  if (recorded && rankOrder(held, recorded) <= 0) return null;
  return {
    type: 'RankAchieved',
    data: {
      member_id: input.memberId,
      rank_id: held.id,
      rank_name: held.name,
      previous_rank_id: input.recordedRankId,
      cpv: input.cpv,
      package_id: input.packageId,
      cause: input.cause,
    },
  };
}
