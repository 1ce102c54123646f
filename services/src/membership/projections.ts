import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import { type MemberEvent, REGISTRATION_WINDOW_DAYS } from './events';

/** Inline projection: the members table changes in the same transaction as the member's events. */
export async function projectMembers(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<MemberEvent>;
    const at = new Date(recorded.recordedAt);
    const logged = { xid: recorded.transactionId, position: recorded.globalPosition };
    switch (event.type) {
      case 'MemberRegistered': {
        const d = event.data;
        await db
          .insertInto('members')
          .values({
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
            registered_xid: logged.xid,
            registered_position: logged.position,
            package_xid: logged.xid,
            package_position: logged.position,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      }
      case 'MemberEmailConfirmed':
        await db.updateTable('members').set({ email_verified_at: at, updated_at: at }).where('id', '=', event.data.member_id).execute();
        break;
      case 'MemberActivated':
        await db
          .updateTable('members')
          .set((eb) => ({ activated_at: at, package_id: event.data.package_id, personal_pv: eb('personal_pv', '+', event.data.point_value ?? 0), registration_expires_at: null, updated_at: at, activated_xid: logged.xid, activated_position: logged.position, package_xid: logged.xid, package_position: logged.position }))
          .where('id', '=', event.data.member_id)
          .execute();
        break;
      case 'MemberPackageUpgraded':
        await db
          .updateTable('members')
          .set((eb) => ({ package_id: event.data.to_package_id, personal_pv: eb('personal_pv', '+', event.data.point_value_added), updated_at: at, package_xid: logged.xid, package_position: logged.position }))
          .where('id', '=', event.data.member_id)
          .execute();
        break;
      case 'MemberRegistrationExpired':
        await db
          .updateTable('members')
          .set({ registration_expired_at: at, placement_parent_id: null, placement_leg: null, updated_at: at })
          .where('id', '=', event.data.member_id)
          .execute();
        break;
      case 'MemberReinstated':
        await db
          .updateTable('members')
          .set({ registration_expired_at: null, registration_expires_at: new Date(event.data.expires_at), placement_parent_id: event.data.placement_parent_id, placement_leg: event.data.placement_leg, updated_at: at })
          .where('id', '=', event.data.member_id)
          .execute();
        break;
      case 'MemberTwoFactorChanged':
        await db.updateTable('members').set({ enable_2fa: event.data.enabled, updated_at: at }).where('id', '=', event.data.member_id).execute();
        break;
      case 'MemberPasswordChanged':
        break;
      case 'MemberPlacementPreferenceChanged':
        await db.updateTable('members').set({ placement_preference: event.data.preference, updated_at: at }).where('id', '=', event.data.member_id).execute();
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}
