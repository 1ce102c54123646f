/**
 * `npm start`: the whole portal in one process tree on this machine.
 * - PostgreSQL: DATABASE_URL, or an embedded PostgreSQL (real binaries from npm) under .data/.
 * - Redis: REDIS_URL or 127.0.0.1:6379, or a clear message on how to get one.
 * - Mail: a local SMTP capture with a web page to read what the portal sent (unless SMTP_HOST is set).
 * - Card payments: the local Paystack stand-in on PAYSTACK_STANDIN_PORT or 4010 (unless PAYSTACK_BASE_URL is set).
 * - Builds both web apps when they are not built yet, then runs the api and a worker.
 */
import { execSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startApi } from '../../services/src/api/server';
import { startWorker } from '../../services/src/worker/worker';
import { demoLogins } from '../../services/src/seed/demo-company';
import { startEmbeddedPostgres } from './embedded-postgres';
import { startMailCapture } from './mail-capture';
import { TEST_CARD } from './paystack-checkout-page';
import { type PaystackStandin, startPaystackStandin } from './paystack-standin';
import { ensureRedis } from './redis-check';

const root = path.resolve(import.meta.dirname, '../..');
const env: Record<string, string | undefined> = { ...process.env };
const stops: Array<() => Promise<void>> = [];

async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1)) || 'portal';
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** The stand-in on its usual port, or on a free one when that port is taken (the api is told which). */
async function startLocalPaystack(): Promise<PaystackStandin> {
  const options = { secretKey: env.PAYSTACK_SECRET_KEY, publicUrl: env.PAYSTACK_STANDIN_PUBLIC_URL };
  try {
    return await startPaystackStandin({ ...options, port: Number(env.PAYSTACK_STANDIN_PORT ?? 4010) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startPaystackStandin({ ...options, port: 0 });
  }
}

async function main() {
  // Redis first: a missing Redis should not leave an embedded PostgreSQL started for nothing.
  env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  try {
    const warning = await ensureRedis(env.REDIS_URL);
    if (warning) console.warn(`! ${warning}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }

  if (!env.DATABASE_URL) {
    console.log('DATABASE_URL is not set: starting an embedded PostgreSQL under .data/postgres …');
    // As root, PostgreSQL runs as the 'postgres' user, which must be able to walk into .data.
    mkdirSync(path.join(root, '.data'), { recursive: true, mode: 0o755 });
    chmodSync(path.join(root, '.data'), 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir: path.join(root, '.data/postgres'), port: Number(env.EMBEDDED_PG_PORT ?? 5433), database: 'portal' });
    stops.push(() => embedded.stop());
    env.DATABASE_URL = embedded.url;
  } else {
    await ensureDatabaseExists(env.DATABASE_URL);
  }
  let mailPage: string | null = null;
  if (!env.SMTP_HOST) {
    const mail = await startMailCapture({ smtpPort: Number(env.MAIL_SMTP_PORT ?? 1025), httpPort: Number(env.MAIL_HTTP_PORT ?? 1080) });
    stops.push(() => mail.close());
    env.SMTP_HOST = '127.0.0.1';
    env.SMTP_PORT = String(mail.smtpPort);
    mailPage = mail.httpUrl;
  }
  let paystack: PaystackStandin | null = null;
  if (!env.PAYSTACK_BASE_URL) {
    paystack = await startLocalPaystack();
    stops.unshift(() => paystack!.close());
    env.PAYSTACK_BASE_URL = paystack.url;
    env.PAYSTACK_SECRET_KEY = paystack.secretKey;
  }

  for (const app of ['web-member', 'web-admin']) {
    if (!existsSync(path.join(root, app, 'dist/index.html'))) {
      console.log(`Building ${app} (first start) …`);
      execSync(`npm run build -w ${app}`, { cwd: root, stdio: 'inherit' });
    }
  }

  env.LOG_LEVEL ??= 'warn';
  // The demo company (and its printed logins) is for this machine only; never in production.
  const demo = (env.NODE_ENV ?? '').toLowerCase() !== 'production';
  if (demo) env.SEED_DEMO ??= 'true';
  const api = await startApi(env);
  stops.unshift(() => api.close());
  const worker = await startWorker(env);
  stops.unshift(() => worker.close());

  const port = api.app.server.address();
  const apiPort = typeof port === 'object' && port ? port.port : env.PORT ?? 3000;
  const base = `http://localhost:${apiPort}`;
  paystack?.setWebhookTarget(`http://127.0.0.1:${apiPort}/api/payments/webhook`);
  console.log(
    [
      '',
      'Herbal Life Network portal is running.',
      `  Database        ${api.database.migrated > 0 ? `migrated (${api.database.migrated} of ${api.database.total} migrations applied now)` : `up to date (${api.database.total} migrations)`}; ${api.database.seeded ? 'seeded the demo company' : 'kept its data (not seeded again)'}`,
      `  Member app      ${base}/login`,
      `  Admin app       ${base}/admin-login`,
      `  API docs        ${base}/api/docs`,
      `  Health          ${base}/api/health   (liveness: the process answers)`,
      `  Readiness       ${base}/api/ready    (PostgreSQL and Redis answer; workers' lag)`,
      `  Metrics         ${base}/metrics`,
      mailPage ? `  Captured mail   ${mailPage}   (confirmation and sign-in codes land here)` : '',
      paystack ? `  Card payments   ${paystack.url}   (local Paystack stand-in; test card ${TEST_CARD.number} is prefilled)` : '',
      '',
      ...(demo && env.SEED_DEMO === 'true'
        ? [
            'Demo logins:',
            `  member (company root)  ${demoLogins.root.username} / ${demoLogins.root.password}`,
            `  admin                  ${demoLogins.admin.email} / ${demoLogins.admin.password}`,
            `  finance (read-only)    ${demoLogins.finance.email} / ${demoLogins.finance.password}`,
            '',
          ]
        : []),
      'Press Ctrl+C to stop.',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  for (const stop of stops) await stop().catch((error) => console.error(error));
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

main().catch(async (error) => {
  console.error(error);
  await shutdown();
  process.exit(1);
});
