import { type Selectable, sql } from 'kysely';
import type { AuthUser } from '../contracts/auth';
import type { Executor } from '../core/db';
import type { MembersTable } from '../database';
import type { PlacementLeg } from './events';

/** A members row with the rank the member holds (member_points is the rank's only home: docs/decisions.md 86). */
export type MemberRow = Selectable<MembersTable> & { rank_id: number | null };

/** members joined with the rank held (a primary-key lookup; no row there: no rank). */
export const membersWithRank = (db: Executor) =>
  db.selectFrom('members').leftJoin('member_points', 'member_points.member_id', 'members.id').selectAll('members').select('member_points.rank_id');

export async function findMemberByUsername(db: Executor, username: string): Promise<MemberRow | undefined> {
  return membersWithRank(db).where(sql`lower(members.username)`, '=', username.trim().toLowerCase()).executeTakeFirst();
}

export async function findMemberByEmail(db: Executor, email: string): Promise<MemberRow | undefined> {
  return membersWithRank(db).where(sql`lower(members.email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
}

/** The sign-in name may be the username or the e-mail. */
export async function findMemberByLogin(db: Executor, login: string): Promise<MemberRow | undefined> {
  return login.includes('@') ? findMemberByEmail(db, login) : findMemberByUsername(db, login);
}

export async function findMember(db: Executor, id: string): Promise<MemberRow | undefined> {
  return membersWithRank(db).where('members.id', '=', id).executeTakeFirst();
}

export async function occupiedLegs(db: Executor, placementParentId: string): Promise<PlacementLeg[]> {
  const rows = await db.selectFrom('members').select('placement_leg').where('placement_parent_id', '=', placementParentId).execute();
  return rows.map((r) => r.placement_leg).filter((leg): leg is PlacementLeg => leg !== null);
}

/** True when `ancestorId` is `memberId` itself or one of its placement ancestors. */
export async function isSelfOrPlacementAncestor(db: Executor, memberId: string, ancestorId: string): Promise<boolean> {
  if (memberId === ancestorId) return true;
  const { rows } = await sql<{ found: boolean }>`
    with recursive up(id, parent, depth) as (
      select id, placement_parent_id, 0 from members where id = ${memberId}
      union all
      select m.id, m.placement_parent_id, up.depth + 1 from members m join up on m.id = up.parent
      where up.id <> ${ancestorId}
    )
    select exists(select 1 from up where id = ${ancestorId}) as found`.execute(db);
  return rows[0]?.found === true;
}

export function toAuthUser(row: MemberRow): AuthUser {
  const activated = row.activated_at !== null;
  return {
    uuid: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    username: row.username,
    email: row.email,
    phone: row.phone,
    email_verified_at: row.email_verified_at?.toISOString() ?? null,
    package_id: row.package_id,
    reg_package_id: row.reg_package_id,
    rank_id: row.rank_id,
    is_stockist: row.is_stockist,
    is_deactivated: !activated || row.deactivated,
    created_at: row.created_at.toISOString(),
    enable_2fa: row.enable_2fa,
    payment: activated ? 'approved' : null,
    is_admin: false,
    withdrawal_amount: row.withdrawal_amount / 100,
    registration_expires_at: row.registration_expires_at?.toISOString() ?? null,
    registration_expired: row.registration_expired_at !== null,
  };
}
