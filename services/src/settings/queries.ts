import { type BonusGenerationRow, type BonusTableKind, GENERATIONS, type Settings, generationField } from '../contracts/settings';
import type { Executor } from '../core/db';
import { koboToNaira } from '../core/money';
import type { SettingsValues } from './values';

/** The settings record as the API shows it: naira for money, `charge` in the unit its type uses. */
export function settingsToApi(values: SettingsValues): Settings {
  const {
    default_referral_code: _internal,
    unit_point_value_kobo,
    global_profit_value_kobo,
    minimum_withdrawal_kobo,
    maximum_withdrawal_kobo,
    withdrawal_charge_cap_kobo,
    charge,
    charge_kobo,
    ...sameAtTheApi
  } = values;
  return {
    id: 1,
    ...sameAtTheApi,
    unit_point_value: koboToNaira(unit_point_value_kobo),
    global_profit_value: koboToNaira(global_profit_value_kobo),
    minimum_withdrawal: koboToNaira(minimum_withdrawal_kobo),
    maximum_withdrawal: koboToNaira(maximum_withdrawal_kobo),
    withdrawal_charge_cap: koboToNaira(withdrawal_charge_cap_kobo),
    charge: values.withdrawal_charge_type === 'flat' ? koboToNaira(charge_kobo) : charge,
    // Absent on a company set up before it existed: spillover then fills the first free place (docs/placement.md).
    default_placement_preference: values.default_placement_preference ?? 'balanced',
  };
}

/** A whole table as package id → percentages of generations 1..10 (tables priced by the beneficiary's package). */
export async function bonusPercentagesByPackage(db: Executor, kind: BonusTableKind): Promise<Record<number, number[]>> {
  const rows = await db.selectFrom('bonus_generation_tables').select(['package_id', 'percentages']).where('kind', '=', kind).execute();
  return Object.fromEntries(rows.map((row) => [row.package_id, row.percentages]));
}

/** Every registration package with its row of the table (the row id is the package id). */
export async function listBonusTable(db: Executor, kind: BonusTableKind, options: { packageId?: number } = {}): Promise<BonusGenerationRow[]> {
  let query = db
    .selectFrom('packages')
    .leftJoin('bonus_generation_tables as t', (join) => join.onRef('t.package_id', '=', 'packages.id').on('t.kind', '=', kind))
    .select(['packages.id', 'packages.name', 't.percentages'])
    .orderBy('packages.id');
  if (options.packageId !== undefined) query = query.where('packages.id', '=', options.packageId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    package_id: row.id,
    ...(Object.fromEntries(GENERATIONS.map((g, index) => [generationField(g), row.percentages?.[index] ?? 0])) as Record<ReturnType<typeof generationField>, number>),
  }));
}
