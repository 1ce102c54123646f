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
  const embedded = await startEmbeddedPostgresWhenNeeded();
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
  return async () => {
    await embedded?.stop();
  };
}

/**
 * Tests use DATABASE_URL, else the machine's PostgreSQL at 127.0.0.1:5432; when neither answers (or
 * PORTAL_TEST_EMBEDDED_PG=1), an embedded PostgreSQL from npm under .data/test-postgres.
 */
async function startEmbeddedPostgresWhenNeeded() {
  const forced = process.env.PORTAL_TEST_EMBEDDED_PG === '1';
  if (!forced) {
    if (process.env.DATABASE_URL) return null;
    const probe = new pg.Client({ connectionString: serverUrl(), connectionTimeoutMillis: 2000 });
    const reachable = await probe.connect().then(() => true, () => false);
    await probe.end().catch(() => {});
    if (reachable) return null;
  }
  const { startEmbeddedPostgres } = await import('../../infra/src/embedded-postgres');
  const root = path.resolve(import.meta.dirname, '../..');
  await fs.mkdir(path.join(root, '.data'), { recursive: true, mode: 0o755 });
  await fs.chmod(path.join(root, '.data'), 0o755);
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(root, '.data/test-postgres'), port: 5434 });
  // Test files run in worker processes forked after this: they inherit the variable.
  process.env.DATABASE_URL = embedded.url;
  return embedded;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
