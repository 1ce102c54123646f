import { sql } from 'kysely';
import type { Executor } from '../core/db';
import { NotFound } from '../core/errors';
import type { RecordedEvent } from '../core/event-store';
import type { SettingsEvent } from './events';
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
  if (!row) throw new NotFound('The company settings are not set up yet.');
  return settingsValues.parse(row.values);
}
