import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { ConcurrencyConflict } from './errors';
import { type EventMetadata, type StreamAppend, appendToStream, appendToStreams, readStream, streamLockKey, verifyLog } from './event-store';

const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'bulk-test' }, now: new Date().toISOString(), causation_id: 'cause-1', correlation_id: 'corr-1' });

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

async function eventCount(streamIds: readonly string[]): Promise<number> {
  const row = await t.db.selectFrom('events').select((eb) => eb.fn.countAll<string>().as('n')).where('stream_id', 'in', streamIds).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Resolves once some backend of this database waits on `event` (a lock it cannot take yet). */
async function someoneWaitsOn(event: 'transactionid' | 'advisory'): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = ${event}`.execute(t.db);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('appending to many streams at once', () => {
  it('appends to 3,000 streams (500 of them existing) with positions continuing and the hash chains intact', async () => {
    // Given 500 existing streams with 2 events each.
    const existing = Array.from({ length: 500 }, (_, i) => `bulk-old-${i}`);
    for (let i = 0; i < existing.length; i += 25) {
      await Promise.all(existing.slice(i, i + 25).map((streamId) => appendToStream(t.db, streamId, [{ type: 'Opened', data: { n: 1 } }, { type: 'Topped', data: { n: 2 } }], { expectedVersion: 0, metadata: metadata() })));
    }
    // When 3,000 streams get 1 to 3 events each (6,000 rows: six insert statements).
    const fresh = Array.from({ length: 2_500 }, (_, i) => `bulk-new-${i}`);
    const batches: StreamAppend[] = [...existing, ...fresh].map((streamId, i) => ({
      streamId,
      events: Array.from({ length: 1 + (i % 3) }, (_, k) => ({ type: 'Credited', data: { stream_index: i, k, amount_kobo: 100 * i + k } })),
    }));
    const meta = metadata();
    const recorded = await t.db.transaction().execute((trx) => appendToStreams(trx, batches, { metadata: meta }));

    // Then every event is there once, numbered after each stream's head, in the order given.
    expect(recorded).toHaveLength(6_000);
    expect(await eventCount([...existing, ...fresh])).toBe(500 * 2 + 6_000);
    const old0 = await readStream(t.db, 'bulk-old-0');
    expect(old0.map((e) => [e.streamPosition, e.type])).toEqual([[1, 'Opened'], [2, 'Topped'], [3, 'Credited']]);
    expect(old0[2]!.prevHash).toBe(old0[1]!.hash);
    const new2 = await readStream(t.db, 'bulk-new-2'); // index 502: 1 + 502 % 3 = 2 events
    expect(new2.map((e) => [e.streamPosition, e.data])).toEqual([[1, { stream_index: 502, k: 0, amount_kobo: 50_200 }], [2, { stream_index: 502, k: 1, amount_kobo: 50_201 }]]);
    // The returned events are the stored ones, field for field (the shape appendToStream records).
    const returned = recorded.filter((e) => e.streamId === 'bulk-new-2');
    expect(returned).toEqual(new2);
    expect(returned[0]!.metadata).toEqual(meta);
    // A later single append continues the chain the bulk append left.
    await appendToStream(t.db, 'bulk-old-0', [{ type: 'Debited', data: {} }], { expectedVersion: 3, metadata: metadata() });
    // And the whole log verifies: every hash recomputes and links to its predecessor.
    const verified = await verifyLog(t.db);
    expect(verified.problems).toEqual([]);
    expect(verified).toMatchObject({ ok: true, checked: 500 * 2 + 6_000 + 1 });
  }, 120_000);

  it('rejects a stale expected version with ConcurrencyConflict and writes nothing to any stream', async () => {
    await appendToStream(t.db, 'period-2026-01-07', [{ type: 'Closed', data: {} }], { expectedVersion: 0, metadata: metadata() });
    const streams = ['period-other-1', 'period-other-2', 'period-2026-01-07', 'period-other-3'];
    const batches: StreamAppend[] = streams.map((streamId) => ({ streamId, expectedVersion: 0, events: [{ type: 'Closed', data: {} }] }));
    const outcome = await t.db.transaction().execute(async (trx) => {
      const error = await appendToStreams(trx, batches, { metadata: metadata() }).catch((e: unknown) => e);
      // Checked inside the same transaction: nothing was inserted before the refusal.
      const written = await trx.selectFrom('events').select('stream_id').where('stream_id', 'in', streams).execute();
      return { error, written: written.map((r) => r.stream_id) };
    });
    expect(outcome.error).toBeInstanceOf(ConcurrencyConflict);
    expect(outcome.error).toMatchObject({ streamId: 'period-2026-01-07', expectedVersion: 0, actualVersion: 1 });
    expect(outcome.written).toEqual(['period-2026-01-07']);
  });

  it('chains a stream given twice one append after the other, each with its own metadata, and refuses it twice with an expected version', async () => {
    const first = { streamId: 'twice', events: [{ type: 'X', data: {} }], metadata: { ...metadata(), causation_id: 'cause-a' } };
    const second = { streamId: 'twice', events: [{ type: 'Y', data: {} }], metadata: { ...metadata(), causation_id: 'cause-b' } };
    await t.db.transaction().execute((trx) => appendToStreams(trx, [first, second], { metadata: metadata() }));
    expect((await readStream(t.db, 'twice')).map((e) => [e.streamPosition, e.type, e.metadata.causation_id])).toEqual([[1, 'X', 'cause-a'], [2, 'Y', 'cause-b']]);
    const pinned = { streamId: 'twice-pinned', events: [{ type: 'X', data: {} }], expectedVersion: 0 };
    await expect(t.db.transaction().execute((trx) => appendToStreams(trx, [pinned, pinned], { metadata: metadata() }))).rejects.toThrow(/expected version/);
  });

  it('waits for a writer holding a stream’s lock, then appends after its event (locked path)', async () => {
    await appendToStream(t.db, 'wallet-locked', [{ type: 'Opened', data: {} }], { expectedVersion: 0, metadata: metadata() });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // A wallet command: takes the stream's lock, appends, and stays open until released.
    const writer = t.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${streamLockKey('wallet-locked')}, 0))`.execute(trx);
      await appendToStream(trx, 'wallet-locked', [{ type: 'Debited', data: {} }], { expectedVersion: 1, metadata: metadata() });
      locked();
      await held;
    });
    await lockTaken;
    const bulk = t.db.transaction().execute((trx) =>
      appendToStreams(trx, [{ streamId: 'wallet-locked-a', events: [{ type: 'Credited', data: {} }] }, { streamId: 'wallet-locked', events: [{ type: 'Credited', data: {} }] }], { metadata: metadata() }),
    );
    await someoneWaitsOn('advisory');
    release();
    await writer;
    await bulk;
    const events = await readStream(t.db, 'wallet-locked');
    expect(events.map((e) => e.type)).toEqual(['Opened', 'Debited', 'Credited']);
    expect(events[2]!.prevHash).toBe(events[1]!.hash);
    expect((await verifyLog(t.db)).ok).toBe(true);
  });

  it('re-chains behind a writer that got to a stream first when the streams are too many to lock (unlocked path)', async () => {
    await appendToStream(t.db, 'wallet-raced', [{ type: 'Opened', data: {} }], { expectedVersion: 0, metadata: metadata() });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const writerAppended = new Promise<void>((resolve) => (appended = resolve));
    const writer = t.db.transaction().execute(async (trx) => {
      await appendToStream(trx, 'wallet-raced', [{ type: 'Debited', data: {} }], { expectedVersion: 1, metadata: metadata() });
      appended();
      await held;
    });
    await writerAppended;
    // maxLockedStreams 0: no locks; the bulk reads head 1, inserts position 2 and blocks on the writer's row.
    const bulk = t.db.transaction().execute((trx) =>
      appendToStreams(trx, [{ streamId: 'wallet-raced-a', events: [{ type: 'Credited', data: {} }] }, { streamId: 'wallet-raced', events: [{ type: 'Credited', data: {} }] }], { metadata: metadata(), maxLockedStreams: 0 }),
    );
    await someoneWaitsOn('transactionid');
    release();
    await writer;
    const recorded = await bulk;
    const events = await readStream(t.db, 'wallet-raced');
    expect(events.map((e) => [e.streamPosition, e.type])).toEqual([[1, 'Opened'], [2, 'Debited'], [3, 'Credited']]);
    expect(recorded.find((e) => e.streamId === 'wallet-raced')).toEqual(events[2]);
    expect(await readStream(t.db, 'wallet-raced-a')).toHaveLength(1);
    expect((await verifyLog(t.db)).ok).toBe(true);
  });

  it('takes locks in one order: a bulk append too large to lock stream by stream waits for the locking writers before touching a row, and they wait for it', async () => {
    // The deadlock it prevents (seen when the worker caught up after an hour down): a writer holding
    // wallet-x and wallet-y's locks inserts x; a bulk append without stream locks inserts y, then
    // blocks on x's row; the writer then blocks on y's row. Each waits for the other.
    const streams = ['wallet-order-x', 'wallet-order-y'];
    const credit = (streamId: string) => ({ streamId, events: [{ type: 'Credited', data: {} }] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const writerAppended = new Promise<void>((resolve) => (appended = resolve));
    const writer = t.db.transaction().execute(async (trx) => {
      await appendToStreams(trx, streams.map(credit), { metadata: metadata() });
      appended();
      await held;
    });
    await writerAppended;
    // The bulk append (given y first) waits on the bulk lock, an advisory lock, not on a row.
    const bulk = t.db.transaction().execute((trx) => appendToStreams(trx, [...streams].reverse().map(credit), { metadata: metadata(), maxLockedStreams: 0 }));
    await someoneWaitsOn('advisory');
    release();
    await Promise.all([writer, bulk]);

    // And the other way round: while a bulk append is open, a locking writer waits before its first lock.
    let releaseBulk!: () => void;
    const bulkHeld = new Promise<void>((resolve) => (releaseBulk = resolve));
    let bulkAppended!: () => void;
    const bulkDone = new Promise<void>((resolve) => (bulkAppended = resolve));
    const bulk2 = t.db.transaction().execute(async (trx) => {
      await appendToStreams(trx, streams.map(credit), { metadata: metadata(), maxLockedStreams: 0 });
      bulkAppended();
      await bulkHeld;
    });
    await bulkDone;
    const writer2 = t.db.transaction().execute((trx) => appendToStreams(trx, [...streams].reverse().map(credit), { metadata: metadata() }));
    await someoneWaitsOn('advisory');
    releaseBulk();
    await Promise.all([bulk2, writer2]);
    for (const streamId of streams) expect((await readStream(t.db, streamId)).map((e) => e.streamPosition)).toEqual([1, 2, 3, 4]);
    expect((await verifyLog(t.db)).ok).toBe(true);
  });

  it('lets many writers over the same streams, in every order, locking or bulk, all commit', async () => {
    const streams = Array.from({ length: 12 }, (_, i) => `wallet-crowd-${i}`);
    const shuffled = (seed: number) => [...streams].sort((a, b) => ((a.length * 31 + seed * 17 + a.charCodeAt(a.length - 1) * seed) % 13) - ((b.length * 31 + seed * 17 + b.charCodeAt(b.length - 1) * seed) % 13));
    const writers = Array.from({ length: 24 }, (_, i) =>
      t.db.transaction().execute(async (trx) => {
        const order = shuffled(i + 1);
        // Some give a stream twice (a policy booking two causes for one wallet); some are bulk.
        const appends: StreamAppend[] = [...order, order[0]!].map((streamId) => ({ streamId, events: [{ type: 'Credited', data: { writer: i } }] }));
        await appendToStreams(trx, appends, { metadata: metadata(), ...(i % 4 === 0 ? { maxLockedStreams: 3 } : {}) });
      }),
    );
    await Promise.all(writers);
    for (const streamId of streams) {
      const events = await readStream(t.db, streamId);
      expect(events.map((e) => e.streamPosition)).toEqual(events.map((_, index) => index + 1));
    }
    expect(await eventCount(streams)).toBe(24 * 13);
    expect((await verifyLog(t.db)).ok).toBe(true);
  });
});
