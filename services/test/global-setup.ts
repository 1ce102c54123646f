import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_DIR, migrateToLatest } from '../src/core/migrate';
import { serverUrl, testDatabaseUrl } from './urls';

/**
 * Builds (once per set of migrations) a migrated template database; each test file clones it.
 */
export default async function setup(project: TestProject) {
  const files = (await fs.readdir(MIGRATIONS_DIR)).sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(await fs.readFile(path.join(MIGRATIONS_DIR, file)));
  const template = `portal_template_${hash.digest('hex').slice(0, 12)}`;

  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    // Several test runs may start at once (developers, CI): one builds the template, the others wait.
    await admin.query('select pg_advisory_lock(424242)');
    const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount === 0) {
      await admin.query(`create database ${template}`);
      const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: testDatabaseUrl(template), max: 1 }) }) });
      try {
        await migrateToLatest(db);
      } catch (error) {
        await db.destroy();
        await admin.query(`drop database ${template}`);
        throw error;
      }
      await db.destroy();
      await admin.query(`alter database ${template} is_template true`);
    }
    await admin.query('select pg_advisory_unlock(424242)');
  } finally {
    await admin.end();
  }
  project.provide('templateDatabase', template);
  void sql;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
