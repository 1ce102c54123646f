import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { AdminEvent } from './events';

/** Inline projection: the admins table. */
export async function projectAdmins(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<AdminEvent>;
    const at = new Date(recorded.recordedAt);
    switch (event.type) {
      case 'AdminCreated':
        await db
          .insertInto('admins')
          .values({ id: event.data.admin_id, name: event.data.name, email: event.data.email, role: event.data.role, created_at: at, updated_at: at })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        break;
      case 'AdminTwoFactorChanged':
        await db.updateTable('admins').set({ enable_2fa: event.data.enabled, updated_at: at }).where('id', '=', event.data.admin_id).execute();
        break;
      case 'AdminPasswordChanged':
        break;
      default: {
        const unknownEvent: never = event;
        void unknownEvent;
      }
    }
  }
}
