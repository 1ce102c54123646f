import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { type Decider, decideOnStream, foldEvents } from './command';
import { ConcurrencyConflict } from './errors';
import { type EventMetadata, appendToStream, appendToStreams, readStream } from './event-store';
import { type SnapshotPolicy, loadStream } from './snapshots';

/** A tally: Added events raise it, Spent events lower it and are refused past zero; ids apply once. */
type Tally = { total: number; seen: string[] };
type TallyEvent = { type: 'Added'; data: { id: string; amount: number } } | { type: 'Spent'; data: { id: string; amount: number } };
type TallyCommand = { type: 'Spend'; data: { id: string; amount: number } };
const tally: Decider<Tally, TallyCommand, TallyEvent> = {
  initialState: () => ({ total: 0, seen: [] }),
  evolve: (state, event) => ({ total: state.total + (event.type === 'Added' ? 1 : -1) * event.data.amount, seen: [...state.seen, event.data.id] }),
  decide: (command, state) => {
    if (state.seen.includes(command.data.id)) return [];
    if (command.data.amount > state.total) throw new Error('overdraft');
    return [{ type: 'Spent', data: command.data }];
  },
};

const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });
const policy: SnapshotPolicy = { kind: 'tally/1', every: 3 };
const spend = (streamId: string, id: string, amount: number) =>
  t.db.transaction().execute(async (trx) => {
    const loaded = await loadStream(trx, streamId, tally, policy);
    return decideOnStream(trx, streamId, tally, { type: 'Spend', data: { id, amount } }, metadata(), loaded);
  });
const snapshotOf = async (streamId: string) =>
  (await sql<{ kind: string; version: number; state: Tally }>`select kind, version, state from stream_snapshots where stream_id = ${streamId}`.execute(t.db)).rows[0];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

describe('folding a stream from its snapshot', () => {
  it('Given a stream with more events than the snapshot interval, When commands run, Then each folds the same state as the whole stream and a snapshot is kept', async () => {
    const stream = 'tally-a';
    await appendToStream(t.db, stream, [1, 2, 3, 4].map((i) => ({ type: 'Added', data: { id: `add-${i}`, amount: 10 } })), { expectedVersion: 0, metadata: metadata() });
    for (let i = 1; i <= 7; i++) {
      const { state } = await spend(stream, `spend-${i}`, 5);
      expect(state).toEqual(foldEvents(tally, await readStream(t.db, stream)));
    }
    const snapshot = await snapshotOf(stream);
    expect(snapshot?.kind).toBe('tally/1');
    // The last snapshot is at most `every` events behind, and is the fold of exactly its first `version` events.
    const events = await readStream(t.db, stream);
    expect(events.length - snapshot!.version).toBeLessThan(policy.every);
    expect(snapshot!.state).toEqual(foldEvents(tally, events.slice(0, snapshot!.version)));
  });

  it('Given a snapshot, When another writer appends after it without touching the snapshot, Then the next command sees those events (no overdraft)', async () => {
    const stream = 'tally-b';
    await appendToStream(t.db, stream, [{ type: 'Added', data: { id: 'add-1', amount: 10 } }, { type: 'Added', data: { id: 'add-2', amount: 10 } }], { expectedVersion: 0, metadata: metadata() });
    await spend(stream, 'spend-1', 5);
    expect((await snapshotOf(stream))?.version).toBe(3);
    // A bulk run (appendToStreams) pays into the stream without the snapshot: +100.
    await t.db.transaction().execute((trx) => appendToStreams(trx, [{ streamId: stream, events: [{ type: 'Added', data: { id: 'add-3', amount: 100 } }] }], { metadata: metadata() }));
    const { state } = await spend(stream, 'spend-2', 110);
    expect(state.total).toBe(5);
    await expect(spend(stream, 'spend-3', 6)).rejects.toThrow('overdraft');
  });

  it('Given a command already applied before the snapshot, When it comes again, Then it records nothing (idempotent across the snapshot)', async () => {
    const stream = 'tally-c';
    await appendToStream(t.db, stream, [{ type: 'Added', data: { id: 'add-1', amount: 50 } }], { expectedVersion: 0, metadata: metadata() });
    await spend(stream, 'spend-1', 5);
    await spend(stream, 'spend-2', 5);
    expect((await snapshotOf(stream))?.version).toBe(3);
    const again = await spend(stream, 'spend-1', 5);
    expect(again.events).toEqual([]);
    expect(again.state.total).toBe(40);
  });

  it('Given a snapshot of another kind (a changed fold), When a command runs, Then it folds the whole stream and replaces the snapshot', async () => {
    const stream = 'tally-d';
    await appendToStream(t.db, stream, [{ type: 'Added', data: { id: 'add-1', amount: 50 } }], { expectedVersion: 0, metadata: metadata() });
    await sql`insert into stream_snapshots (stream_id, kind, version, state) values (${stream}, 'tally/0', 1, '{"total": 999999, "seen": []}'::jsonb)`.execute(t.db);
    const loaded = await t.db.transaction().execute((trx) => loadStream(trx, stream, tally, policy));
    expect(loaded).toMatchObject({ version: 1, sinceSnapshot: 1, state: { total: 50 } });
    await spend(stream, 'spend-1', 5);
    await spend(stream, 'spend-2', 5);
    expect(await snapshotOf(stream)).toEqual({ kind: 'tally/1', version: 3, state: { total: 40, seen: ['add-1', 'spend-1', 'spend-2'] } });
  });

  it('Given two commands loaded at the same version, When both append, Then the second conflicts (the snapshot never lets a stale fold through)', async () => {
    const stream = 'tally-e';
    await appendToStream(t.db, stream, [{ type: 'Added', data: { id: 'add-1', amount: 10 } }], { expectedVersion: 0, metadata: metadata() });
    const stale = await t.db.transaction().execute((trx) => loadStream(trx, stream, tally, policy));
    await spend(stream, 'spend-1', 10);
    await expect(
      t.db.transaction().execute((trx) => decideOnStream(trx, stream, tally, { type: 'Spend', data: { id: 'spend-2', amount: 10 } }, metadata(), stale)),
    ).rejects.toBeInstanceOf(ConcurrencyConflict);
    expect((await readStream(t.db, stream)).length).toBe(2);
  });

  it('Given 20 concurrent spends of the whole total, When each takes the lock in its load statement, Then one is recorded and 19 see it and are refused (the read follows the lock)', async () => {
    const stream = 'tally-f';
    await appendToStream(t.db, stream, [{ type: 'Added', data: { id: 'add-1', amount: 10 } }], { expectedVersion: 0, metadata: metadata() });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        t.db.transaction().execute(async (trx) => {
          const loaded = await loadStream(trx, stream, tally, policy, { lock: true });
          return decideOnStream(trx, stream, tally, { type: 'Spend', data: { id: `spend-${i}`, amount: 10 } }, metadata(), loaded);
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    // Refused by the decider on the winner's event, never by a stale read's conflict.
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual(Array(19).fill('Error: overdraft'));
    expect(foldEvents(tally, await readStream(t.db, stream)).total).toBe(0);
  });

  it('reads facts the command needs in the same statement', async () => {
    const loaded = await t.db.transaction().execute((trx) => loadStream(trx, 'tally-none', tally, policy, { facts: sql<{ answer: number }>`jsonb_build_object('answer', 42)` }));
    expect(loaded).toMatchObject({ version: 0, sinceSnapshot: 0, state: { total: 0, seen: [] }, facts: { answer: 42 } });
  });
});
