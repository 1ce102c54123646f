import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { type Consumer, consumerLag, drainConsumer } from './consumers';
import { ConcurrencyConflict } from './errors';
import { type EventMetadata, appendToStream, eventHash, logEndTransaction, logEndVisible, readLogBatch, readStream, verifyLog } from './event-store';

const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

describe('appending and reading a stream', () => {
  it('stores events in stream order with their metadata and chained hashes', async () => {
    const meta = { ...metadata(), request_id: 'req-1', correlation_id: 'corr-1', idempotency_key: 'key-1', actor: { type: 'admin' as const, id: 'a1' } };
    await appendToStream(t.db, 'thing-1', [{ type: 'ThingMade', data: { size: 3 } }], { expectedVersion: 0, metadata: meta });
    await appendToStream(t.db, 'thing-1', [{ type: 'ThingGrew', data: { by: 2 } }, { type: 'ThingGrew', data: { by: 5 } }], { expectedVersion: 1, metadata: meta });
    const events = await readStream(t.db, 'thing-1');
    expect(events.map((e) => [e.streamPosition, e.type, e.data])).toEqual([
      [1, 'ThingMade', { size: 3 }],
      [2, 'ThingGrew', { by: 2 }],
      [3, 'ThingGrew', { by: 5 }],
    ]);
    expect(events[0]!.metadata).toMatchObject({ request_id: 'req-1', correlation_id: 'corr-1', idempotency_key: 'key-1', actor: { type: 'admin', id: 'a1' } });
    expect(events[1]!.prevHash).toBe(events[0]!.hash);
    expect(events[2]!.prevHash).toBe(events[1]!.hash);
  });

  it('refuses an append at a stale expected version with a typed conflict', async () => {
    await expect(
      appendToStream(t.db, 'thing-1', [{ type: 'ThingGrew', data: { by: 1 } }], { expectedVersion: 1, metadata: metadata() }),
    ).rejects.toBeInstanceOf(ConcurrencyConflict);
  });

  it('chains hashes in the database exactly as eventHash computes them, whatever the data holds', async () => {
    const awkward = [
      { type: 'Named', data: { name: 'Ọlá Adébáyọ̀ "Ọ̀gá" \\ \n \u0007 😀', z: 1, a: [1.5, -0, 1e21, null, true], nested: { b: 2, a: { y: 'x' } } } },
      { type: 'Named', data: {} },
      { type: 'Named', data: { kobo: 123_456_789_012 } },
    ];
    const returned = await appendToStream(t.db, 'hash-1', awkward, { expectedVersion: 0, metadata: { ...metadata(), request_id: 'ünïcode' } });
    const stored = await readStream(t.db, 'hash-1');
    expect(returned.map((e) => [e.streamPosition, e.globalPosition, e.transactionId, e.prevHash, e.hash, e.eventId])).toEqual(
      stored.map((e) => [e.streamPosition, e.globalPosition, e.transactionId, e.prevHash, e.hash, e.eventId]),
    );
    for (const e of stored) expect(e.hash).toBe(eventHash(e));
    expect(stored[0]!.prevHash).toBe('0'.repeat(64));
    // 'any' appends after the head and links to it.
    const [next] = await appendToStream(t.db, 'hash-1', [{ type: 'Named', data: { more: true } }], { expectedVersion: 'any', metadata: metadata() });
    expect(next).toMatchObject({ streamPosition: 4, prevHash: stored[2]!.hash });
    expect((await verifyLog(t.db)).problems.filter((p) => p.streamId === 'hash-1')).toEqual([]);
  });

  it('names the stream\'s actual version in the conflict', async () => {
    const conflict = await appendToStream(t.db, 'thing-1', [{ type: 'ThingGrew', data: { by: 1 } }], { expectedVersion: 7, metadata: metadata() }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConcurrencyConflict);
    expect(conflict).toMatchObject({ streamId: 'thing-1', expectedVersion: 7, actualVersion: 3 });
  });

  it('refuses to update or delete a recorded event', async () => {
    await expect(sql`update events set data = '{}' where stream_id = 'thing-1'`.execute(t.db)).rejects.toThrow(/immutable/);
    await expect(sql`delete from events where stream_id = 'thing-1'`.execute(t.db)).rejects.toThrow(/immutable/);
  });
});

