import { type Transaction, sql } from 'kysely';
import { batchRange } from '../core/batch-range';
import type { Consumer } from '../core/consumers';
import type { RecordedEvent } from '../core/event-store';
import type { Database } from '../database';
import type { MemberActivated, MemberRegistered } from './events';

/**
 * Registrations and activations per day and package, for the admin dashboard's totals.
 * Asynchronous: nobody needs it in the same instant as the registration.
 */
export const registrationStatsProjection: Consumer = {
  name: 'registration-stats',
  kind: 'projection',
  eventTypes: ['MemberRegistered', 'MemberActivated'],
  tables: ['daily_registrations'],
  batchSize: 1000,
  // The same counts inside PostgreSQL from the events named by position (the runner and rebuilds
  // then never read the events into the process); registration-stats.property.int.spec.ts.
  applyAt: (trx, positions) => countRegistrationsAt(trx, positions),
  async apply(trx, events) {
    // One set-based upsert per batch: per-event round trips are what makes projections slow.
    const counts = new Map<string, { day: string; packageId: number; registrations: number; activations: number }>();
    for (const recorded of events) {
      const event = recorded as RecordedEvent<MemberRegistered | MemberActivated>;
      const day = recorded.recordedAt.slice(0, 10);
      const key = `${day}:${event.data.package_id}`;
      const entry = counts.get(key) ?? { day, packageId: event.data.package_id, registrations: 0, activations: 0 };
      if (event.type === 'MemberRegistered') entry.registrations++;
      else entry.activations++;
      counts.set(key, entry);
    }
    const rows = [...counts.values()];
    await sql`
      insert into daily_registrations (day, package_id, registrations, activations)
      select * from unnest(${sql.val(rows.map((r) => r.day))}::date[], ${sql.val(rows.map((r) => r.packageId))}::int[],
                           ${sql.val(rows.map((r) => r.registrations))}::int[], ${sql.val(rows.map((r) => r.activations))}::int[])
      on conflict (day, package_id) do update set
        registrations = daily_registrations.registrations + excluded.registrations,
        activations = daily_registrations.activations + excluded.activations`.execute(trx);
  },
};

/** registrationStatsProjection.apply in one statement over the events at these positions (the day in UTC, as recordedAt's). */
export async function countRegistrationsAt(trx: Transaction<Database>, positions: readonly number[]): Promise<void> {
  if (positions.length === 0) return;
  await sql`
    insert into daily_registrations (day, package_id, registrations, activations)
    select (recorded_at at time zone 'UTC')::date, (data->>'package_id')::int,
      count(*) filter (where type = 'MemberRegistered'), count(*) filter (where type <> 'MemberRegistered')
    from events where global_position = any(${sql.val(positions)}::bigint[]) and ${batchRange(positions)}
    group by 1, 2
    on conflict (day, package_id) do update set
      registrations = daily_registrations.registrations + excluded.registrations,
      activations = daily_registrations.activations + excluded.activations`.execute(trx);
}
