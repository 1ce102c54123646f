import { type Updateable, sql } from 'kysely';
import { type ProjectionWrite, runWrites } from '../core/command';
import type { Executor } from '../core/db';
import type { PendingEvent } from '../core/event-store';
import type { MemberProfilesTable } from '../database';
import { type MemberChange, memberChangeWrite } from '../membership/member-changes';
import type { ProfileEvent } from './events';

/**
 * Inline projection: `member_profiles` (and the names and phone on `members`) change in the same
 * transaction as the profile's events, so the next screen reads what was just saved.
 */
export async function projectProfiles(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await runWrites(db, profileWrites(db, events));
}

/** projectProfiles' statements, not yet run (handleProfileCommand runs them alongside its append). */
export function profileWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  return [...memberProfileWrites(db, events), ...memberDetailsWrites(db, events)];
}

/** The profile stream's changes to the `members` row (the `members` read model, read-models.ts). */
export async function projectMemberDetails(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await runWrites(db, memberDetailsWrites(db, events));
}

function memberDetailsWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  return events.flatMap((recorded) => memberDetailsChanges(recorded).map((change) => memberChangeWrite(db, change)));
}

/** The names and phone a profile event sets on the members row (MemberChange: one event or a batch at a time). */
export function memberDetailsChanges(recorded: PendingEvent): MemberChange[] {
  const event = recorded as unknown as PendingEvent<ProfileEvent>;
  if (event.type !== 'MemberDetailsUpdated') return [];
  const { first_name, last_name, phone } = event.data;
  return [{ memberId: event.data.member_id, set: { first_name, last_name, phone, updated_at: new Date(recorded.recordedAt) } }];
}

/** memberDetailsChanges in SQL over a batch's events (core/row-changes-at.ts `changes`). */
export const memberDetailsChangesSql = sql`
  select data->>'member_id' as key, ord, 0 as sub,
    jsonb_build_object('first_name', data->'first_name', 'last_name', data->'last_name', 'phone', data->'phone', 'updated_at', recorded_at) as set, null::jsonb as add
  from batch where type = 'MemberDetailsUpdated'`;

/** `member_profiles` alone (the `member-profiles` read model). */
export async function projectMemberProfiles(db: Executor, events: readonly PendingEvent[]): Promise<void> {
  await runWrites(db, memberProfileWrites(db, events));
}

function memberProfileWrites(db: Executor, events: readonly PendingEvent[]): ProjectionWrite[] {
  const writes: ProjectionWrite[] = [];
  for (const recorded of events) {
    const event = recorded as unknown as PendingEvent<ProfileEvent>;
    const at = new Date(recorded.recordedAt);
    const memberId = event.data.member_id;
    switch (event.type) {
      case 'MemberProfileSubmitted':
      case 'MemberProfileUpdated': {
        const { address, gender, photo_path } = event.data;
        writes.push(upsertProfile(db, memberId, at, { address, gender, photo_path, ...(event.type === 'MemberProfileSubmitted' ? { profile_submitted_at: at } : {}) }));
        break;
      }
      case 'MemberBankDetailsChanged': {
        const d = event.data;
        writes.push(upsertProfile(db, memberId, at, {
          bank_name: d.bank_name,
          bank_code: d.bank_code,
          bank_account_number: d.account_number,
          bank_account_name: d.account_name,
          bank_details_changed_at: at,
        }));
        break;
      }
      case 'MemberBankEditabilityChanged':
        writes.push(upsertProfile(db, memberId, at, { bank_editable: event.data.bank_editable }));
        break;
      case 'MemberDetailsUpdated': // the members row: projectMemberDetails
      case 'MemberInvitedGuest':
      case 'MemberMessaged':
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
  return writes;
}

function upsertProfile(db: Executor, memberId: string, at: Date, changes: Updateable<MemberProfilesTable>) {
  return db
    .insertInto('member_profiles')
    .values({ member_id: memberId, created_at: at, updated_at: at, ...changes })
    .onConflict((oc) => oc.column('member_id').doUpdateSet({ ...changes, updated_at: at }));
}
