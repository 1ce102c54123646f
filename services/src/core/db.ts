import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from '../database';

// int8 columns (positions, kobo) come back as JS numbers. Kobo stay far below 2^53 (≈ ₦90 trillion);
// parsing refuses anything that would lose precision instead of silently rounding it.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} does not fit a JS number`);
  return n;
});

export type Db = Kysely<Database>;
export type Executor = Kysely<Database> | Transaction<Database>;

export function createDb(connectionString: string, options: { max?: number; applicationName?: string } = {}): Db {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    // pg's default closes a connection idle for 10 s, so a member clicking every few seconds paid a
    // new connection (a backend fork and, with the embedded PostgreSQL, a SCRAM handshake) on
    // the first call of each page. Connections now stay open for 5 minutes.
    idleTimeoutMillis: 5 * 60_000,
    application_name: options.applicationName ?? 'portal',
    // An open transaction holding an xid holds back every log reader (docs/event-store.md):
    // never let one idle.
    options: '-c idle_in_transaction_session_timeout=30000 -c statement_timeout=30000',
  });
  // An idle connection the server ended (restart, admin command) must not crash the process;
  // the pool replaces it on next use.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
