import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, Migrator, sql } from 'kysely';
import { migrations } from '../../../migrations';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

/**
 * Runs every pending migration; safe to call from several instances at once (kysely locks).
 * Unordered migrations are allowed: capabilities built in parallel land migrations whose names sort
 * before one a development database already ran; each migration touches only its own tables.
 */
/** Applies the migrations not yet applied; answers how many it applied. */
export async function migrateToLatest(db: Kysely<any>): Promise<number> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return results?.filter((r) => r.status === 'Success').length ?? 0;
}

/** Creates a database if it does not exist (run against the server's `postgres` database). */
export async function ensureDatabase(adminDb: Kysely<any>, name: string, template?: string): Promise<void> {
  const { rows } = await sql<{ n: number }>`select 1 as n from pg_database where datname = ${name}`.execute(adminDb);
  if (rows.length > 0) return;
  await sql`create database ${sql.id(name)} ${template ? sql`template ${sql.id(template)}` : sql``}`.execute(adminDb);
}