describe('optimistic concurrency', () => {
  it('lets exactly one of 20 concurrent appends at the same expected version win', async () => {
    await appendToStream(t.db, 'race-1', [{ type: 'Started', data: {} }], { expectedVersion: 0, metadata: metadata() });
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        t.db.transaction().execute((trx) =>
          appendToStream(trx, 'race-1', [{ type: 'Raced', data: { writer: i } }], { expectedVersion: 1, metadata: metadata() }),
        ),
      ),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const failure of lost) expect(failure.reason).toBeInstanceOf(ConcurrencyConflict);
    expect(await readStream(t.db, 'race-1')).toHaveLength(2);
  });

  it('lets exactly one of 20 concurrent creations of the same new stream win', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        appendToStream(t.db, 'race-new', [{ type: 'Created', data: { writer: i } }], { expectedVersion: 0, metadata: metadata() }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(await readStream(t.db, 'race-new')).toHaveLength(1);
  });
});

describe('reading the whole log in commit order', () => {
  it('delivers an event committed late by a slower transaction to a consumer that already moved past later positions', async () => {
    await sql`create table seen (event_id uuid not null, stream_id text not null)`.execute(t.db);
    const consumer: Consumer = {
      name: 'late-commit-watcher',
      kind: 'projection',
      apply: async (trx, events) => {
        for (const e of events) await sql`insert into seen values (${e.eventId}, ${e.streamId})`.execute(trx);
      },
    };
    // Other test files share the PostgreSQL instance: their open transactions may hold the horizon
    // back for a moment, so "caught up" is polled for rather than assumed after one drain.
    const drainUntilCaughtUp = async () => {
      await expect.poll(async () => {
        await drainConsumer(t.db, consumer);
        return (await consumerLag(t.db, [consumer]))[0]!.behind;
      }, { timeout: 20_000 }).toBe(0);
    };
    const seenCount = async (streamId: string) =>
      Number((await sql<{ n: string }>`select count(*) as n from seen where stream_id = ${streamId}`.execute(t.db)).rows[0]!.n);
    await drainUntilCaughtUp();

    // Slow transaction: takes its transaction id and a global position first, commits last.
    const slow = new pg.Client({ connectionString: t.url });
    await slow.connect();
    await slow.query('begin');
    await slow.query(
      `insert into events (stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash)
       values ('slow-1', 1, 'Slow', '{}', '{}', now(), gen_random_uuid(), '', '')`,
    );
    // Fast transactions commit events with higher global positions meanwhile.
    await appendToStream(t.db, 'fast-1', [{ type: 'Fast', data: {} }], { expectedVersion: 0, metadata: metadata() });
    await appendToStream(t.db, 'fast-2', [{ type: 'Fast', data: {} }], { expectedVersion: 0, metadata: metadata() });
    await drainConsumer(t.db, consumer);
    // Nothing committed after the slow transaction began is delivered while it is open…
    expect(await seenCount('fast-1')).toBe(0);
    expect(await seenCount('fast-2')).toBe(0);
    // …and the log's end is known to be beyond the horizon, which is what a test waits on.
    const end = await logEndTransaction(t.db);
    expect(await logEndVisible(t.db, end)).toBe(false);

    await slow.query('commit');
    await slow.end();
    await expect.poll(() => logEndVisible(t.db, end), { timeout: 20_000 }).toBe(true);
    await drainUntilCaughtUp();
    // …and after it commits, the late event and the later ones each arrive exactly once, late one first.
    expect(await seenCount('slow-1')).toBe(1);
    expect(await seenCount('fast-1')).toBe(1);
    expect(await seenCount('fast-2')).toBe(1);
    const order = await sql<{ stream_id: string }>`select stream_id from seen where stream_id in ('slow-1', 'fast-1', 'fast-2') order by ctid`.execute(t.db);
    expect(order.rows.map((r) => r.stream_id)).toEqual(['slow-1', 'fast-1', 'fast-2']);
    // Every event of the log was seen exactly once.
    const duplicates = await sql`select event_id from seen group by event_id having count(*) > 1`.execute(t.db);
    expect(duplicates.rows).toEqual([]);
    const total = Number((await sql<{ n: string }>`select count(*) as n from seen`.execute(t.db)).rows[0]!.n);
    const events = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(t.db)).rows[0]!.n);
    expect(total).toBe(events);
  });
});

