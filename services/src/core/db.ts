import { createHash } from 'node:crypto';
import { Kysely, type KyselyPlugin, PostgresDialect, type Transaction } from 'kysely';
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

/** `preparedStatements`: run the PREPARED statements as named prepared statements (the api's runtime asks unless PG_PREPARED_STATEMENTS=0). */
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
  if (!options.preparedStatements) return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) }).withPlugin(NAMES_PREPARED);
}

/** Marks a Kysely (and its transactions) whose PREPARED statements run named; it changes no query. */
const NAMES_PREPARED: KyselyPlugin = { transformQuery: (args) => args.node, transformResult: async (args) => args.result };

/**
 * Whether `db` runs PREPARED statements as named prepared statements (createDb's
 * `preparedStatements`). A statement whose planning costs more than a function call's (the
 * single-event append, core/event-store.ts) asks, and takes the function's way when not.
 */
export function namesPrepared(db: Executor): boolean {
  return db.getExecutor().plugins.includes(NAMES_PREPARED);
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
/** Names whose plan went stale inside a transaction: deallocated before their next use on the connection. */
const staleOn = new WeakMap<pg.PoolClient, Set<string>>();

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size < 10 * PREPARED_PER_CONNECTION) statementNames.set(text, name);
  }
  return name;
}

/**
 * A named statement whose result's shape changed under it: a migration added a column to a table
 * it reads with `*`, or replaced a function it calls with one returning other columns, while this
 * connection held it prepared. PostgreSQL re-plans it but refuses to change the row type it
 * described at its Parse (SQLSTATE 0A000), on every call until the statement is deallocated.
 */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type');
}

type PgClientInternals = pg.PoolClient & {
  connection?: { parsedStatements?: Record<string, string> };
  getTransactionStatus?: () => string | null;
};

/**
 * The pool kysely sees: its clients name the PREPARED statements by a hash of their text.
 *
 * A stale plan (isStalePlan: a migration changed what a named statement returns while the api
 * runs) is recovered on the connection that holds it: the statement is deallocated and prepared
 * anew from its text, which parses against the new schema. Outside a transaction the failed
 * statement changed nothing, so it is run again at once and the caller never sees the error.
 * Inside one, the transaction is aborted and the error surfaces (runCommand and runInTransaction
 * re-run their unit once on it); the statement is deallocated at its next use on the connection.
 * Tested in db-prepared.int.spec.ts.
 */
function preparingPool(pool: pg.Pool): pg.Pool {
  const connect = async () => {
    const client = (await pool.connect()) as PgClientInternals;
    let names = preparedOn.get(client);
    if (!names) preparedOn.set(client, (names = new Set()));
    const prepared = names;
    let stale = staleOn.get(client);
    if (!stale) staleOn.set(client, (stale = new Set()));
    const toDeallocate = stale;
    // A view of the client whose query names PREPARED statements; the client itself is untouched.
    const run = (...args: unknown[]) => (client.query as (...args: unknown[]) => unknown).apply(client, args);
    const forget = (name: string) => {
      // pg skips the Parse of a name it has parsed on this connection: make it parse again.
      if (client.connection?.parsedStatements) delete client.connection.parsedStatements[name];
    };
    const runPrepared = async (name: string, text: string, values: unknown[]) => {
      if (toDeallocate.delete(name)) await run(`deallocate "${name}"`);
      // 'I': no transaction open before this statement, so if it fails it changed nothing.
      const outsideTransaction = client.getTransactionStatus?.() === 'I';
      try {
        return await run({ name, text, values });
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        forget(name);
        if (!outsideTransaction) {
          toDeallocate.add(name);
          throw error;
        }
        await run(`deallocate "${name}"`);
        return await run({ name, text, values });
      }
    };
    const query = (text: unknown, values?: unknown, callback?: unknown) => {
      if (typeof text === 'string' && text.startsWith(PREPARED) && Array.isArray(values) && callback === undefined) {
        const name = statementName(text);
        if (prepared.has(name) || prepared.size < PREPARED_PER_CONNECTION) {
          prepared.add(name);
          return runPrepared(name, text, values);
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
