import { type Transaction, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { eventually } from '../../test/eventually';
import type { Database } from '../database';
import { runInTransaction } from './command';
import { type Consumer, type DrainResult, drainConsumer, peekConsumer } from './consumers';
import { type EventMetadata, appendToStream, declareAppendsSql } from './event-store';

/**
 * Decision 73: a transaction that declared, before its first write, the event types it may append
 * holds back only the readers of those types; the others read past it. What must never happen is a
 * reader passing a transaction that then commits an event of the reader's types.
 */

const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

type Applied = { type: string; streamId: string }[];

/** A projection recording what it applied, reading `types`. */
function recorder(name: string, types: string[], applied: Applied): Consumer {
  return { name, kind: 'projection', eventTypes: types, apply: async (_trx, events) => void applied.push(...events.map((e) => ({ type: e.type, streamId: e.streamId }))) };
}


/**
 * A transaction left open with an xid, declaring `declares` first (or nothing). `work` runs in it
 * once released; the promise `done` settles when it has committed or rolled back.
 */
async function openTransaction(
  declares: string[] | null,
  work: (trx: Transaction<Database>) => Promise<void> = async () => undefined,
  options: { declareAfterWrite?: boolean } = {},
) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let began: () => void = () => {};
  const hasXid = new Promise<void>((resolve) => (began = resolve));
  const opened = { release, done: Promise.resolve(), declared: null as boolean | null };
  const declare = async (trx: Transaction<Database>) => {
    if (declares) opened.declared = (await sql<{ declared: boolean }>`select ${declareAppendsSql(trx, declares)} as declared`.execute(trx)).rows[0]!.declared;
  };
  opened.done = t.db.transaction().execute(async (trx) => {
    if (!options.declareAfterWrite) await declare(trx);
    await sql`select pg_current_xact_id()`.execute(trx);
    if (options.declareAfterWrite) await declare(trx);
    began();
    await released;
    await work(trx);
  });
  await hasXid;
  return opened;
}

const append = (stream: string, type: string) => appendToStream(t.db, stream, [{ type, data: {} }], { expectedVersion: 0, metadata: metadata() });

describe('the horizon of a reader of some types', () => {
  it('reads past a running transaction that declared only other types', async () => {
    const applied: Applied = [];
    const reader = recorder('reads-wanted', ['Wanted'], applied);
    await drainConsumer(t.db, reader);
    const other = await openTransaction(['Other'], async (trx) => void (await appendToStream(trx, 'other-1', [{ type: 'Other', data: {} }], { expectedVersion: 0, metadata: metadata() })));
    try {
      await append('wanted-1', 'Wanted');
      await eventually(() => drainConsumer(t.db, reader), () => applied.length === 1, 'the reader to read past the declared transaction');
      expect(applied).toEqual([{ type: 'Wanted', streamId: 'wanted-1' }]);
      expect(other.declared).toBe(true);
    } finally {
      other.release();
      await other.done;
    }
  });

  it('waits for a running transaction that declared one of its types, and then reads its event too, before the later one', async () => {
    const applied: Applied = [];
    const reader = recorder('waits-for-declared', ['Awaited'], applied);
    await drainConsumer(t.db, reader);
    const declared = await openTransaction(['Unrelated', 'Awaited'], async (trx) => void (await appendToStream(trx, 'awaited-early', [{ type: 'Awaited', data: {} }], { expectedVersion: 0, metadata: metadata() })));
    let held: DrainResult;
    let looked: Awaited<ReturnType<typeof peekConsumer>>;
    try {
      await append('awaited-late', 'Awaited');
      // Whatever other files' transactions do, this one is older than the late event and still runs.
      held = await drainConsumer(t.db, reader);
      looked = await peekConsumer(t.db, reader, held.otherDatabaseXids ?? []);
    } finally {
      declared.release();
      await declared.done;
    }
    expect(held).toMatchObject({ applied: 0, held: true });
    expect(looked).toMatchObject({ readable: false, held: true });
    await eventually(() => drainConsumer(t.db, reader), () => applied.length >= 2, 'both events');
    // The declared transaction took its xid first: its event comes first in commit order, and neither is skipped.
    expect(applied).toEqual([
      { type: 'Awaited', streamId: 'awaited-early' },
      { type: 'Awaited', streamId: 'awaited-late' },
    ]);
  });

  it('waits for a running transaction that declared nothing (it may append anything)', async () => {
    const applied: Applied = [];
    const reader = recorder('waits-for-undeclared', ['Undeclared'], applied);
    await drainConsumer(t.db, reader);
    const undeclared = await openTransaction(null);
    let held: DrainResult;
    try {
      await append('undeclared-1', 'Undeclared');
      held = await drainConsumer(t.db, reader);
    } finally {
      undeclared.release();
      await undeclared.done;
    }
    expect(held).toMatchObject({ applied: 0, held: true });
    await eventually(() => drainConsumer(t.db, reader), () => applied.length === 1, 'the event');
  });
});

