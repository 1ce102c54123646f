import { memberFigure } from '../membership/member-totals';
import { type TotalPv, pointsMessages } from '../contracts/points';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';

/** A member's points and rank (GET /users/{id}/total-pv): zeros and nulls before any PV. */
export async function totalPvOf(db: Executor, memberId: string): Promise<TotalPv> {
  const row = await db
    .selectFrom('members as m')
    .leftJoin('member_points as p', 'p.member_id', 'm.id')
    .leftJoin('ranks as r', 'r.id', 'p.rank_id')
    .select(['p.personal_pv', 'p.cpv', 'p.left_pv', 'p.right_pv', 'p.rank_id', 'r.name as rank_name'])
    .where('m.id', '=', memberId)
    .executeTakeFirst();
  if (!row) throw new NotFound(pointsMessages.memberNotFound);
  const cpv = row.cpv ?? 0;
  return {
    total_pv: cpv,
    personal_pv: row.personal_pv ?? 0,
    cpv,
    left_pv: row.left_pv ?? 0,
    right_pv: row.right_pv ?? 0,
    rank_id: row.rank_id ?? null,
    rank_name: row.rank_name ?? null,
  };
}

/**
 * The rank a member holds (the highest reached; ranks never go down), for incentives and global
 * profit, with the rank's points (incentives compare ranks by them). Null before the first rank.
 */
export async function rankHeld(db: Executor, memberId: string): Promise<{ rank_id: number; rank_name: string; points: number } | null> {
  const row = await db
    .selectFrom('member_points as p')
    .innerJoin('ranks as r', 'r.id', 'p.rank_id')
    .select(['r.id as rank_id', 'r.name as rank_name', 'r.points'])
    .where('p.member_id', '=', memberId)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The PV of every registration package paid, upgrades included (the admin dashboard's
 * "registration PV"; repurchases are product PV). members.personal_pv counts exactly these, inline.
 */
export async function totalRegistrationPv(db: Executor): Promise<number> {
  return (await memberFigure(db, 'pv')).amount;
}
