import { sql } from 'kysely';
import { type PlacementPreference, legWord, placementPreference } from '../contracts/placement';
import type { Executor } from '../core/db';
import { RuleViolation } from '../core/errors';
import { getSettings } from '../settings/projections';
import { checkPlacementUnderSponsor } from './decider';
import type { PlacementLeg } from './events';
import { type MemberRow, findMemberByUsername, isSelfOrPlacementAncestor, occupiedLegs } from './queries';

export const placementMessages = {
  placementUnknown: 'The placement (referrer) does not exist.',
  sponsorUnknown: 'The sponsor does not exist.',
  noFreeSlot: 'No free place was found below this placement; name another placement.',
} as const;

/**
 * The leg a recruit takes directly under a placement that has a free one, or null when both are
 * taken (spillover). Left then right, except: extreme right prefers right, and weaker leg prefers
 * the leg with the lower volume (an empty leg is never the stronger one). Pure.
 */
export function directLeg(occupied: readonly PlacementLeg[], preference: PlacementPreference, volumes: { left: number; right: number }): PlacementLeg | null {
  const free = (['left', 'right'] as const).filter((leg) => !occupied.includes(leg));
  if (free.length === 0) return null;
  if (free.length === 1) return free[0]!;
  if (preference === 'extreme_right') return 'right';
  if (preference === 'weaker_leg' && volumes.right < volumes.left) return 'right';
  return 'left';
}

/** The leg a spillover search starts from at the full placement, for the weaker-leg preference. */
export function weakerLeg(volumes: { left: number; right: number }): PlacementLeg {
  return volumes.right < volumes.left ? 'right' : 'left';
}

export type ResolvedPlacement = {
  placement: Pick<MemberRow, 'id' | 'username'>;
  leg: PlacementLeg;
  sponsor: MemberRow;
  spillover: boolean;
  requestedPlacement: MemberRow;
  preference: PlacementPreference;
  /** Whose preference decided a spillover: the sponsor's own, or the company default. */
  preferenceOf: 'sponsor' | 'company';
};

async function legVolumes(db: Executor, memberId: string): Promise<{ left: number; right: number }> {
  const row = await db.selectFrom('member_points').select(['left_pv', 'right_pv']).where('member_id', '=', memberId).executeTakeFirst();
  return { left: Number(row?.left_pv ?? 0), right: Number(row?.right_pv ?? 0) };
}

type Slot = { id: string; username: string; leg: PlacementLeg };

/** First free slot breadth first (shallowest, then older members first, left before right) below `rootId`, `rootId` included. */
async function firstFreeBreadthFirst(db: Executor, rootId: string): Promise<Slot | undefined> {
  // The first free slot of a binary tree of n members is at most log2(n + 1) levels down; 64 bounds the walk.
  const { rows } = await sql<{ id: string; username: string; has_left: boolean; has_right: boolean }>`
    with recursive tree(id, depth, path) as (
      select ${rootId}::uuid, 0, array[]::bigint[]
      union all
      select m.id, t.depth + 1, t.path || (case when m.placement_leg = 'left' then 0 else 1 end)::bigint
      from members m join tree t on m.placement_parent_id = t.id
      where t.depth < 64
    )
    select m.id, m.username,
      exists(select 1 from members c where c.placement_parent_id = m.id and c.placement_leg = 'left') as has_left,
      exists(select 1 from members c where c.placement_parent_id = m.id and c.placement_leg = 'right') as has_right
    from tree t join members m on m.id = t.id
    where (select count(*) from members c where c.placement_parent_id = m.id) < 2
    order by t.depth, t.path
    limit 1`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return { id: row.id, username: row.username, leg: row.has_left ? 'right' : 'left' };
}

