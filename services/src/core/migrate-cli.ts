import { loadConfig } from './config';
import { createDb } from './db';
import { migrateToLatest } from './migrate';

/**
 * `npm run migrate`: applies the pending migrations to DATABASE_URL (the api and the worker also do
 * it when they start). Safe beside running instances: kysely's migration lock.
 */
const config = loadConfig(process.env);
const db = createDb(config.DATABASE_URL, { applicationName: 'portal-migrate' });
try {
  const applied = await migrateToLatest(db);
  console.log(applied === 0 ? 'The database is up to date.' : `Applied ${applied} migration${applied === 1 ? '' : 's'}.`);
} finally {
  await db.destroy();
}
