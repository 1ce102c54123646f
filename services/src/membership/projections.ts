import { type Insertable, sql } from 'kysely';
import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { MembersTable } from '../database';
import { type MemberEvent, type MemberRegistered, REGISTRATION_WINDOW_DAYS } from './events';
import { type MemberChange, applyMemberChange } from './member-changes';

/** Inline projection: the members table changes in the same transaction as the member's events. */
export async function projectMembers(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const row = memberRegisteredRow(recorded);
    if (row) await db.insertInto('members').values(row).onConflict((oc) => oc.column('id').doNothing()).execute();
    for (const change of memberChanges(recorded)) await applyMemberChange(db, change);
  }
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

/** memberRegisteredRow in SQL over a batch's events (core/row-changes-at.ts `inserts`). */
export const memberRegisteredRowsSql = sql`
  select data->>'member_id' as key, ord, jsonb_build_object(
    'id', data->'member_id', 'username', data->'username', 'email', data->'email', 'first_name', data->'first_name', 'last_name', data->'last_name',
    'phone', data->'phone', 'package_id', data->'package_id', 'reg_package_id', data->'package_id', 'sponsor_id', data->'sponsor_id',
    'placement_parent_id', data->'placement_parent_id', 'placement_leg', data->'placement_leg', 'is_root', data->'is_root',
    -- milliseconds added, as the JavaScript does (an interval of days would follow the session's daylight saving)
    'registration_expires_at', case when (data->>'is_root')::boolean then null else recorded_at + interval '1 millisecond' * ${REGISTRATION_WINDOW_DAYS * 86_400_000} end,
    'created_at', recorded_at, 'updated_at', recorded_at,
    'registered_xid', transaction_id::text, 'registered_position', global_position, 'package_xid', transaction_id::text, 'package_position', global_position) as row
  from batch where type = 'MemberRegistered'`;

/** memberChanges in SQL over a batch's events (core/row-changes-at.ts `changes`). */
export const memberChangesSql = sql`
  select data->>'member_id' as key, ord, 0 as sub,
    case type
      when 'MemberEmailConfirmed' then jsonb_build_object('email_verified_at', recorded_at, 'updated_at', recorded_at)
      when 'MemberActivated' then jsonb_build_object('activated_at', recorded_at, 'package_id', data->'package_id', 'registration_expires_at', null, 'updated_at', recorded_at,
        'activated_xid', transaction_id::text, 'activated_position', global_position, 'package_xid', transaction_id::text, 'package_position', global_position)
      when 'MemberPackageUpgraded' then jsonb_build_object('package_id', data->'to_package_id', 'updated_at', recorded_at, 'package_xid', transaction_id::text, 'package_position', global_position)
      when 'MemberRegistrationExpired' then jsonb_build_object('registration_expired_at', recorded_at, 'placement_parent_id', null, 'placement_leg', null, 'updated_at', recorded_at)
      when 'MemberReinstated' then jsonb_build_object('registration_expired_at', null, 'registration_expires_at', data->'expires_at',
        'placement_parent_id', data->'placement_parent_id', 'placement_leg', data->'placement_leg', 'updated_at', recorded_at)
      when 'MemberTwoFactorChanged' then jsonb_build_object('enable_2fa', data->'enabled', 'updated_at', recorded_at)
      when 'MemberPlacementPreferenceChanged' then jsonb_build_object('placement_preference', data->'preference', 'updated_at', recorded_at)
    end as set,
    case type
      when 'MemberActivated' then jsonb_build_object('personal_pv', coalesce(nullif(data->'point_value', 'null'), '0'))
      when 'MemberPackageUpgraded' then jsonb_strip_nulls(jsonb_build_object('personal_pv', data->'point_value_added'))
    end as add
  from batch
  where type in ('MemberEmailConfirmed', 'MemberActivated', 'MemberPackageUpgraded', 'MemberRegistrationExpired', 'MemberReinstated', 'MemberTwoFactorChanged', 'MemberPlacementPreferenceChanged')`;

/** The members columns memberChanges may set. */
export const memberChangedColumns = [
  'email_verified_at', 'activated_at', 'package_id', 'registration_expires_at', 'updated_at', 'activated_xid', 'activated_position', 'package_xid', 'package_position',
  'registration_expired_at', 'placement_parent_id', 'placement_leg', 'enable_2fa', 'placement_preference',
] as const;
