import { createHash } from 'node:crypto';
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

/** `preparedStatements`: run the PREPARED statements as named prepared statements (off unless asked: decision 66). */
export function createDb(connectionString: string, options: { max?: number; applicationName?: string; preparedStatements?: boolean } = {}): Db {
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
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: options.preparedStatements ? preparingPool(pool) : pool }) });
}

/**
 * Statements whose SQL starts with this comment run as named prepared statements (issue 13
 * item 2): parsed once per connection, and their plan cached by PostgreSQL after a few runs
 * (plan_cache_mode auto), instead of parsed and planned at every call, which cost a command's hot
 * statements (the session check, the stream's load, the append with its projection) more server
 * time than running them. Only statements of a fixed shape, run again and again, should carry it:
 * each distinct text is one prepared statement kept on every connection of the pool
 * (PREPARED_PER_CONNECTION at most; beyond, statements run unnamed as any other).
 */
export const PREPARED = '/* prepared */';
const PREPARED_PER_CONNECTION = 200;

/** The PREPARED statements each connection has been asked to prepare (its names). */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size < 10 * PREPARED_PER_CONNECTION) statementNames.set(text, name);
  }
  return name;
}

/** The pool kysely sees: its clients name the PREPARED statements by a hash of their text. */
function preparingPool(pool: pg.Pool): pg.Pool {
  const connect = async () => {
    const client = await pool.connect();
    let names = preparedOn.get(client);
    if (!names) preparedOn.set(client, (names = new Set()));
    const prepared = names;
    // A view of the client whose query names PREPARED statements; the client itself is untouched.
    const run = (...args: unknown[]) => (client.query as (...args: unknown[]) => unknown).apply(client, args);
    const query = (text: unknown, values?: unknown, callback?: unknown) => {
      if (typeof text === 'string' && text.startsWith(PREPARED) && Array.isArray(values)) {
        const name = statementName(text);
        if (prepared.has(name) || prepared.size < PREPARED_PER_CONNECTION) {
          prepared.add(name);
          return run({ name, text, values }, callback);
        }
      }
      return run(text, values, callback);
    };
    return new Proxy(client, {
      get: (target, key) => {
        if (key === 'query') return query;
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  return new Proxy(pool, {
    get: (target, key) => {
      if (key === 'connect') return connect;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
