import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/database';
import { eventually as eventuallyWithin } from '../../test/eventually';
import { type RecorderSpec, createRecorderTable } from '../../test/fixtures/recorder';
import { type Consumer, type DrainResult, consumerLag, drainConsumer, peekConsumer } from './consumers';
import type { Db } from './db';
import { type EventMetadata, appendToStream } from './event-store';
import { type RebuildProgress, rebuildProjection } from './rebuild';

const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });

const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');
const repoRoot = path.resolve(fixturesDir, '../../..');

type Exit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };
type Child = { process: ChildProcess; exited: Promise<Exit> };
const children: Child[] = [];

/** Runs a fixture script in its own node process (not under npx, so its pid is the process to kill). */
function runFixture(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(fixturesDir, script)], {
    cwd: repoRoot,
    env: { ...process.env, FIXTURE_DATABASE_URL: t.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  const handle = { process: child, exited };
  children.push(handle);
  return handle;
}

async function succeeded(child: Child): Promise<Record<string, number>> {
  const exit = await child.exited;
  expect(exit.stderr, 'child stderr').toBe('');
  expect(exit.code).toBe(0);
  return JSON.parse(exit.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

/** Polls until `ready` holds; 45 s here: these files kill and restart worker processes. */
const eventually = <T>(probe: () => Promise<T>, ready: (value: T) => boolean, what: string, timeoutMs = 45_000) => eventuallyWithin(probe, ready, what, timeoutMs);

/**
 * Drains until the consumer fails or has applied every committed event. (One 'caught_up' is not
 * enough: a transaction running anywhere in the instance, e.g. another test file's, holds back
 * what a reader may see.)
 */
async function drainToEnd(db: Db, consumer: Consumer): Promise<DrainResult> {
  return eventually(
    async () => {
      const result = await drainConsumer(db, consumer);
      if (result.status !== 'caught_up') return result;
      const [lag] = await consumerLag(db, [consumer]);
      return lag!.behind === 0 ? result : { ...result, status: 'busy' as const };
    },
    (result) => result.status !== 'busy',
    `${consumer.name} to drain`,
    45_000,
  );
}

type LogRow = { event_id: string; stream_id: string; stream_position: number; global_position: number; transaction_id: string; type: string; data: Record<string, unknown> };

/** The log in commit order, as a consumer must see it. */
async function logInCommitOrder(db: Db, types?: readonly string[]): Promise<LogRow[]> {
  const filter = types ? sql`where type = any(${sql.val(types)}::text[])` : sql``;
  const { rows } = await sql<LogRow>`
    select event_id, stream_id, stream_position, global_position, transaction_id::text as transaction_id, type, data
    from events ${filter} order by events.transaction_id, events.global_position`.execute(db);
  return rows;
}

type AppliedRow = { seq: number; event_id: string; stream_id: string; stream_position: number; global_position: number; worker: string | null; tx: string; pid: number };

async function appliedRows(db: Db, table: string): Promise<AppliedRow[]> {
  const { rows } = await sql<AppliedRow>`select *, tx::text as tx from ${sql.table(table)} order by seq`.execute(db);
  return rows;
}

type CheckpointRow = { name: string; last_transaction_id: string; last_global_position: number; events_applied: number; status: string; failed_global_position: number | null; error: string | null };

async function checkpoint(db: Db, name: string): Promise<CheckpointRow | undefined> {
  const { rows } = await sql<CheckpointRow>`
    select name, last_transaction_id::text as last_transaction_id, last_global_position, events_applied, status, failed_global_position, error
    from consumer_checkpoints where name = ${name}`.execute(db);
  return rows[0];
}

async function count(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
  return rows[0]!.n;
}

/** Each event id exactly once, in commit order, and the checkpoint on the log's last event. */
async function expectAppliedExactlyOnceInOrder(db: Db, table: string, consumerName: string, types?: readonly string[]): Promise<AppliedRow[]> {
  const log = await logInCommitOrder(db, types);
  const rows = await appliedRows(db, table);
  const duplicates = await sql<{ event_id: string; n: number }>`
    select event_id, count(*)::int as n from ${sql.table(table)} group by event_id having count(*) > 1 limit 5`.execute(db);
  if (duplicates.rows.length) {
    const d = await sql`select a.*, e.transaction_id::text as tx from ${sql.table(table)} a join events e using (event_id) where event_id in (select event_id from ${sql.table(table)} group by 1 having count(*) > 1) order by seq`.execute(db);
    console.log('diagnostics: duplicated rows', table, JSON.stringify(d.rows));
  }
  expect(duplicates.rows, 'events applied more than once').toEqual([]);
  if (rows.length !== log.length) {
    const seen = new Set(rows.map((r) => r.event_id));
    const missing = log.map((e, i) => ({ i, tx: e.transaction_id, gp: e.global_position, s: e.stream_id, p: e.stream_position, miss: !seen.has(e.event_id) })).filter((e) => e.miss);
    console.log('diagnostics: missing events', table, missing.length, JSON.stringify(missing.slice(0, 3)), JSON.stringify(missing.slice(-3)), JSON.stringify(await checkpoint(db, consumerName)), rows.length, JSON.stringify(rows.slice(-3)));
  }
  expect(rows.length).toBe(log.length);
  expect(rows.map((r) => r.event_id)).toEqual(log.map((e) => e.event_id));
  // Caught up, a consumer's checkpoint rests on the log's last event, whatever its type: the events
  // after its own last one were read past (readConsumerBatch's scannedTo), not left to re-read.
  const last = (await logInCommitOrder(db)).at(-1)!;
  expect(await checkpoint(db, consumerName)).toMatchObject({
    last_transaction_id: last.transaction_id,
    last_global_position: last.global_position,
    events_applied: log.length,
    status: 'running',
    failed_global_position: null,
    error: null,
  });
  return rows;
}

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await t.drop();
});

describe('exactly-once delivery across processes', () => {
  it('a consumer process killed mid-batch and restarted applies every event exactly once', async () => {
    await createRecorderTable(t.db, 'a_applied');
    // 3,000 events over 100 streams, 10 per append.
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, s) =>
          appendToStream(t.db, `a-${s}`, Array.from({ length: 10 }, (_, i) => ({ type: 'Counted', data: { round, i } })), {
            expectedVersion: round * 10,
            metadata: metadata(),
          }),
        ),
      );
    }
    const spec: RecorderSpec = { name: 'a-recorder', table: 'a_applied', batchSize: 100, sleepMs: 150 };

    const first = runFixture('drain.ts', { FIXTURE_CONSUMERS: JSON.stringify([spec]), FIXTURE_APP_NAME: 'a-first' });
    // Wait until some batches have committed and the next one is open: half its rows written
    // (the backend holds a transaction id) and sleeping before the rest and the checkpoint.
    await eventually(
      async () => {
        const committed = await count(t.db, 'a_applied');
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = 'a-first'
            and backend_xid is not null and state = 'active' and query like '%pg_sleep%'`.execute(t.db);
        return { committed, midBatch: rows[0]!.n };
      },
      (s) => s.committed >= 300 && s.midBatch === 1,
      'the first consumer process to be in the middle of a batch',
      45_000,
    );
    first.process.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // The server rolls the open batch back once it notices the client is gone.
    await eventually(
      async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'a-first'`.execute(t.db)).rows[0]!.n,
      (n) => n === 0,
      'the killed process to disconnect',
    );
    const committedBeforeRestart = await count(t.db, 'a_applied');
    expect(committedBeforeRestart).toBeGreaterThanOrEqual(300);
    expect(committedBeforeRestart).toBeLessThan(3000);
    // Only whole batches, each with its checkpoint.
    expect(committedBeforeRestart % 100).toBe(0);
    expect((await checkpoint(t.db, 'a-recorder'))!.events_applied).toBe(committedBeforeRestart);

    const second = runFixture('drain.ts', { FIXTURE_CONSUMERS: JSON.stringify([{ ...spec, sleepMs: 0 }]), FIXTURE_APP_NAME: 'a-second' });
    const { applied } = await succeeded(second);
    await expectAppliedExactlyOnceInOrder(t.db, 'a_applied', 'a-recorder');
    expect(applied).toBe(3000 - committedBeforeRestart);

    await expectAppliedExactlyOnceInOrder(t.db, 'a_applied', 'a-recorder');
  }, 90_000);

  it('two worker processes on the same consumers apply every event exactly once', async () => {
    const specs: RecorderSpec[] = [
      { name: 'b-all', table: 'b_all', batchSize: 50 },
      { name: 'b-even', table: 'b_even', batchSize: 20, eventTypes: ['Even'] },
      { name: 'b-small', table: 'b_small', batchSize: 13 },
    ];
    for (const spec of specs) await createRecorderTable(t.db, spec.table);

    const appender = runFixture('append.ts', { FIXTURE_DURATION_MS: '2500', FIXTURE_CONCURRENCY: '6', FIXTURE_STREAM_PREFIX: 'b' });
    const workers = [
      runFixture('drain.ts', { FIXTURE_CONSUMERS: JSON.stringify(specs.map((s) => ({ ...s, worker: 'w1' }))), FIXTURE_UNTIL: 'stopped' }),
      runFixture('drain.ts', { FIXTURE_CONSUMERS: JSON.stringify(specs.map((s) => ({ ...s, worker: 'w2' })).reverse()), FIXTURE_UNTIL: 'stopped' }),
    ];
    const { appended } = await succeeded(appender);
    expect(appended).toBeGreaterThan(0);
    // Consumers were applying while the appends went on.
    expect(await count(t.db, 'b_all')).toBeGreaterThan(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
    const results = await Promise.all(workers.map(succeeded));
    expect(results.every((r) => (r.applied ?? 0) > 0)).toBe(true);

    for (const spec of specs) {
      const rows = await expectAppliedExactlyOnceInOrder(t.db, spec.table, spec.name, spec.eventTypes);
      // In commit order per stream.
      const lastPosition = new Map<string, number>();
      for (const row of rows) {
        expect(row.stream_position).toBeGreaterThan(lastPosition.get(row.stream_id) ?? 0);
        lastPosition.set(row.stream_id, row.stream_position);
      }
    }
  }, 90_000);
});

