import type { BonusTableKind, GenerationField } from '../contracts/settings';
import type { DomainEvent } from '../core/event-store';
import type { SettingsValues } from './values';

export const SETTINGS_STREAM = 'settings';

/** Records which fields changed, from what, to what; the actor is in the metadata. */
export type SettingsChanged = DomainEvent<
  'SettingsChanged',
  { changes: Partial<SettingsValues>; previous: Partial<SettingsValues> }
>;

export type SettingsEvent = SettingsChanged;

/**
 * One bonus generation table row (referral, upgrade, unilevel or stockist upline, for one
 * registration package) changed: the generations that changed, their previous percentages.
 * Stream `bonus-table-<kind>-<packageId>`; a row never set has 0 in every generation.
 */
export type BonusGenerationsChanged = DomainEvent<
  'BonusGenerationsChanged',
  { kind: BonusTableKind; package_id: number; changes: Partial<Record<GenerationField, number>>; previous: Partial<Record<GenerationField, number>> }
>;

export type BonusTableEvent = BonusGenerationsChanged;

export const bonusTableStream = (kind: BonusTableKind, packageId: number) => `bonus-table-${kind}-${packageId}`;