describe('a transaction that declared what it appends', () => {
  it('declares nothing once it has written (a reader could see the declaration half made), so it still holds every reader', async () => {
    const applied: Applied = [];
    const reader = recorder('waits-for-late-declaration', ['LateWanted'], applied);
    await drainConsumer(t.db, reader);
    const late = await openTransaction(['Other'], async () => undefined, { declareAfterWrite: true });
    let held: DrainResult;
    try {
      await append('late-wanted-1', 'LateWanted');
      held = await drainConsumer(t.db, reader);
    } finally {
      late.release();
      await late.done;
    }
    expect(late.declared).toBe(false);
    expect(held).toMatchObject({ applied: 0, held: true });
    await eventually(() => drainConsumer(t.db, reader), () => applied.length === 1, 'the event');
  });

  it('cannot append another type, and declares only before appending', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`select ${declareAppendsSql(trx, ['Declared'])}`.execute(trx);
        await appendToStream(trx, 'declared-ok', [{ type: 'Declared', data: {} }], { expectedVersion: 0, metadata: metadata() });
        await appendToStream(trx, 'declared-not', [{ type: 'NotDeclared', data: {} }], { expectedVersion: 0, metadata: metadata() });
      }),
    ).rejects.toThrow(/NotDeclared appended by a transaction that declared it appends only: Declared/);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await appendToStream(trx, 'appended-first', [{ type: 'First', data: {} }], { expectedVersion: 0, metadata: metadata() });
        declareAppendsSql(trx, ['Later']);
      }),
    ).rejects.toThrow(/declared after appending First/);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from events where stream_id in ('declared-ok', 'declared-not', 'appended-first')`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });
});

describe("consumers' batches", () => {
  it("a projection's open batch does not hold back a reader of other types; a policy's holds only the readers of what it appends", async () => {
    const applied: Applied = [];
    const reader = recorder('reads-during-batches', ['DuringBatch'], applied);
    await drainConsumer(t.db, reader);
    let releaseBatch: () => void = () => {};
    const batchReleased = new Promise<void>((resolve) => (releaseBatch = resolve));
    let inBatch: () => void = () => {};
    const batchOpen = new Promise<void>((resolve) => (inBatch = resolve));
    const slowPolicy: Consumer = {
      name: 'slow-policy',
      kind: 'policy',
      eventTypes: ['StartsBatch'],
      appends: ['PolicyOutcome'],
      apply: async (trx, events) => {
        await sql`select pg_current_xact_id()`.execute(trx);
        inBatch();
        await batchReleased;
        for (const e of events) await appendToStream(trx, `outcome-${e.streamId}`, [{ type: 'PolicyOutcome', data: {} }], { expectedVersion: 0, metadata: metadata() });
      },
    };
    const outcomes: Applied = [];
    const outcomeReader = recorder('reads-outcomes', ['PolicyOutcome'], outcomes);
    await drainConsumer(t.db, slowPolicy);
    await drainConsumer(t.db, outcomeReader);
    await append('starts-1', 'StartsBatch');
    const policyRun = eventually(() => drainConsumer(t.db, slowPolicy), (r) => r.applied === 1, 'the policy batch');
    try {
      await batchOpen;
      await append('during-1', 'DuringBatch');
      await append('outcome-before', 'PolicyOutcome');
      await eventually(() => drainConsumer(t.db, reader), () => applied.length === 1, 'the reader to read past the open policy batch');
      // The outcomes' reader must wait: the open batch may still append one below the event just committed.
      expect(await drainConsumer(t.db, outcomeReader)).toMatchObject({ applied: 0, held: true });
    } finally {
      releaseBatch();
      await policyRun;
    }
    await eventually(() => drainConsumer(t.db, outcomeReader), () => outcomes.length >= 2, 'both outcomes');
    expect(outcomes).toEqual([
      { type: 'PolicyOutcome', streamId: 'outcome-starts-1' },
      { type: 'PolicyOutcome', streamId: 'outcome-before' },
    ]);
  });

  it('a policy that declares by its batch holds the readers of what that batch may append, and only them', async () => {
    const wide: Applied = [];
    const wideReader = recorder('reads-wide', ['Wide'], wide);
    await drainConsumer(t.db, wideReader);
    let releaseBatch: () => void = () => {};
    let inBatch: () => void = () => {};
    const policy: Consumer = {
      name: 'declares-by-batch',
      kind: 'policy',
      eventTypes: ['Small', 'Big'],
      appends: (types) => (types.has('Big') ? ['Narrow', 'Wide'] : ['Narrow']),
      batchSize: 1,
      apply: async (trx) => {
        await sql`select pg_current_xact_id()`.execute(trx);
        const released = new Promise<void>((resolve) => (releaseBatch = resolve));
        inBatch();
        await released;
      },
    };
    await drainConsumer(t.db, policy);
    await append('small-1', 'Small');
    await append('big-1', 'Big');
    for (const [batch, wideWaits] of [['small', false], ['big', true]] as const) {
      const open = new Promise<void>((resolve) => (inBatch = resolve));
      const run = drainConsumer(t.db, policy, { maxBatches: 1 });
      try {
        await open;
        await append(`wide-during-${batch}`, 'Wide');
        if (wideWaits) expect(await drainConsumer(t.db, wideReader)).toMatchObject({ applied: 0, held: true });
        else await eventually(() => drainConsumer(t.db, wideReader), () => wide.length === 1, 'the wide reader to read past the small batch');
      } finally {
        releaseBatch();
        expect(await run).toMatchObject({ applied: 1 });
      }
    }
    await eventually(() => drainConsumer(t.db, wideReader), () => wide.length === 2, 'the second wide event');
  });

  it("fails a policy's batch that appends what it did not declare, and a projection's that appends at all", async () => {
    await append('trigger-1', 'Trigger');
    const sloppy: Consumer = {
      name: 'sloppy-policy',
      kind: 'policy',
      eventTypes: ['Trigger'],
      appends: ['Declared'],
      apply: async (trx) => void (await appendToStream(trx, 'sloppy-out', [{ type: 'Surprise', data: {} }], { expectedVersion: 0, metadata: metadata() })),
    };
    const writingProjection: Consumer = { ...sloppy, name: 'writing-projection', kind: 'projection', appends: undefined };
    for (const consumer of [sloppy, writingProjection]) {
      const result = await eventually(() => drainConsumer(t.db, consumer), (r) => r.status === 'failed', `${consumer.name} to fail`);
      expect(result.error).toMatch(/Surprise appended by a transaction that declared it appends only/);
    }
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from events where stream_id = 'sloppy-out'`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('a command that declares what it appends', () => {
  it('does not hold back a reader of other types while it runs, and cannot append another type', async () => {
    const applied: Applied = [];
    const reader = recorder('reads-past-commands', ['NotTheCommands'], applied);
    await drainConsumer(t.db, reader);
    const ctx = { db: t.db, onCommitted: () => undefined };
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let appended: () => void = () => {};
    const hasAppended = new Promise<void>((resolve) => (appended = resolve));
    const command = runInTransaction(ctx, async (trx) => {
      await appendToStream(trx, 'command-1', [{ type: 'CommandsType', data: {} }], { expectedVersion: 0, metadata: metadata() });
      appended();
      await released;
    }, { appends: ['CommandsType'] });
    try {
      await hasAppended;
      await append('not-the-commands-1', 'NotTheCommands');
      await eventually(() => drainConsumer(t.db, reader), () => applied.length === 1, 'the reader to read past the running command');
    } finally {
      release();
      await command;
    }
    await expect(
      runInTransaction(ctx, (trx) => appendToStream(trx, 'command-2', [{ type: 'Undeclared', data: {} }], { expectedVersion: 0, metadata: metadata() }), { appends: ['CommandsType'] }),
    ).rejects.toThrow(/Undeclared appended by a transaction that declared it appends only: CommandsType/);
  });
});
