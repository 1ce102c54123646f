import { sql } from 'kysely';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';
import type { RecordedEvent } from '../core/event-store';
import { GENERATIONS, generationField } from '../contracts/settings';
import type { BonusTableEvent, SettingsEvent } from './events';
import { type SettingsValues, settingsValues } from './values';

/** Inline projection: the one settings row. */
export async function projectSettings(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<SettingsEvent>;
    if (event.type !== 'SettingsChanged') continue;
    const changes = JSON.stringify(event.data.changes);
    await sql`
      insert into settings (id, "values", updated_at) values (1, ${changes}::jsonb, ${recorded.recordedAt})
      on conflict (id) do update set "values" = settings."values" || excluded."values", updated_at = excluded.updated_at`.execute(db);
  }
}

export async function getSettings(db: Executor): Promise<SettingsValues> {
  const row = await db.selectFrom('settings').select('values').where('id', '=', 1).executeTakeFirst();
  return settingsOf(row?.values);
}

/** The settings from their stored values, read by a statement of the caller's (absent: not set up yet, a 404). */
export function settingsOf(values: unknown): SettingsValues {
  if (values === null || values === undefined) throw new NotFound('The company settings are not set up yet.');
  return settingsValues.parse(values);
}

/** Inline projection: one row per (kind, package) holding generations 1..10 as an array. */
export async function projectBonusTables(db: Executor, events: readonly RecordedEvent[]): Promise<void> {
  for (const recorded of events) {
    const event = recorded as unknown as RecordedEvent<BonusTableEvent>;
    if (event.type !== 'BonusGenerationsChanged') continue;
    const { kind, package_id, changes } = event.data;
    const row = await db.selectFrom('bonus_generation_tables').select('percentages').where('kind', '=', kind).where('package_id', '=', package_id).executeTakeFirst();
    const percentages = GENERATIONS.map((g, index) => changes[generationField(g)] ?? row?.percentages[index] ?? 0);
    const values = { kind, package_id, percentages: JSON.stringify(percentages), updated_at: new Date(recorded.recordedAt) };
    await db
      .insertInto('bonus_generation_tables')
      .values(values)
      .onConflict((oc) => oc.columns(['kind', 'package_id']).doUpdateSet({ percentages: values.percentages, updated_at: values.updated_at }))
      .execute();
  }
}
