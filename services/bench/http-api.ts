/**
 * The api process of the HTTP and projection-lag benchmarks (forked by http.bench.ts and
 * lag.bench.ts): the real app (buildApp over createRuntime, as services/src/api/server.ts starts
 * it) on the bench's database, plus, for the benchmark only, a reference route on the same Fastify
 * instance that does one plain INSERT. Before listening it seeds the demo company and `members`
 * funded, active members with verified bank details, and opens a session for each.
 *
 * Protocol (IPC): the parent sends { databaseUrl, members, queuePrefix }; this process answers
 * { port, members: [{ id, token }] } once it listens, and exits on 'stop' (or when the parent goes).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp } from '../src/api/app';
import { createRuntime } from '../src/api/runtime';
import { startSession } from '../src/auth/sessions';
import { loadConfig } from '../src/core/config';
import { createDb } from '../src/core/db';
import { seedDemoCompany } from '../src/seed/demo-company';
import { createFundedMembers } from './funded-members';

/** `profileFile`: record a V8 CPU profile of this process from listening to 'stop' (node:inspector), written there. */
export type HttpApiRequest = { databaseUrl: string; members: number; queuePrefix: string; consumers: boolean; profileFile?: string };
export type HttpApiReady = { port: number; members: Array<{ id: string; token: string }> };

/** A plain table of the events' shape for the reference route's INSERT. */
export const REFERENCE_TABLE = 'bench_http_reference';

async function start(request: HttpApiRequest): Promise<{ ready: HttpApiReady; close: () => Promise<void> }> {
  const config = loadConfig({
    DATABASE_URL: request.databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: request.queuePrefix,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    SESSION_IDLE_MINUTES: '600',
    // Alternated runs compare with and without (on by default: decision NN).
    PG_PREPARED_STATEMENTS: process.env.PG_PREPARED_STATEMENTS,
  });
  // consumers: [] keeps the doorbell quiet when no worker runs (the HTTP benchmark); the lag
  // benchmark runs the real worker, which these rings wake.
  if (process.env.BENCH_HTTP_LOG_STATEMENTS === '1') {
    // Every statement's duration into the server's log (a short run only: it logs each one).
    const admin = createDb(request.databaseUrl, { max: 1 });
    await sql`do $$ begin execute format('alter database %I set log_min_duration_statement = 0', current_database()); end $$`.execute(admin);
    await admin.destroy();
  }
  const runtime = createRuntime(config, pino({ level: 'silent' }), request.consumers ? {} : { consumers: [] });
  await seedDemoCompany(runtime.commands);
  const db = runtime.db;
  await sql`create table if not exists ${sql.table(REFERENCE_TABLE)} (like events including all)`.execute(db);

  const members = await createFundedMembers(runtime.commands, request.members);

  const app = await buildApp({ ...runtime });
  // The reference: one plain INSERT of an event-shaped row, on the same instance, pool and logger.
  app.post('/bench/reference-insert', async () => {
    const id = randomUUID();
    await sql`insert into ${sql.table(REFERENCE_TABLE)} (stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash)
      values (${`bench-${id}`}, 1, 'BenchReference', ${JSON.stringify({ id })}::jsonb, '{}'::jsonb, now(), ${id}::uuid, '', '')`.execute(db);
    return { success: true, message: 'Inserted', data: null };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const tokens = [];
  for (const m of members) {
    const session = await startSession(db, { kind: 'member', id: m.id }, { now: new Date() });
    tokens.push({ id: m.id, token: app.jwt.sign({ sid: session.id }) });
  }
  let profiler: Session | null = null;
  if (request.profileFile) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  return {
    ready: { port, members: tokens },
    async close() {
      if (profiler && request.profileFile) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(request.profileFile, JSON.stringify(profile));
      }
      await app.close();
      await runtime.close();
    },
  };
}

let running: { close: () => Promise<void> } | null = null;
process.on('message', (message: HttpApiRequest | 'stop') => {
  if (message === 'stop') {
    void (running?.close() ?? Promise.resolve()).finally(() => process.exit(0));
    return;
  }
  start(message).then(
    (started) => {
      running = started;
      process.send!({ ok: true, ready: started.ready });
    },
    (error: unknown) => {
      process.send!({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    },
  );
});
process.on('disconnect', () => process.exit(0));