describe('commit order across a change in the number of digits', () => {
  it('orders transaction ids as numbers, so 9 comes before 10', async () => {
    // Ids this small are long finished on any cluster, so both events are below every reader's horizon.
    for (const [xid, stream] of [['10', 'digits-b'], ['9', 'digits-a']] as const) {
      await sql`insert into events (transaction_id, stream_id, stream_position, type, data, metadata, recorded_at, event_id, prev_hash, hash)
        values (${xid}::xid8, ${stream}, 1, 'Digit', '{}', '{}', now(), gen_random_uuid(), '', '')`.execute(t.db);
    }
    const first = await readLogBatch(t.db, { transactionId: '8', globalPosition: 0 }, { limit: 1 });
    expect(first.map((e) => [e.transactionId, e.streamId])).toEqual([['9', 'digits-a']]);
    const second = await readLogBatch(t.db, { transactionId: first[0]!.transactionId, globalPosition: first[0]!.globalPosition }, { limit: 1 });
    expect(second.map((e) => [e.transactionId, e.streamId])).toEqual([['10', 'digits-b']]);
    await sql`alter table events disable trigger events_are_immutable`.execute(t.db);
    await sql`delete from events where stream_id in ('digits-a', 'digits-b')`.execute(t.db);
    await sql`alter table events enable trigger events_are_immutable`.execute(t.db);
  });
});

describe('tamper evidence', () => {
  it('verifies an untouched log and detects an edited event and a removed one', async () => {
    // The hand-inserted event of the late-commit test has no valid hash: verify reports exactly it.
    const before = await verifyLog(t.db);
    expect(before.problems).toEqual([{ streamId: 'slow-1', streamPosition: 1, problem: 'does not link to the previous event' }, { streamId: 'slow-1', streamPosition: 1, problem: 'content does not match its hash' }]);

    await appendToStream(t.db, 'ledger-1', [
      { type: 'Credited', data: { kobo: 50_000 } },
      { type: 'Credited', data: { kobo: 70_000 } },
      { type: 'Credited', data: { kobo: 90_000 } },
      { type: 'Credited', data: { kobo: 20_000 } },
    ], { expectedVersion: 0, metadata: metadata() });

    // Someone with superuser rights edits history behind the trigger's back.
    await sql`alter table events disable trigger events_are_immutable`.execute(t.db);
    await sql`update events set data = '{"kobo": 5000000}' where stream_id = 'ledger-1' and stream_position = 2`.execute(t.db);
    await sql`delete from events where stream_id = 'ledger-1' and stream_position = 3`.execute(t.db);
    await sql`delete from events where stream_id = 'slow-1'`.execute(t.db);
    await sql`alter table events enable trigger events_are_immutable`.execute(t.db);

    const after = await verifyLog(t.db);
    expect(after.ok).toBe(false);
    expect(after.problems).toEqual([
      { streamId: 'ledger-1', streamPosition: 2, problem: 'content does not match its hash' },
      { streamId: 'ledger-1', streamPosition: 4, problem: 'gap: expected position 3' },
      { streamId: 'ledger-1', streamPosition: 4, problem: 'does not link to the previous event' },
    ]);
  });
});
