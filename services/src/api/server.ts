import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadConfig } from '../core/config';
import { migrateToLatest } from '../core/migrate';
import { seedCompany } from '../seed/company';
import { migrations } from '../../../migrations';
import { seedDemoCompany } from '../seed/demo-company';
import { buildApp } from './app';
import { createRuntime } from './runtime';

/**
 * The api process: `tsx services/src/api/server.ts`. Refuses an unsafe production configuration
 * (core/config.ts), migrates (kysely locks, so several instances may start at once), seeds an empty
 * database (the demo company only when SEED_DEMO is set, as `npm start` does in development; else
 * the company and its first administrator from ADMIN_EMAIL / ADMIN_PASSWORD), and listens on PORT.
 */
export async function startApi(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  const logger = pino({
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', 'password', 'old_password', 'code'],
    ...(process.stdout.isTTY ? { transport: { target: 'pino/file', options: { destination: 1 } } } : {}),
  });
  const runtime = createRuntime(config, logger);
  let app: Awaited<ReturnType<typeof buildApp>>;
  let migrated = 0;
  let seeded = false;
  try {
    migrated = await migrateToLatest(runtime.db);
    if (config.SEED_DEMO) {
      seeded = await seedDemoCompany(runtime.commands);
      if (seeded) logger.info('seeded the demo company');
    } else {
      const company = await seedCompany(runtime);
      seeded = company.seeded;
      if (company.seeded) {
        logger.info({ admin: company.adminEmail, root: company.rootUsername }, 'created the company and its first administrator');
        if (company.setupLink) {
          // Printed once, on the start that created the administrator; the code in the mail is single-use.
          console.log(`\nFirst administrator ${company.adminEmail}: set a password at ${company.setupLink}\n(a one-time code has been mailed there; "Resend code" on that page sends another).\n`);
        }
      }
    }
    app = await buildApp({ ...runtime, httpLogger: { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] } });
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await runtime.close();
    throw error;
  }
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
