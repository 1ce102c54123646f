import type { Migration } from 'kysely';
import * as eventStore from './2026_11_22_00_00_00_event_store';
import * as accountsAndCatalogue from './2026_11_22_01_00_00_accounts_and_catalogue';

/**
 * Every migration in order. A static list rather than kysely's FileMigrationProvider: the
 * provider's dynamic import() cannot load .ts files under vitest, and a list also makes a
 * forgotten migration a type error rather than a surprise in production.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_22_00_00_00_event_store': eventStore,
  '2026_11_22_01_00_00_accounts_and_catalogue': accountsAndCatalogue,
};
