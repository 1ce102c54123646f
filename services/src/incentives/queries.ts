import type { Selectable } from 'kysely';
import type { AdminIncentiveClaim, CurrentIncentive, MemberIncentiveClaim } from '../contracts/incentives';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import type { IncentiveClaimsTable } from '../database';
import { rankHeld } from '../points/queries';
import type { RankFacts } from './decider';

/** Reads of `incentive_claims` and the catalogue, shaped for the API (naira at the edge). */

/** The rank the member holds now (the points policy's), with its points; null before any. */
export async function heldRank(db: Executor, memberId: string): Promise<RankFacts | null> {
  const held = await rankHeld(db, memberId);
  if (!held) return null;
  // Compared by the rank's points as the catalogue has them now (an admin may have changed them since).
  const rank = await db.selectFrom('ranks').select(['id', 'name', 'points']).where('id', '=', held.rank_id).executeTakeFirst();
  return rank ?? null;
}

/**
 * The current incentive (BUSINESS-RULES.md §3): of the ranks the member holds (points ≤ the held
 * rank's), the highest whose incentive the member has not received (no approved claim), with the
 * member's latest claim of it. So after an approval it moves on to the next incentive the member
 * may still claim, and a declined claim stays current, to be claimed again.
 */
export async function currentIncentive(db: Executor, memberId: string): Promise<CurrentIncentive> {
  const held = await heldRank(db, memberId);
  if (!held) return null;
  const row = await db
    .selectFrom('incentives as i')
    .innerJoin('ranks as r', 'r.id', 'i.rank_id')
    .select(['i.id', 'i.rank_id', 'r.name as rank_name', 'r.points', 'i.incentive', 'i.worth', 'i.file_path'])
    .where('r.points', '<=', held.points)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('incentive_claims as c').select('c.id').whereRef('c.incentive_id', '=', 'i.id').where('c.member_id', '=', memberId).where('c.status', '=', 'approved'),
        ),
      ),
    )
    .orderBy('r.points', 'desc')
    .orderBy('r.id', 'desc')
    .orderBy('i.id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const claim = await db
    .selectFrom('incentive_claims')
    .select(['id', 'status'])
    .where('member_id', '=', memberId)
    .where('incentive_id', '=', row.id)
    .orderBy('created_at', 'desc')
    .orderBy('claimed_position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    id: row.id,
    rank_id: row.rank_id,
    rank_name: row.rank_name,
    points: row.points,
    incentive_id: row.id,
    incentive: row.incentive,
    worth: koboToNaira(row.worth),
    file_path: row.file_path,
    claim: claim ? { id: claim.id, status: claim.status } : null,
    claim_status: claim?.status ?? null,
  };
}

function claimToApi(row: Selectable<IncentiveClaimsTable>): MemberIncentiveClaim {
  return {
    id: row.id,
    rank_id: row.rank_id,
    rank_name: row.rank_name,
    incentive_id: row.incentive_id,
    incentive: row.incentive,
    worth: koboToNaira(row.worth),
    points: row.points,
    status: row.status,
    decline_reason: row.decline_reason,
    created_at: row.created_at.toISOString(),
  };
}

/** The member's Claimed Incentives table, newest first. */
export async function memberClaims(db: Executor, memberId: string): Promise<MemberIncentiveClaim[]> {
  const rows = await db.selectFrom('incentive_claims').selectAll().where('member_id', '=', memberId).orderBy('created_at', 'desc').orderBy('claimed_position', 'desc').execute();
  return rows.map(claimToApi);
}

/** The claims joined with their members and packages (the admin lists' rows; aliases c, m, p). */
export function adminClaimsQuery(db: Executor) {
  return db
    .selectFrom('incentive_claims as c')
    .innerJoin('members as m', 'm.id', 'c.member_id')
    .leftJoin('packages as p', 'p.id', 'm.package_id')
    .selectAll('c')
    .select(['m.first_name', 'm.last_name', 'm.username', 'p.name as package_name']);
}

type AdminRow = Awaited<ReturnType<ReturnType<typeof adminClaimsQuery>['executeTakeFirstOrThrow']>>;

export function adminClaimToApi(row: AdminRow): AdminIncentiveClaim {
  return {
    ...claimToApi(row),
    member_id: row.member_id,
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    package_name: row.package_name,
    cpv: row.cpv,
    decided_at: row.decided_at?.toISOString() ?? null,
  };
}

export async function findClaim(db: Executor, claimId: string): Promise<AdminIncentiveClaim | undefined> {
  const row = await adminClaimsQuery(db).where('c.id', '=', claimId).executeTakeFirst();
  return row && adminClaimToApi(row);
}

/** The admins' Incentive Requests: by status (processing = waiting for a decision), oldest request first so none waits forever. */
export async function pageClaims(db: Executor, status: 'processing' | 'approved' | 'declined' | 'all', page: number, perPage = 10) {
  let count = db.selectFrom('incentive_claims').select((eb) => eb.fn.countAll<string>().as('n'));
  let rows = adminClaimsQuery(db);
  if (status !== 'all') {
    count = count.where('status', '=', status);
    rows = rows.where('c.status', '=', status);
  }
  const total = Number((await count.executeTakeFirstOrThrow()).n);
  const data = await rows
    .orderBy('c.created_at', status === 'processing' ? 'asc' : 'desc')
    .orderBy('c.claimed_position', status === 'processing' ? 'asc' : 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { data: data.map(adminClaimToApi), current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total };
}
