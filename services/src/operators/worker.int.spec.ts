import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { createRecorderTable, recorder } from '../../test/fixtures/recorder';
import { httpHelpers } from '../../test/http';
import { runInTransaction } from '../core/command';
import type { Consumer } from '../core/consumers';
import { appendToStream } from '../core/event-store';
import { startConsumerWorker } from '../core/wakeups';
import { startOperatorsWorker } from './worker';

/**
 * The console against a real worker (the same consumer and operations workers worker.ts starts):
 * a consumer stopped on a poison event reports where and why, and carries on after a fix and a
 * retry; a rebuild asked for over HTTP runs as a job, reports progress, and swaps in under
 * concurrent appends without losing or doubling an event; the worker's heartbeat lists it.
 */
const ledger = recorder({ name: 'ops-ledger', table: 'ops_ledger', eventTypes: ['OpsNoted', 'OpsPoison'], batchSize: 50 });
const applyLedger = ledger.apply;
/** The deployed code: until the fix, an OpsPoison event cannot be applied. */
let fixDeployed = false;
const poisonable: Consumer = {
  ...ledger,
  async apply(trx, events) {
    const poison = events.find((e) => e.type === 'OpsPoison');
    if (poison && !fixDeployed) throw new Error(`amount "${(poison.data as { amount: string }).amount}" is not a number of kobo`);
    await applyLedger(trx, events);
  },
};

let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
let stop: () => Promise<void>;

async function append(type: string, data: Array<Record<string, unknown>>) {
  const [first] = await runInTransaction(t.runtime.commands, (trx) =>
    appendToStream(trx, `ops-${crypto.randomUUID()}`, data.map((d) => ({ type, data: d })), {
      expectedVersion: 0,
      metadata: { actor: { type: 'system', id: 'test' }, now: new Date().toISOString() },
    }),
  );
  return first!;
}

async function consumerRecord() {
  const response = await h.call('GET', '/api/admin/consumers', { token: admin });
  expect(response.status).toBe(200);
  return response.body.data.consumers.find((c: { name: string }) => c.name === 'ops-ledger');
}

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

beforeAll(async () => {
  t = await createTestApp({ consumers: [poisonable] });
  await createRecorderTable(t.runtime.db, 'ops_ledger');
  h = httpHelpers(t);
  admin = await h.adminToken('admin');
  finance = await h.adminToken('finance');
  const logger = pino({ level: 'silent' });
  // No sweep during the test: the consumer moves on rings alone (commits, resume, retry).
  const consumerWorker = await startConsumerWorker({ db: t.runtime.db, redisUrl: t.runtime.config.REDIS_URL, prefix: t.runtime.config.QUEUE_PREFIX, consumers: [poisonable], logger, sweepEveryMs: 3_600_000 });
  const operators = await startOperatorsWorker({ ...t.runtime, consumers: [poisonable] }, { consumerWorker, logger, heartbeatEveryMs: 500 });
  // The test runtime rings nobody after commits: ring this consumer as the api's runtime would.
  const commands = t.runtime.commands;
  const onCommitted = commands.onCommitted;
  commands.onCommitted = () => {
    onCommitted();
    t.runtime.doorbell.ring(['ops-ledger']).catch(() => {});
  };
  stop = async () => {
    commands.onCommitted = onCommitted;
    await operators.close();
    await consumerWorker.close();
  };
}, 60_000);
afterAll(async () => {
  await stop?.();
  await t?.close();
});

