import type { Transaction } from 'kysely';
import { isWholeKobo } from '../contracts/fields';
import { type BonusGenerationBody, type BonusTableKind, type SettingsUpdateBody, fractionOfKoboMessage } from '../contracts/settings';
import { type Decider, decideOnStream } from '../core/command';
import type { EventMetadata } from '../core/event-store';
import { NotFound, RuleViolation } from '../core/errors';
import { nairaToKobo } from '../core/money';
import type { Database } from '../database';
import { type SettingsState, bonusTableDecider, decideSettings, settingsDecider } from './decider';
import { type SettingsEvent, SETTINGS_STREAM, bonusTableStream } from './events';
import { projectBonusTables, projectSettings } from './projections';
import type { SettingsValues } from './values';

type Trx = Transaction<Database>;

/**
 * The API's partial settings (naira, `charge` in its type's unit) as internal changes (kobo).
 * `charge` belongs to the type sent with it, else to the type in force. Clearing the payout type
 * clears its day.
 */
export function toInternalChanges(body: SettingsUpdateBody, current: SettingsState): Partial<SettingsValues> {
  const { unit_point_value, global_profit_value, minimum_withdrawal, maximum_withdrawal, withdrawal_charge_cap, charge, ...sameUnits } = body;
  const changes: Partial<SettingsValues> = { ...sameUnits };
  const kobo = (naira: number | undefined) => (naira === undefined ? undefined : nairaToKobo(naira));
  changes.unit_point_value_kobo = kobo(unit_point_value);
  changes.global_profit_value_kobo = kobo(global_profit_value);
  changes.minimum_withdrawal_kobo = kobo(minimum_withdrawal);
  changes.maximum_withdrawal_kobo = kobo(maximum_withdrawal);
  changes.withdrawal_charge_cap_kobo = kobo(withdrawal_charge_cap);
  if (charge !== undefined) {
    const type = body.withdrawal_charge_type ?? current.withdrawal_charge_type;
    if (type === 'flat') {
      if (!isWholeKobo(charge)) throw new RuleViolation(fractionOfKoboMessage('flat charge'), 'charge');
      changes.charge_kobo = nairaToKobo(charge);
    }
    else changes.charge = charge;
  }
  if (body.withdrawal_type === null && body.withdrawal_period === undefined) changes.withdrawal_period = null;
  return changes;
}

/** The settings decider, taking the API's body: the units are resolved against the state it folds. */
const settingsFromApiDecider: Decider<SettingsState, SettingsUpdateBody, SettingsEvent> = {
  ...settingsDecider,
  decide: (body, state) => decideSettings({ type: 'ChangeSettings', changes: toInternalChanges(body, state) }, state),
};

export async function changeSettings(trx: Trx, body: SettingsUpdateBody, metadata: EventMetadata): Promise<void> {
  const { events } = await decideOnStream(trx, SETTINGS_STREAM, settingsFromApiDecider, body, metadata);
  await projectSettings(trx, events);
}

/** Changes internal values directly (the demo seed's first settings). */
export async function defineSettings(trx: Trx, values: SettingsValues, metadata: EventMetadata): Promise<void> {
  const { events } = await decideOnStream(trx, SETTINGS_STREAM, settingsDecider, { type: 'ChangeSettings', changes: values }, metadata);
  await projectSettings(trx, events);
}

export async function setBonusGenerations(trx: Trx, kind: BonusTableKind, packageId: number, percentages: BonusGenerationBody, metadata: EventMetadata): Promise<void> {
  const found = await trx.selectFrom('packages').select('id').where('id', '=', packageId).executeTakeFirst();
  if (!found) throw new NotFound('Package not found.');
  const { events } = await decideOnStream(trx, bonusTableStream(kind, packageId), bonusTableDecider, { type: 'SetGenerations', kind, package_id: packageId, percentages }, metadata);
  await projectBonusTables(trx, events);
}
