import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { startSession, touchSession } from '../auth/sessions';
import { runCommand, runInTransaction } from './command';
import { type Db, type Executor, PREPARED, createDb, isStalePlan } from './db';
import { type EventMetadata, appendToStream, readStream, streamVersion } from './event-store';

/**
 * The deploy risk of named prepared statements (decision 66): a migration changes what a statement
 * returns while the api runs and holds it prepared on a pooled connection. These tests make that
 * change between two runs of the same statement on the same connection (a pool of one).
 */
let t: TestDatabase;
let prepared: Db;
/** Another connection, as the migration runner would be. */
let migrator: pg.Client;

beforeAll(async () => {
  t = await createTestDatabase();
  prepared = createDb(t.url, { max: 1, preparedStatements: true });
  migrator = new pg.Client({ connectionString: t.url });
  await migrator.connect();
});
afterAll(async () => {
  await migrator.end();
  await prepared.destroy();
  await t.drop();
});

const readGadget = (db: Db, id: number) =>
  sql<Record<string, unknown>>`${sql.raw(PREPARED)} select * from gadgets where id = ${id}`.execute(db);

describe('named prepared statements across a migration', () => {
  it('Given a statement prepared on a connection, When a column is added to the table it reads with *, Then PostgreSQL refuses the named statement (the risk is real)', async () => {
    // pg itself, no recovery: the same name on the same connection after the change.
    await migrator.query('create table hazard (id int primary key, a text)');
    await migrator.query(`insert into hazard values (1, 'x')`);
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      await client.query({ name: 'hazard_read', text: 'select * from hazard where id = $1', values: [1] });
      await migrator.query('alter table hazard add column b int');
      const failure = await client.query({ name: 'hazard_read', text: 'select * from hazard where id = $1', values: [1] }).catch((e: unknown) => e);
      expect(isStalePlan(failure)).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('Given a pooled connection holding a prepared read, When a migration adds a column, Then the next run answers with the new shape instead of failing', async () => {
    await migrator.query('create table gadgets (id int primary key, name text)');
    await migrator.query(`insert into gadgets values (1, 'first')`);
    expect((await readGadget(prepared, 1)).rows).toEqual([{ id: 1, name: 'first' }]);
    expect((await readGadget(prepared, 1)).rows).toEqual([{ id: 1, name: 'first' }]);

    await migrator.query(`alter table gadgets add column colour text not null default 'green'`);

    expect((await readGadget(prepared, 1)).rows).toEqual([{ id: 1, name: 'first', colour: 'green' }]);
    // And it stays prepared, with the new shape, on later runs.
    expect((await readGadget(prepared, 1)).rows).toEqual([{ id: 1, name: 'first', colour: 'green' }]);
  });

  it('Given a prepared call of a function, When the function is replaced by one returning other columns, Then the next call answers with the new columns', async () => {
    await migrator.query(`create function gadget_tally(n int) returns table (total int) language sql as 'select n * 2'`);
    const call = (n: number) => sql<Record<string, unknown>>`${sql.raw(PREPARED)} select * from gadget_tally(${n}::int)`.execute(prepared);
    expect((await call(2)).rows).toEqual([{ total: 4 }]);

    await migrator.query('drop function gadget_tally(int)');
    await migrator.query(`create function gadget_tally(n int) returns table (total int, doubled boolean) language sql as 'select n * 2, true'`);

    expect((await call(3)).rows).toEqual([{ total: 6, doubled: true }]);
  });

  it('Given the session check prepared on a connection, When a migration adds a column to sessions, Then a signed-in request is still recognised, and a signed-out one still refused', async () => {
    const now = new Date();
    const live = await startSession(t.db, { kind: 'member', id: crypto.randomUUID() }, { now });
    const ended = await startSession(t.db, { kind: 'member', id: crypto.randomUUID() }, { now });
    await t.db.updateTable('sessions').set({ ended_at: now, end_reason: 'logout' }).where('id', '=', ended.id).execute();
    expect(await touchSession(prepared, live.id, now, 15)).toMatchObject({ id: live.id });
    expect(await touchSession(prepared, ended.id, now, 15)).toBeNull();

    await migrator.query('alter table sessions add column device_label text');

    expect(await touchSession(prepared, live.id, now, 15)).toMatchObject({ id: live.id });
    expect(await touchSession(prepared, ended.id, now, 15)).toBeNull();
  });

  it('Given the change lands while the connection is inside a transaction, When the unit runs in runInTransaction, Then the aborted transaction is re-run once and succeeds', async () => {
    await migrator.query('create table widgets (id int primary key, name text)');
    await migrator.query(`insert into widgets values (1, 'w')`);
    const read = (db: Executor) =>
      sql<Record<string, unknown>>`${sql.raw(PREPARED)} select * from widgets where id = ${1}`.execute(db);
    expect((await read(prepared)).rows).toEqual([{ id: 1, name: 'w' }]);
    await migrator.query('alter table widgets add column size int not null default 7');

    const ctx = { db: prepared, onCommitted: () => {} };
    let runs = 0;
    const rows = await runInTransaction(ctx, async (trx) => {
      runs++;
      return (await read(trx)).rows;
    });
    expect(rows).toEqual([{ id: 1, name: 'w', size: 7 }]);
    expect(runs).toBe(2);
    // The connection is healthy afterwards, outside a transaction too.
    expect((await read(prepared)).rows).toEqual([{ id: 1, name: 'w', size: 7 }]);
  });

  it('Given a statement that fails for another reason, When it runs prepared, Then the error surfaces unchanged and is not re-run', async () => {
    await migrator.query('create table gizmos (id int primary key)');
    const insert = () => sql`${sql.raw(PREPARED)} insert into gizmos values (${1}::int)`.execute(prepared);
    await insert();
    const failure = await insert().catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('23505');
    expect(Number((await migrator.query('select count(*) from gizmos')).rows[0].count)).toBe(1);
  });
});

describe('a stale plan on a write, and in runCommand\'s locked path', () => {
  const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });
  const readDial = (db: Executor) => sql<Record<string, unknown>>`${sql.raw(PREPARED)} select * from dials where id = ${1}`.execute(db);
  /** The stream runCommand's units below append to, as wallets do: version read, append at it, then a prepared read that may go stale. */
  const stream = 'stale-locked-1';

  it('Given a prepared insert … returning * on a pooled connection, When a migration adds a column to its table, Then the next insert is run once more, inserts exactly one row and answers it in the new shape', async () => {
    await migrator.query('create table parcels (id serial primary key, label text not null)');
    const insert = (label: string) =>
      sql<Record<string, unknown>>`${sql.raw(PREPARED)} insert into parcels (label) values (${label}) returning *`.execute(prepared);
    expect((await insert('first')).rows).toEqual([{ id: 1, label: 'first' }]);

    await migrator.query('alter table parcels add column weight int not null default 5');

    // The failed run inserted nothing (PostgreSQL refuses the stale plan before executing it), the re-run inserted one row.
    expect((await insert('second')).rows).toEqual([{ id: expect.any(Number), label: 'second', weight: 5 }]);
    const { rows } = await migrator.query('select label, weight from parcels order by id');
    expect(rows).toEqual([
      { label: 'first', weight: 5 },
      { label: 'second', weight: 5 },
    ]);
  });

  it('Given a lockOnRetry command whose first attempt lost to another writer, When a statement of its locked retry went stale, Then the locked unit is re-run once and its event is appended exactly once', async () => {
    await migrator.query('create table dials (id int primary key, reading int not null)');
    await migrator.query('insert into dials values (1, 10)');
    expect((await readDial(prepared)).rows).toEqual([{ id: 1, reading: 10 }]);
    await migrator.query(`alter table dials add column unit text not null default 'kPa'`);

    const ctx = { db: prepared, onCommitted: () => {} };
    const runs: boolean[] = [];
    const result = await runCommand(
      ctx,
      async (run) => {
        runs.push(run.locked);
        const { version } = await streamVersion(run.db, stream);
        // Another writer moves the stream between this attempt's read and its append: a real conflict.
        if (runs.length === 1) await appendToStream(t.db, stream, [{ type: 'DialTurnedElsewhere', data: {} }], { expectedVersion: version, metadata: metadata() });
        await appendToStream(run.db, stream, [{ type: 'DialRead', data: { attempt: runs.length } }], { expectedVersion: version, metadata: metadata() });
        // After the append, in the same transaction: a stale plan here must undo the append.
        return (await readDial(run.db)).rows;
      },
      { lockOnRetry: true, stream },
    );

    // Unlocked and conflicted; locked and stale (rolled back); locked again and committed.
    expect(runs).toEqual([false, true, true]);
    expect(result).toEqual([{ id: 1, reading: 10, unit: 'kPa' }]);
    const events = await readStream(t.db, stream);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['DialTurnedElsewhere', {}],
      ['DialRead', { attempt: 3 }],
    ]);
  });

  it('Given a stream marked recently contended, When a statement of the unit went stale in its locked first attempt, Then the unit is re-run once and its event is appended exactly once', async () => {
    // The previous test's conflict on `stream` marked it contended (for 5 s): this command takes the lock from its first attempt.
    expect((await readDial(prepared)).rows).toEqual([{ id: 1, reading: 10, unit: 'kPa' }]);
    await migrator.query('alter table dials add column checked boolean not null default true');

    const ctx = { db: prepared, onCommitted: () => {} };
    const runs: boolean[] = [];
    const result = await runCommand(
      ctx,
      async (run) => {
        runs.push(run.locked);
        const { version } = await streamVersion(run.db, stream);
        await appendToStream(run.db, stream, [{ type: 'DialRead', data: { attempt: runs.length } }], { expectedVersion: version, metadata: metadata() });
        return (await readDial(run.db)).rows;
      },
      { lockOnRetry: true, stream },
    );

    expect(runs).toEqual([true, true]);
    expect(result).toEqual([{ id: 1, reading: 10, unit: 'kPa', checked: true }]);
    const events = await readStream(t.db, stream);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['DialTurnedElsewhere', {}],
      ['DialRead', { attempt: 3 }],
      ['DialRead', { attempt: 2 }],
    ]);
  });
});
