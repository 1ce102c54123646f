import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadConfig } from '../core/config';
import { migrateToLatest } from '../core/migrate';
import { migrations } from '../../../migrations';
import { seedDemoCompany } from '../seed/demo-company';
import { buildApp } from './app';
import { createRuntime } from './runtime';

/**
 * The api process: `tsx services/src/api/server.ts`. Migrates (kysely locks, so several instances
 * may start at once), seeds the demo company into an empty database, and listens on PORT.
 */
export async function startApi(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  const logger = pino({
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', 'password', 'old_password', 'code'],
    ...(process.stdout.isTTY ? { transport: { target: 'pino/file', options: { destination: 1 } } } : {}),
  });
  const runtime = createRuntime(config, logger);
  const migrated = await migrateToLatest(runtime.db);
  const seeded = await seedDemoCompany(runtime.commands);
  if (seeded) logger.info('seeded the demo company');
  const app = await buildApp({ ...runtime, httpLogger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] } });
  await app.listen({ port: config.PORT, host: config.HOST });
  return {
    app,
    runtime,
    /** What this start did to the database (`npm start` says it). */
    database: { migrated, total: Object.keys(migrations).length, seeded: Boolean(seeded) },
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = await startApi();
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) api.runtime.logger.error({ err }, 'closing after an error');
    await api.close();
  });
}