/** Down one leg as far as it goes: the outermost member of that side takes the recruit on that leg. */
async function extremeOf(db: Executor, rootId: string, leg: PlacementLeg): Promise<Slot> {
  const { rows } = await sql<{ id: string; username: string }>`
    with recursive chain(id, depth) as (
      select ${rootId}::uuid, 0
      union all
      select m.id, c.depth + 1 from members m join chain c on m.placement_parent_id = c.id and m.placement_leg = ${leg}
    )
    select m.id, m.username from chain c join members m on m.id = c.id order by c.depth desc limit 1`.execute(db);
  const row = rows[0]!;
  return { id: row.id, username: row.username, leg };
}

/**
 * Where a registration goes (BUSINESS-RULES.md §1, docs/placement.md). `referrer` names the
 * placement (empty: the company's default code), `placer` the sponsor (empty: the placement).
 * A placement with a free leg takes the recruit directly; a full one spills the recruit into its
 * own downline by the sponsor's placement preference (else the company default). Reads only:
 * the caller claims the slot's unique key, and a race lost there is decided again from a fresh read.
 */
export async function resolvePlacement(db: Executor, input: { referrer: string; placer: string }): Promise<ResolvedPlacement> {
  const settings = await getSettings(db);
  const placementName = input.referrer || settings.default_referral_code;
  const requested = await findMemberByUsername(db, placementName);
  if (!requested) throw new RuleViolation(placementMessages.placementUnknown, 'referrer');
  let sponsor = requested;
  if (input.placer) {
    const named = await findMemberByUsername(db, input.placer);
    if (!named) throw new RuleViolation(placementMessages.sponsorUnknown, 'placer');
    sponsor = named;
    checkPlacementUnderSponsor({
      placementIsSponsorOrBelow: await isSelfOrPlacementAncestor(db, requested.id, sponsor.id),
      sponsorUsername: sponsor.username,
    });
  }
  const preferenceOf = sponsor.placement_preference ? 'sponsor' : 'company';
  const preference = sponsor.placement_preference ? placementPreference.parse(sponsor.placement_preference) : companyDefaultPreference(settings);
  const volumes = preference === 'weaker_leg' ? await legVolumes(db, requested.id) : { left: 0, right: 0 };
  const direct = directLeg(await occupiedLegs(db, requested.id), preference, volumes);
  if (direct) return { placement: requested, leg: direct, sponsor, spillover: false, requestedPlacement: requested, preference, preferenceOf };

  let slot: Slot | undefined;
  if (preference === 'extreme_left') slot = await extremeOf(db, requested.id, 'left');
  else if (preference === 'extreme_right') slot = await extremeOf(db, requested.id, 'right');
  else if (preference === 'weaker_leg') {
    const child = await db.selectFrom('members').select('id').where('placement_parent_id', '=', requested.id).where('placement_leg', '=', weakerLeg(volumes)).executeTakeFirstOrThrow();
    slot = await firstFreeBreadthFirst(db, child.id);
  } else slot = await firstFreeBreadthFirst(db, requested.id);
  if (!slot) throw new RuleViolation(placementMessages.noFreeSlot, 'referrer');
  return { placement: { id: slot.id, username: slot.username }, leg: slot.leg, sponsor, spillover: true, requestedPlacement: requested, preference, preferenceOf };
}

export function companyDefaultPreference(settings: { default_placement_preference?: string | null }): PlacementPreference {
  const parsed = placementPreference.safeParse(settings.default_placement_preference);
  return parsed.success ? parsed.data : 'balanced';
}

const preferenceWords: Record<PlacementPreference, string> = {
  balanced: 'the first free place, level by level',
  extreme_left: 'the extreme left',
  extreme_right: 'the extreme right',
  weaker_leg: 'the weaker leg',
};

export function explainPlacement(p: ResolvedPlacement): string {
  const where = `under ${p.placement.username}, ${legWord(p.leg)}`;
  if (!p.spillover) return `You will be placed ${where}.`;
  return `${p.requestedPlacement.username} already has two direct placements, so you will be placed ${where}: ${preferenceWords[p.preference]} of ${p.requestedPlacement.username}'s team (${p.preferenceOf === 'sponsor' ? `${p.sponsor.username}'s placement preference` : 'the company default'}).`;
}
