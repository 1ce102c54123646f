import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { type Db, createDb, namesPrepared } from './db';
import { ConcurrencyConflict } from './errors';
import { type EventMetadata, appendPendingWith, appendToStream, pendingEvent, readStream, verifyLog } from './event-store';

/**
 * The single-event append runs one of two statements (core/event-store.ts appendedQuery): plain
 * SQL on a pool that names prepared statements (the api's default), the append_event function on
 * one that does not (the other tests' pool). Both must give the same guarantees: the chain, a
 * typed conflict with the actual version, one winner among racers, a writer still in flight
 * waited for, and all-or-nothing with the writes beside it.
 */
const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });

let t: TestDatabase;
let prepared: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  prepared = createDb(t.url, { max: 25, preparedStatements: true });
  await sql`create table beside (id text primary key)`.execute(t.db);
});
afterAll(async () => {
  await prepared.destroy();
  await t.drop();
});

describe.each([
  { pool: 'naming prepared statements (plain SQL)', db: () => prepared, plainSql: true },
  { pool: 'not naming them (append_event)', db: () => t.db, plainSql: false },
])('a single-event append on a pool $pool', ({ pool, db, plainSql }) => {
  const stream = (name: string) => `${name}-${plainSql ? 'sql' : 'fn'}`;

  it('runs the statement it should', async () => {
    expect(namesPrepared(db())).toBe(plainSql);
    await db().transaction().execute(async (trx) => expect(namesPrepared(trx)).toBe(plainSql));
    // One connection, so the statement prepared is seen from it.
    const one = createDb(t.url, { max: 1, preparedStatements: plainSql });
    try {
      await appendToStream(one, stream('which'), [{ type: 'A', data: {} }], { expectedVersion: 0, metadata: metadata() });
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(one);
      expect(rows.some((r) => r.statement.includes('insert into events'))).toBe(plainSql);
    } finally {
      await one.destroy();
    }
    void pool;
  });

  it('chains positions and hashes from an empty stream on, with expected versions and "any", and verifyLog finds them sound', async () => {
    const id = stream('chain');
    for (let v = 0; v < 6; v++) {
      await appendToStream(db(), id, [{ type: 'Step', data: { v, note: 'ünïcode ✓', nested: { b: 1, a: [2, 1] } } }], { expectedVersion: v === 5 ? 'any' : v, metadata: metadata() });
    }
    const events = await readStream(t.db, id);
    expect(events.map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events[0]!.prevHash).toBe('0'.repeat(64));
    for (let i = 1; i < events.length; i++) expect(events[i]!.prevHash).toBe(events[i - 1]!.hash);
    expect((await verifyLog(t.db)).problems).toEqual([]);
  });

  it('refuses a stale expected version with a typed conflict naming the actual version, and appends nothing', async () => {
    const id = stream('stale');
    await appendToStream(db(), id, [{ type: 'A', data: {} }], { expectedVersion: 0, metadata: metadata() });
    await appendToStream(db(), id, [{ type: 'B', data: {} }], { expectedVersion: 1, metadata: metadata() });
    for (const expectedVersion of [0, 1, 3]) {
      const conflict = await appendToStream(db(), id, [{ type: 'C', data: {} }], { expectedVersion, metadata: metadata() }).catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(ConcurrencyConflict);
      expect(conflict).toMatchObject({ streamId: id, expectedVersion, actualVersion: 2 });
    }
    expect(await readStream(t.db, id)).toHaveLength(2);
  });

  it('lets exactly one of 20 concurrent appends at the same version win, on an existing stream and on a new one', async () => {
    for (const [id, version] of [[stream('race'), 1], [stream('race-new'), 0]] as const) {
      if (version === 1) await appendToStream(db(), id, [{ type: 'Start', data: {} }], { expectedVersion: 0, metadata: metadata() });
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => appendToStream(db(), id, [{ type: 'Raced', data: { i } }], { expectedVersion: version, metadata: metadata() })),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const lost of attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected')) expect(lost.reason).toBeInstanceOf(ConcurrencyConflict);
      expect(await readStream(t.db, id)).toHaveLength(version + 1);
    }
    expect((await verifyLog(t.db)).problems).toEqual([]);
  });

  it('waits for a writer still in flight at the same position: a conflict if it commits, the append chained on the old head if it rolls back', async () => {
    for (const outcome of ['commit', 'rollback'] as const) {
      const id = stream(`in-flight-${outcome}`);
      await appendToStream(db(), id, [{ type: 'A', data: {} }], { expectedVersion: 0, metadata: metadata() });
      // Another writer's append at the same position, in a transaction held open until told.
      let finish!: () => void;
      const told = new Promise<void>((resolve) => (finish = resolve));
      let inserted!: () => void;
      const holding = new Promise<void>((resolve) => (inserted = resolve));
      const other = t.db
        .transaction()
        .execute(async (trx) => {
          await appendToStream(trx, id, [{ type: 'Other', data: {} }], { expectedVersion: 1, metadata: metadata() });
          inserted();
          await told;
          if (outcome === 'rollback') throw new Error('rolled back');
        })
        .catch(() => {});
      await holding;
      const append = appendToStream(db(), id, [{ type: 'Mine', data: {} }], { expectedVersion: 1, metadata: metadata() }).then(
        () => 'appended',
        (e: unknown) => e,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      finish();
      await other;
      const result = await append;
      const events = await readStream(t.db, id);
      if (outcome === 'commit') {
        expect(result).toBeInstanceOf(ConcurrencyConflict);
        expect(events.map((e) => e.type)).toEqual(['A', 'Other']);
      } else {
        expect(result).toBe('appended');
        expect(events.map((e) => e.type)).toEqual(['A', 'Mine']);
        expect(events[1]!.prevHash).toBe(events[0]!.hash);
      }
    }
  });

  it('writes the rows beside the append only when the append is made (appendPendingWith, unlocked)', async () => {
    const id = stream('beside');
    const write = (key: string) => sql`insert into beside (id) values (${key})`;
    await appendPendingWith(db(), pendingEvent(id, { type: 'A', data: {} }, 0, metadata()), { lock: false }, [write(`${id}-1`)]);
    const stale = await appendPendingWith(db(), pendingEvent(id, { type: 'B', data: {} }, 0, metadata()), { lock: false }, [write(`${id}-2`)]).catch((e: unknown) => e);
    expect(stale).toMatchObject({ name: 'ConcurrencyConflict', actualVersion: 1 });
    const { rows } = await sql<{ id: string }>`select id from beside where id like ${`${id}-%`} order by id`.execute(t.db);
    expect(rows.map((r) => r.id)).toEqual([`${id}-1`]);
  });
});
