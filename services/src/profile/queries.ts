import type { Selectable } from 'kysely';
import type { MemberListRow, MemberProfile, ProfileDetails } from '../contracts/profile';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';
import type { MemberProfilesTable } from '../database';
import { type MemberRow, membersWithRank } from '../membership/queries';
import { storedFileLink } from '../core/stored-files';
import { stockistSummaries } from '../stockists/summaries';

type ProfileRow = Selectable<MemberProfilesTable>;

export const memberNotFound = 'Member not found.';

export async function findProfile(db: Executor, memberId: string): Promise<ProfileRow | undefined> {
  return db.selectFrom('member_profiles').selectAll().where('member_id', '=', memberId).executeTakeFirst();
}

async function memberWithProfile(db: Executor, memberId: string): Promise<{ member: MemberRow & { package_name: string | null }; profile: ProfileRow | undefined }> {
  const member = await membersWithRank(db)
    .leftJoin('packages', 'packages.id', 'members.package_id')
    .select('packages.name as package_name')
    .where('members.id', '=', memberId)
    .executeTakeFirst();
  if (!member) throw new NotFound(memberNotFound);
  return { member, profile: await findProfile(db, memberId) };
}

/** An active member: registration paid and approved, not deactivated (BUSINESS-RULES.md). */
export const isActiveMember = (member: MemberRow) => member.activated_at !== null && !member.deactivated;

function toProfileDetails(member: MemberRow, profile: ProfileRow | undefined): ProfileDetails {
  return {
    photo_path: storedFileLink(profile?.photo_path ?? null),
    address: profile?.address ?? null,
    gender: profile?.gender ?? null,
    bank_name: profile?.bank_name ?? null,
    bank_account_name: profile?.bank_account_name ?? null,
    bank_account_number: profile?.bank_account_number ?? null,
    bank_code: profile?.bank_code ?? null,
    // No row yet: the member has not used the permission nor has an admin withdrawn it.
    bank_editable: profile?.bank_editable ?? true,
    enable_2fa: member.enable_2fa,
    phone: member.phone,
  };
}

/** GET /users/{id}/profile-details: null when the member has not submitted anything yet (seed 001 §7.3). */
export async function profileDetailsOf(db: Executor, memberId: string): Promise<ProfileDetails | null> {
  const { member, profile } = await memberWithProfile(db, memberId);
  return profile ? toProfileDetails(member, profile) : null;
}

/** GET /users/{id}/profile: who the member is, and their profile (fields null before one is submitted). */
export async function memberProfileOf(db: Executor, memberId: string): Promise<MemberProfile> {
  const { member, profile } = await memberWithProfile(db, memberId);
  return {
    ...toProfileDetails(member, profile),
    uuid: member.id,
    first_name: member.first_name,
    last_name: member.last_name,
    email: member.email,
    username: member.username,
    package_id: member.package_id,
    package: member.package_name,
    has_profile: profile !== undefined,
  };
}

/** GET /users/{id}/user: the member as the admin members list shows it (seed 001 §3.11). */
export async function memberListRowOf(db: Executor, memberId: string): Promise<MemberListRow> {
  const { member, profile } = await memberWithProfile(db, memberId);
  return {
    uuid: member.id,
    first_name: member.first_name,
    last_name: member.last_name,
    email: member.email,
    username: member.username,
    phone: member.phone,
    package_id: member.package_id,
    package_name: member.package_name,
    rank_id: member.rank_id,
    photo_path: storedFileLink(profile?.photo_path ?? null),
    created_at: member.created_at.toISOString(),
    is_stockist: member.is_stockist,
    ...(await stockistSummaries(db, [member.id])).get(member.id)!,
    status: isActiveMember(member),
  };
}
