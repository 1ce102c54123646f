import { koboToNaira } from '../core/money';
import type { Executor } from '../core/db';
import type { RegistrationPackage } from '../contracts/catalogue';
import type { PackagesTable } from '../database';
import type { Selectable } from 'kysely';

export function packageToApi(row: Selectable<PackagesTable>): RegistrationPackage {
  return {
    id: row.id,
    name: row.name,
    point_value: row.point_value,
    registration_value: koboToNaira(row.registration_value),
    pickup_amount: koboToNaira(row.pickup_amount),
    matching_bonus_cap: koboToNaira(row.matching_bonus_cap),
  };
}

export async function findPackage(db: Executor, id: number) {
  return db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listPackages(db: Executor) {
  return db.selectFrom('packages').selectAll().orderBy('id').execute();
}
