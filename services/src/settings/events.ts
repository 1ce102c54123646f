import type { DomainEvent } from '../core/event-store';
import type { SettingsValues } from './values';

export const SETTINGS_STREAM = 'settings';

/** Records which fields changed, from what, to what; the actor is in the metadata. */
export type SettingsChanged = DomainEvent<
  'SettingsChanged',
  { changes: Partial<SettingsValues>; previous: Partial<SettingsValues> }
>;

export type SettingsEvent = SettingsChanged;
