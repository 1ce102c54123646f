import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Db, createDb } from '../src/core/db';
import { serverUrl, testDatabaseUrl } from './urls';

export type TestDatabase = { db: Db; url: string; name: string; drop: () => Promise<void> };

/** A fresh database of this test file's own, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = testDatabaseUrl(name);
  const db = createDb(url, { max: 30, applicationName: 'portal-test' });
  return {
    db,
    url,
    name,
    async drop() {
      await db.destroy();
      const client = new pg.Client({ connectionString: serverUrl() });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export function testQueuePrefix(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}