describe('rebuilding a projection', () => {
  const totals: Consumer = {
    name: 'c-totals',
    kind: 'projection',
    eventTypes: ['Deposited', 'Withdrawn'],
    tables: ['c_totals', 'c_large'],
    batchSize: 100,
    apply: async (trx, events) => {
      for (const e of events) {
        const amount = (e.data.amount as number) * (e.type === 'Withdrawn' ? -1 : 1);
        await sql`
          insert into c_totals (stream_id, events, total, last_position) values (${e.streamId}, 1, ${amount}, ${e.streamPosition})
          on conflict (stream_id) do update set events = c_totals.events + 1, total = c_totals.total + excluded.total,
            last_position = excluded.last_position`.execute(trx);
        if (Math.abs(amount) >= 900) {
          await sql`insert into c_large (stream_id, stream_position, amount) values (${e.streamId}, ${e.streamPosition}, ${amount})`.execute(trx);
        }
      }
    },
  };
  const versions = new Map<string, number>();
  async function appendSome(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const streamId = `acct-${Math.floor(Math.random() * 40)}`;
      const r = Math.random();
      const type = r < 0.5 ? 'Deposited' : r < 0.8 ? 'Withdrawn' : 'Noted';
      await appendToStream(t.db, streamId, [{ type, data: { amount: 1 + Math.floor(Math.random() * 1000) } }], {
        expectedVersion: versions.get(streamId) ?? 0,
        metadata: metadata(),
      });
      versions.set(streamId, (versions.get(streamId) ?? 0) + 1);
    }
  }

  it('a rebuild equals the live tables', async () => {
    await sql`create table c_totals (stream_id text primary key, events int not null, total bigint not null, last_position int not null)`.execute(t.db);
    await sql`create index c_totals_by_total on c_totals (total)`.execute(t.db);
    await sql`create table c_large (id bigserial primary key, stream_id text not null, stream_position int not null, amount bigint not null)`.execute(t.db);
    await appendSome(1500);
    expect((await drainToEnd(t.db, totals)).status).toBe('caught_up');

    // Appends and the live runner keep going during the rebuild.
    let stop = false;
    let appendedDuringRebuild = 0;
    const appending = (async () => {
      while (!stop) {
        await appendSome(3);
        appendedDuringRebuild += 3;
        await sleep(2);
      }
    })();
    const liveRunning = (async () => {
      while (!stop) {
        const result = await drainConsumer(t.db, totals);
        expect(result.status).not.toBe('failed');
        await sleep(5);
      }
    })();
    const progress: RebuildProgress[] = [];
    try {
      // Live-sized batches (a rebuild reads 5,000 by default): several batches while the live side runs.
      await rebuildProjection(t.db, totals, { onProgress: (p) => progress.push(p), batchSize: 500 });
    } finally {
      stop = true;
      await Promise.all([appending, liveRunning]);
    }
    expect(appendedDuringRebuild).toBeGreaterThan(0);
    expect((await drainToEnd(t.db, totals)).status).toBe('caught_up');

    // Progress climbs to the total counted at the start.
    expect(progress.length).toBeGreaterThan(1);
    const total = progress[0]!.total;
    expect(total).toBeGreaterThan(0);
    expect(progress.every((p) => p.consumer === 'c-totals' && p.total === total)).toBe(true);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.applied).toBeGreaterThanOrEqual(progress[i - 1]!.applied);
    expect(progress[progress.length - 1]!.applied).toBeGreaterThanOrEqual(total);

    // The swapped-in tables equal a computation from scratch over the whole log.
    const expectedTotals = await sql`
      select stream_id, count(*)::int as events,
        sum(case when type = 'Withdrawn' then -(data->>'amount')::bigint else (data->>'amount')::bigint end)::bigint as total,
        max(stream_position)::int as last_position
      from events where type in ('Deposited', 'Withdrawn') group by stream_id order by stream_id`.execute(t.db);
    const actualTotals = await sql`select stream_id, events, total, last_position from c_totals order by stream_id`.execute(t.db);
    expect(actualTotals.rows).toEqual(expectedTotals.rows);
    const expectedLarge = await sql`
      select stream_id, stream_position, amount from (
        select stream_id, stream_position, case when type = 'Withdrawn' then -(data->>'amount')::bigint else (data->>'amount')::bigint end as amount
        from events where type in ('Deposited', 'Withdrawn')) e
      where abs(amount) >= 900 order by stream_id, stream_position`.execute(t.db);
    const actualLarge = await sql`select stream_id, stream_position, amount from c_large order by stream_id, stream_position`.execute(t.db);
    expect(actualLarge.rows).toEqual(expectedLarge.rows);
    expect(actualLarge.rows.length).toBeGreaterThan(0);
    // The swapped-in tables keep their index and a working id sequence.
    const { rows: indexes } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = 'public' and tablename = 'c_totals'`.execute(t.db);
    expect(indexes.some((i) => /\(total\)/.test(i.indexdef))).toBe(true);
    await sql`insert into c_large (stream_id, stream_position, amount) values ('probe', 0, 0)`.execute(t.db);
    await sql`delete from c_large where stream_id = 'probe'`.execute(t.db);

    // One consistent checkpoint row; the rebuild's schema and checkpoint are gone.
    // Caught up, the checkpoint stands on the last event of the whole log, whatever its type: a short
    // batch moves it past events the consumer does not read (docs/consumer-runner.md). The last
    // event appended is a 'Noted' one time in five.
    const log = await logInCommitOrder(t.db, totals.eventTypes);
    const whole = await logInCommitOrder(t.db);
    const last = whole[whole.length - 1]!;
    expect(await checkpoint(t.db, 'c-totals')).toMatchObject({
      last_transaction_id: last.transaction_id,
      last_global_position: last.global_position,
      events_applied: log.length,
      status: 'running',
      failed_global_position: null,
      error: null,
    });
    expect(await checkpoint(t.db, 'c-totals#rebuild')).toBeUndefined();
    const { rows: schemas } = await sql`select 1 from information_schema.schemata where schema_name like 'rebuild_%'`.execute(t.db);
    expect(schemas).toEqual([]);
  }, 90_000);
});

describe('an event a consumer cannot apply', () => {
  it('a failing event stops the consumer at that event and never skips it', async () => {
    await createRecorderTable(t.db, 'd_applied');
    // 200 Ticks with Tocks in between; Tick number 120 is the poison, mid-batch.
    let tick = 0;
    for (let i = 0; i < 300; i++) {
      const isTick = i % 3 !== 2;
      const data = isTick ? { tick: tick, poison: tick === 120 } : {};
      if (isTick) tick++;
      await appendToStream(t.db, `d-${i % 7}`, [{ type: isTick ? 'Tick' : 'Tock', data }], { expectedVersion: Math.floor(i / 7), metadata: metadata() });
    }
    const ticks = await logInCommitOrder(t.db, ['Tick']);
    const poisonIndex = ticks.findIndex((e) => e.data.poison === true);
    expect(poisonIndex).toBe(120);
    const poison = ticks[poisonIndex]!;

    const insert = async (trx: Parameters<Consumer['apply']>[0], e: { eventId: string; streamId: string; streamPosition: number; globalPosition: number }) =>
      sql`insert into d_applied (event_id, stream_id, stream_position, global_position) values (${e.eventId}, ${e.streamId}, ${e.streamPosition}, ${e.globalPosition})`.execute(trx);
    const broken: Consumer = {
      name: 'd-ticks',
      kind: 'projection',
      eventTypes: ['Tick'],
      tables: ['d_applied'],
      batchSize: 50,
      apply: async (trx, events) => {
        for (const e of events) {
          if (e.data.poison) throw new Error(`cannot apply tick ${String(e.data.tick)}`);
          await insert(trx, e);
        }
      },
    };

    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await drainToEnd(t.db, broken);
      expect(result.status).toBe('failed');
      expect(result.error).toBe('cannot apply tick 120');
      // Every event before the poison applied once, none after it.
      expect((await appliedRows(t.db, 'd_applied')).map((r) => r.event_id)).toEqual(ticks.slice(0, poisonIndex).map((e) => e.event_id));
      const before = ticks[poisonIndex - 1]!;
      expect(await checkpoint(t.db, 'd-ticks')).toMatchObject({
        status: 'failed',
        failed_global_position: poison.global_position,
        error: 'cannot apply tick 120',
        last_transaction_id: before.transaction_id,
        last_global_position: before.global_position,
        events_applied: poisonIndex,
      });
      const [lag] = await consumerLag(t.db, [broken]);
      expect(lag).toMatchObject({ status: 'failed', failedAt: poison.global_position, behind: ticks.length - poisonIndex });
    }

    // A fix is deployed: the same consumer with an apply that handles the event.
    const fixed: Consumer = { ...broken, apply: async (trx, events) => { for (const e of events) await insert(trx, e); } };
    expect((await drainToEnd(t.db, fixed)).status).toBe('caught_up');
    await expectAppliedExactlyOnceInOrder(t.db, 'd_applied', 'd-ticks', ['Tick']);
  }, 90_000);
});

describe("a consumer's first batch", () => {
  it('failing on its very first event is recorded, though the batch that created its checkpoint rolled back', async () => {
    await appendToStream(t.db, 'first-fail-1', [{ type: 'FirstFail', data: {} }], { expectedVersion: 0, metadata: metadata() });
    const failing: Consumer = { name: 'first-fail', kind: 'projection', eventTypes: ['FirstFail'], apply: async () => { throw new Error('cannot apply this'); } };
    const result = await drainToEnd(t.db, failing);
    expect(result).toMatchObject({ status: 'failed', error: 'cannot apply this' });
    expect(await checkpoint(t.db, 'first-fail')).toMatchObject({ status: 'failed', error: 'cannot apply this', events_applied: 0 });
  });
});

describe('peeking at a consumer between drains', () => {
  it('says held while an older transaction runs, readable once it ends, and neither once drained; other types are neither', async () => {
    await createRecorderTable(t.db, 'peeked');
    const consumer: Consumer = { name: 'peeked', kind: 'projection', eventTypes: ['Peeked'], apply: async () => undefined };
    await drainToEnd(t.db, consumer);
    expect(await peekConsumer(t.db, consumer, [])).toMatchObject({ readable: false, held: false });

    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let began: () => void = () => {};
    const hasXid = new Promise<void>((resolve) => (began = resolve));
    const older = t.db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx);
      began();
      await released;
    });
    await hasXid;
    // Only another type above the horizon: nothing for this consumer, neither readable nor held.
    await appendToStream(t.db, 'peeked-other', [{ type: 'NotPeeked', data: {} }], { expectedVersion: 0, metadata: metadata() });
    expect(await peekConsumer(t.db, consumer, [])).toMatchObject({ readable: false, held: false });
    await appendToStream(t.db, 'peeked-1', [{ type: 'Peeked', data: {} }], { expectedVersion: 0, metadata: metadata() });
    const heldLook = await peekConsumer(t.db, consumer, []);
    expect(heldLook).toMatchObject({ readable: false, held: true });
    release();
    await older;
    // Other test files' transactions (other databases) may still hold a horizon that counts them as
    // ours when the list is empty; the list a look answers leaves them out, as the worker's next look uses it.
    let others = heldLook.otherDatabaseXids;
    await eventually(
      async () => {
        const seen = await peekConsumer(t.db, consumer, others);
        others = seen.otherDatabaseXids;
        return seen;
      },
      (seen) => seen.readable,
      'the event to become readable',
    );
    await drainToEnd(t.db, consumer);
    expect(await peekConsumer(t.db, consumer, [])).toMatchObject({ readable: false, held: false });
  });
});
