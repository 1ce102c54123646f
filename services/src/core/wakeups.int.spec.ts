import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase, testQueuePrefix } from '../../test/database';
import { eventually } from '../../test/eventually';
import { createRecorderTable, recorder } from '../../test/fixtures/recorder';
import { redisUrl } from '../../test/urls';
import type { Consumer } from './consumers';
import { runInTransaction } from './command';
import { type EventMetadata, appendToStream } from './event-store';
import { CONSUMER_QUEUE, type ConsumerWorker, type Doorbell, createDoorbell, redisConnection, startConsumerWorker } from './wakeups';

const metadata = (): EventMetadata => ({ actor: { type: 'system', id: 'test' }, now: new Date().toISOString() });
const logger = pino({ level: 'silent' });


let t: TestDatabase;
const prefix = testQueuePrefix();
const workers: ConsumerWorker[] = [];
const doorbells: Doorbell[] = [];

async function appliedEventIds(table: string): Promise<string[]> {
  const { rows } = await sql<{ event_id: string }>`select event_id from ${sql.table(table)} order by seq`.execute(t.db);
  return rows.map((r) => r.event_id);
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  for (const worker of workers) await worker.close();
  for (const doorbell of doorbells) await doorbell.close();
  // Leave nothing of this file's queues in Redis.
  const redis = new Redis(redisUrl());
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
  } finally {
    redis.disconnect();
  }
  await t.drop();
});

