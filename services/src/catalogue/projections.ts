import type { Executor } from '../core/db';
import type { RecordedEvent } from '../core/event-store';
import type { CatalogueEvent } from './events';

/** Inline projection: the catalogue tables change in the same transaction as their events. */
export async function projectCatalogue(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<CatalogueEvent>;
    const at = new Date(recorded.recordedAt);
    switch (event.type) {
      case 'PackageDefined': {
        const row = {
          id: event.data.package_id,
          name: event.data.name,
          point_value: event.data.point_value,
          registration_value: event.data.registration_value_kobo,
          pickup_amount: event.data.pickup_amount_kobo,
          matching_bonus_cap: event.data.matching_bonus_cap_kobo,
          updated_at: at,
        };
        await db.insertInto('packages').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
        break;
      }
      case 'RankDefined': {
        const row = { id: event.data.rank_id, name: event.data.name, points: event.data.points, is_global_profit_eligible: event.data.is_global_profit_eligible, description: event.data.description, package_id: event.data.package_id, updated_at: at };
        await db.insertInto('ranks').values(row).onConflict((oc) => oc.column('id').doUpdateSet(row)).execute();
        break;
      }
      default:
        break;
    }
  }
}