describe('a consumer stopped on a poison event', () => {
  it('reports the position, type and message, and carries on after a fix and a retry', async () => {
    await append('OpsNoted', [{ n: 1 }, { n: 2 }]);
    const poison = await append('OpsPoison', [{ amount: 'ten' }]);
    await append('OpsNoted', [{ n: 3 }]);

    const stopped = await poll(consumerRecord).toMatchObject({ status: 'failed' });
    void stopped;
    const record = await consumerRecord();
    expect(record.failure).toMatchObject({
      global_position: poison.globalPosition,
      type: 'OpsPoison',
      stream_id: poison.streamId,
      stream_position: 1,
      message: 'amount "ten" is not a number of kobo',
    });
    // Stopped exactly there: the two events before it applied, the poison and the one after not.
    expect(record.events_behind).toBe(2);
    const { rows: applied } = await sql<{ n: number }>`select count(*)::int as n from ops_ledger`.execute(t.runtime.db);
    expect(applied[0]!.n).toBe(2);

    // Finance may look, not retry.
    expect((await h.call('POST', '/api/admin/consumers/ops-ledger/retry', { token: finance, body: {} })).status).toBe(403);

    fixDeployed = true;
    const retried = await h.call('POST', '/api/admin/consumers/ops-ledger/retry', { token: admin, body: {} });
    expect(retried.status, retried.body.message).toBe(200);
    expect(retried.body.message).toContain(`#${poison.globalPosition}`);
    await poll(consumerRecord).toMatchObject({ status: 'caught_up', failure: null, events_behind: 0 });
    const { rows } = await sql<{ n: number; distinct_events: number }>`
      select count(*)::int as n, count(distinct event_id)::int as distinct_events from ops_ledger`.execute(t.runtime.db);
    expect(rows[0]).toEqual({ n: 4, distinct_events: 4 });
    const { rows: recorded } = await sql<{ data: unknown }>`select data from events where type = 'ConsumerRetryRequested'`.execute(t.runtime.db);
    expect(recorded.map((r) => r.data)).toEqual([{ consumer: 'ops-ledger', failed_global_position: poison.globalPosition, error: 'amount "ten" is not a number of kobo' }]);
  });
});

describe('a rebuild asked for in the console', () => {
  it('runs in the worker with progress and swaps in under concurrent appends without losing or doubling an event', async () => {
    for (let i = 0; i < 6; i++) await append('OpsNoted', Array.from({ length: 100 }, (_, n) => ({ n })));
    const requested = await h.call('POST', '/api/admin/consumers/ops-ledger/rebuild', { token: admin, body: {} });
    expect(requested.status, requested.body.message).toBe(200);

    // Live traffic while it rebuilds: appends keep committing and the live consumer keeps applying.
    const percents = new Set<number>();
    let appending = true;
    const traffic = (async () => {
      let batches = 0;
      while (appending || batches < 5) {
        await append('OpsNoted', Array.from({ length: 7 }, (_, n) => ({ n })));
        batches++;
      }
    })();
    try {
      await poll(async () => {
        const record = await consumerRecord();
        percents.add(record.rebuild?.percent ?? -1);
        return record.rebuild?.status;
      }).toBe('succeeded');
    } finally {
      appending = false;
      await traffic;
    }
    expect((await consumerRecord()).rebuild).toMatchObject({ percent: 100, finished_at: expect.any(String), error: null });
    expect([...percents].some((p) => p > 0 && p < 100) || percents.has(100)).toBe(true);

    // After the swap and the live consumer's catch-up: every event of the log exactly once.
    await poll(async () => (await consumerRecord()).events_behind).toBe(0);
    const { rows: missing } = await sql<{ n: number }>`
      select count(*)::int as n from events e where e.type in ('OpsNoted', 'OpsPoison') and not exists (select 1 from ops_ledger l where l.event_id = e.event_id)`.execute(t.runtime.db);
    const { rows: doubled } = await sql<{ n: number }>`
      select count(*)::int as n from (select event_id from ops_ledger group by event_id having count(*) > 1) d`.execute(t.runtime.db);
    expect({ missing: missing[0]!.n, doubled: doubled[0]!.n }).toEqual({ missing: 0, doubled: 0 });
    const { rows: outcome } = await sql<{ type: string; causation: string | null }>`
      select type, metadata->>'causation_id' as causation from events where type in ('ProjectionRebuildRequested', 'ProjectionRebuilt') order by global_position`.execute(t.runtime.db);
    expect(outcome.map((o) => o.type)).toEqual(['ProjectionRebuildRequested', 'ProjectionRebuilt']);
    expect(outcome[1]!.causation).not.toBeNull();
  }, 90_000);

  it("lists the worker with what it runs in the console", async () => {
    const overview = (await h.call('GET', '/api/admin/consumers', { token: admin })).body.data;
    expect(overview.workers).toEqual([expect.objectContaining({ pid: process.pid, consumers: ['ops-ledger'], queues: expect.arrayContaining(['consumers', 'operations']) })]);
  });
});