describe('waking consumers through BullMQ', () => {
  it('a ring after commit makes the worker apply new events', async () => {
    await createRecorderTable(t.db, 'rung');
    const consumer: Consumer = recorder({ name: 'rung', table: 'rung' });
    // The sweep is far away: only the ring can wake the worker during this test.
    const queuePrefix = `${prefix}-ring`;
    workers.push(await startConsumerWorker({ db: t.db, redisUrl: redisUrl(), prefix: queuePrefix, consumers: [consumer], logger, sweepEveryMs: 3_600_000 }));
    const doorbell = createDoorbell(redisUrl(), queuePrefix);
    doorbells.push(doorbell);
    // Let a sweep that may run at start finish first, so it cannot be what applies the new event.
    const inspect = new Queue(CONSUMER_QUEUE, { connection: redisConnection(redisUrl()), prefix: queuePrefix });
    try {
      await eventually(
        () => inspect.getJobCounts('active', 'waiting', 'prioritized', 'waiting-children'),
        (counts) => Object.values(counts).every((n) => n === 0),
        'the queue to be idle',
      );
    } finally {
      await inspect.close();
    }

    const [first] = await appendToStream(t.db, 'rung-1', [{ type: 'Rung', data: {} }], { expectedVersion: 0, metadata: metadata() });
    await sleep(1_000);
    expect(await appliedEventIds('rung')).toEqual([]);
    // Rung again while waiting: a drain may legitimately find the event not yet readable (any
    // transaction running in the instance holds back log readers); only rings can wake it here.
    const ringAndRead = async () => {
      await doorbell.ring(['rung']);
      await sleep(200);
      return appliedEventIds('rung');
    };
    await eventually(ringAndRead, (ids) => ids.length === 1, 'the rung event to be applied');
    expect(await appliedEventIds('rung')).toEqual([first!.eventId]);

    // A second commit, rung again (deduplication of the first drain job must not swallow it).
    const [second] = await appendToStream(t.db, 'rung-1', [{ type: 'Rung', data: {} }], { expectedVersion: 1, metadata: metadata() });
    await eventually(ringAndRead, (ids) => ids.length === 2, 'the second rung event to be applied');
    expect(await appliedEventIds('rung')).toEqual([first!.eventId, second!.eventId]);
  });

  it('the sweep applies events even when no ring is sent', async () => {
    await createRecorderTable(t.db, 'swept');
    const consumer: Consumer = recorder({ name: 'swept', table: 'swept', eventTypes: ['Swept'] });
    workers.push(await startConsumerWorker({ db: t.db, redisUrl: redisUrl(), prefix: `${prefix}-sweep`, consumers: [consumer], logger, sweepEveryMs: 200 }));

    const appended: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [event] = await appendToStream(t.db, 'swept-1', [{ type: 'Swept', data: { i } }], { expectedVersion: i, metadata: metadata() });
      appended.push(event!.eventId);
      // Each commit is picked up by a later sweep, never by a ring.
      await eventually(() => appliedEventIds('swept'), (ids) => ids.length === i + 1, `swept event ${i} to be applied`);
    }
    expect(await appliedEventIds('swept')).toEqual(appended);
  });

  /** Waits until the worker's start-up sweep has run, so that only what the test does can wake a consumer. */
  async function idleQueue(queuePrefix: string): Promise<void> {
    const inspect = new Queue(CONSUMER_QUEUE, { connection: redisConnection(redisUrl()), prefix: queuePrefix });
    try {
      await eventually(
        () => inspect.getJobCounts('active', 'waiting', 'prioritized', 'waiting-children'),
        (counts) => Object.values(counts).every((n) => n === 0),
        'the queue to be idle',
      );
    } finally {
      await inspect.close();
    }
  }

  it('an event held back by an older running transaction is applied when it ends, with no further ring', async () => {
    await createRecorderTable(t.db, 'held');
    const consumer: Consumer = recorder({ name: 'held', table: 'held', eventTypes: ['Held'] });
    const queuePrefix = `${prefix}-held`;
    workers.push(await startConsumerWorker({ db: t.db, redisUrl: redisUrl(), prefix: queuePrefix, consumers: [consumer], logger, sweepEveryMs: 3_600_000 }));
    await idleQueue(queuePrefix);
    const doorbell = createDoorbell(redisUrl(), queuePrefix);
    doorbells.push(doorbell);

    // An older transaction with an xid (a consumer's batch, a command appending other types): its
    // commit rings nobody for this consumer.
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
    const [event] = await appendToStream(t.db, 'held-1', [{ type: 'Held', data: {} }], { expectedVersion: 0, metadata: metadata() });
    await doorbell.ring(['held']);
    // The ring's drain finds the event committed but above the horizon.
    await sleep(300);
    expect(await appliedEventIds('held')).toEqual([]);
    release();
    await older;
    await eventually(() => appliedEventIds('held'), (ids) => ids.length === 1, 'the held event to be applied after the older transaction ended');
    expect(await appliedEventIds('held')).toEqual([event!.eventId]);
  });

  it("a policy's appended events wake the consumers that read them", async () => {
    await createRecorderTable(t.db, 'effects');
    const policy: Consumer = {
      name: 'cause-to-effect',
      kind: 'policy',
      eventTypes: ['Cause'],
      apply: async (trx, events) => {
        for (const event of events) {
          await appendToStream(trx, `effect-${event.eventId}`, [{ type: 'Effect', data: {} }], { expectedVersion: 0, metadata: { ...metadata(), causation_id: event.eventId } });
        }
      },
    };
    const effects: Consumer = recorder({ name: 'effects', table: 'effects', eventTypes: ['Effect'] });
    const queuePrefix = `${prefix}-policy`;
    workers.push(await startConsumerWorker({ db: t.db, redisUrl: redisUrl(), prefix: queuePrefix, consumers: [policy, effects], logger, sweepEveryMs: 3_600_000 }));
    await idleQueue(queuePrefix);
    const doorbell = createDoorbell(redisUrl(), queuePrefix);
    doorbells.push(doorbell);

    await appendToStream(t.db, 'cause-1', [{ type: 'Cause', data: {} }], { expectedVersion: 0, metadata: metadata() });
    // Only the policy is rung; the projection of its effect must be woken by the policy's batch.
    await doorbell.ring(['cause-to-effect']);
    await eventually(() => appliedEventIds('effects'), (ids) => ids.length === 1, "the policy's effect to be projected");
  });

  it('a command reports the event types it appended, so its commit rings only their readers', async () => {
    const reported: (ReadonlySet<string> | undefined)[] = [];
    const ctx = { db: t.db, onCommitted: (appended?: ReadonlySet<string>) => void reported.push(appended) };
    await runInTransaction(ctx, async (trx) => {
      await appendToStream(trx, 'command-1', [{ type: 'Asked', data: {} }], { expectedVersion: 0, metadata: metadata() });
      await appendToStream(trx, 'command-2', [{ type: 'Answered', data: {} }, { type: 'Asked', data: {} }], { expectedVersion: 0, metadata: metadata() });
    });
    await runInTransaction(ctx, async () => undefined);
    expect(reported.map((types) => [...(types ?? ['unknown'])].sort())).toEqual([['Answered', 'Asked'], []]);
  });
});
