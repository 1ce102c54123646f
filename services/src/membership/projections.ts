import type { Insertable } from 'kysely';
import { keepingDailyTotalsOf } from '../core/daily-totals';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { MembersTable } from '../database';
import { type MemberEvent, type MemberRegistered, REGISTRATION_WINDOW_DAYS } from './events';
import { type MemberChange, applyMemberChange } from './member-changes';
import { memberTotals } from './member-totals';

/** Inline projection: the members table changes in the same transaction as the member's events. */
export async function projectMembers(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  await keepingDailyTotalsOf(db, memberTotals, events, async () => {
    for (const recorded of events) {
      const row = memberRegisteredRow(recorded);
      if (row) await db.insertInto('members').values(row).onConflict((oc) => oc.column('id').doNothing()).execute();
      for (const change of memberChanges(recorded)) await applyMemberChange(db, change);
    }
  });
}

/** The row a registration inserts (nothing is inserted when the member already has one). */
export function memberRegisteredRow(recorded: RecordedEvent): Insertable<MembersTable> | null {
  if (recorded.type !== 'MemberRegistered') return null;
  const d = (recorded as unknown as RecordedEvent<MemberRegistered>).data;
  const at = new Date(recorded.recordedAt);
  return {
    id: d.member_id,
    username: d.username,
    email: d.email,
    first_name: d.first_name,
    last_name: d.last_name,
    phone: d.phone,
    package_id: d.package_id,
    reg_package_id: d.package_id,
    sponsor_id: d.sponsor_id,
    placement_parent_id: d.placement_parent_id,
    placement_leg: d.placement_leg,
    is_root: d.is_root,
    registration_expires_at: d.is_root ? null : new Date(at.getTime() + REGISTRATION_WINDOW_DAYS * 86_400_000),
    created_at: at,
    updated_at: at,
    registered_xid: recorded.transactionId,
    registered_position: recorded.globalPosition,
    package_xid: recorded.transactionId,
    package_position: recorded.globalPosition,
  };
}

/** The member stream's other events' changes to its row (MemberChange: one event at a time or a batch at a time). */
export function memberChanges(recorded: RecordedEvent): MemberChange[] {
  const event = recorded as unknown as RecordedEvent<MemberEvent>;
  const at = new Date(recorded.recordedAt);
  const logged = { xid: recorded.transactionId, position: recorded.globalPosition };
  const change = (set: MemberChange['set'], addPv?: number): MemberChange[] => [{ memberId: event.data.member_id, set, ...(addPv === undefined ? {} : { addPv }) }];
  switch (event.type) {
    case 'MemberRegistered':
    case 'MemberPasswordChanged':
      return [];
    case 'MemberEmailConfirmed':
      return change({ email_verified_at: at, updated_at: at });
    case 'MemberActivated':
      return change(
        { activated_at: at, package_id: event.data.package_id, registration_expires_at: null, updated_at: at, activated_xid: logged.xid, activated_position: logged.position, package_xid: logged.xid, package_position: logged.position },
        event.data.point_value ?? 0,
      );
    case 'MemberPackageUpgraded':
      return change({ package_id: event.data.to_package_id, updated_at: at, package_xid: logged.xid, package_position: logged.position }, event.data.point_value_added);
    case 'MemberRegistrationExpired':
      return change({ registration_expired_at: at, placement_parent_id: null, placement_leg: null, updated_at: at });
    case 'MemberReinstated':
      return change({ registration_expired_at: null, registration_expires_at: new Date(event.data.expires_at), placement_parent_id: event.data.placement_parent_id, placement_leg: event.data.placement_leg, updated_at: at });
    case 'MemberTwoFactorChanged':
      return change({ enable_2fa: event.data.enabled, updated_at: at });
    case 'MemberPlacementPreferenceChanged':
      return change({ placement_preference: event.data.preference, updated_at: at });
    default: {
      // Events of other streams (the members read model passes every event to every capability).
      return [];
    }
  }
}
