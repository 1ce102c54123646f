/**
 * Runs the Emmett reference measurements in a child process (forked by run.ts). Emmett's pool
 * library (dumbo) globally switches pg's int8 parser to BigInt and replaces the JSON parsers on its
 * first pool; in the harness process that would change how our own store reads rows.
 * Protocol: the parent sends one EmmettTask at a time, the worker answers { ok, result | error }.
 */
import { dumbo, rawSql } from '@event-driven-io/dumbo';
import {
  getPostgreSQLEventStore,
  postgreSQLEventStoreConsumer,
  postgreSQLProjection,
  readMessagesBatch,
} from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import {
  BENCH_EVENT_TYPE,
  type DrainMeasurement,
  type EmmettTask,
  closedLoop,
  counterUpsertSql,
  eventData,
  eventMetadata,
  newStreamId,
  streamCursor,
  summarize,
} from './harness';

type BenchEvent = { type: typeof BENCH_EVENT_TYPE; data: Record<string, unknown>; metadata: Record<string, unknown> };

const benchEvent = (): BenchEvent => ({ type: BENCH_EVENT_TYPE, data: eventData(), metadata: eventMetadata() });

async function withStore<T>(connectionString: string, poolSize: number, fn: (store: ReturnType<typeof getPostgreSQLEventStore>) => Promise<T>) {
  // The store's own pool would be pg's default 10 connections; give it as many as our store gets.
  const pool = new pg.Pool({ connectionString, max: poolSize, application_name: 'portal-bench-emmett' });
  const store = getPostgreSQLEventStore(connectionString, { connectionOptions: { pool } });
  try {
    await store.schema.migrate();
    return await fn(store);
  } finally {
    await store.close();
    await pool.end();
  }
}

async function sumCounters(connectionString: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string | null }>(`select sum(events)::text as n from ${table}`);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function countPassed(connectionString: string, lastGlobalPosition: bigint): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*)::text as n from emt_messages
       where (transaction_id, global_position) <= (select transaction_id, global_position from emt_messages where global_position = $1)`,
      [String(lastGlobalPosition)],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function handle(task: EmmettTask): Promise<unknown> {
  switch (task.kind) {
    case 'append':
      return withStore(task.connectionString, task.concurrency + 2, (store) =>
        closedLoop(task, () => {
          const cursor = streamCursor(task.streamLength);
          return async () => {
            const { streamId, expectedVersion } = cursor.next();
            await store.appendToStream<BenchEvent>(streamId, [benchEvent()], { expectedStreamVersion: BigInt(expectedVersion) });
            cursor.committed();
          };
        }),
      );

    case 'load':
      return withStore(task.connectionString, task.concurrency + 2, async (store) => {
        const streams = Math.ceil(task.events / task.eventsPerStream);
        let next = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: task.concurrency }, async () => {
            while (next < streams) {
              const index = next++;
              const count = Math.min(task.eventsPerStream, task.events - index * task.eventsPerStream);
              const events = Array.from({ length: count }, benchEvent);
              await store.appendToStream<BenchEvent>(newStreamId(), events, { expectedStreamVersion: 0n });
            }
          }),
        );
        return { streams, seconds: (performance.now() - started) / 1000 };
      });

    case 'consume-processor': {
      // Emmett's own consumer + projector: polls readMessagesBatch, and for each batch opens a
      // transaction in which the projector calls the projection once per message and stores the
      // checkpoint (compare-and-set function) once per message.
      const upsert = counterUpsertSql(task.table);
      let handled = 0;
      let lastGlobalPosition = 0n;
      const consumer = postgreSQLEventStoreConsumer({
        connectionString: task.connectionString,
        stopWhen: { noMessagesLeft: true },
        pulling: { batchSize: task.batchSize, pullingFrequencyInMs: task.pullingFrequencyInMs },
      });
      consumer.projector({
        projection: postgreSQLProjection<BenchEvent>({
          name: task.table,
          canHandle: [BENCH_EVENT_TYPE],
          handle: async (events, context) => {
            handled += events.length;
            lastGlobalPosition = events[events.length - 1]!.metadata.globalPosition;
            await context.connection.client.query(upsert, [
              events.map((e) => e.metadata.streamName),
              events.map((e) => String(e.metadata.globalPosition)),
            ]);
          },
        }),
        // Stop after `limit` handled messages (the whole log when limit >= its size).
        stopAfter: () => handled >= task.limit,
      });
      const started = performance.now();
      await consumer.start();
      const seconds = (performance.now() - started) / 1000;
      await consumer.close();
      const projected = await sumCounters(task.connectionString, task.table);
      // Events the reader went past, in its own read order, up to the last message it handled.
      const passed = await countPassed(task.connectionString, lastGlobalPosition);
      const result: DrainMeasurement = {
        events: passed,
        seconds,
        eventsPerSecond: passed / seconds,
        batches: Math.ceil(passed / task.batchSize),
        batchP50Ms: NaN,
        batchP99Ms: NaN,
        projected,
      };
      return result;
    }

    case 'consume-read-batch': {
      // Emmett's readMessagesBatch (its xid-filtered read, cursor on global_position) feeding the same
      // set-based upsert as ours, plus a checkpoint row updated in the same transaction.
      const pool = dumbo({ connectionString: task.connectionString });
      const upsert = counterUpsertSql(task.table);
      try {
        await pool.execute.command(
          rawSql(`create table if not exists bench_emmett_checkpoint (name text primary key, last_global_position bigint not null)`),
        );
        await pool.execute.command(rawSql(`insert into bench_emmett_checkpoint values ('${task.table}', 0)`));
        let after = 0n;
        let events = 0;
        const batchMs: number[] = [];
        const started = performance.now();
        for (;;) {
          const t0 = performance.now();
          const read = await pool.withTransaction(async (transaction) => {
            const batch = await readMessagesBatch(transaction.execute, { after, batchSize: task.batchSize });
            if (batch.messages.length === 0) return batch;
            const client = (await transaction.connection.open()) as pg.PoolClient;
            await client.query(upsert, [
              batch.messages.map((m) => m.metadata.streamName),
              batch.messages.map((m) => String(m.metadata.globalPosition)),
            ]);
            const { rowCount } = await client.query(
              `update bench_emmett_checkpoint set last_global_position = $2 where name = $1 and last_global_position = $3`,
              [task.table, String(batch.currentGlobalPosition), String(after)],
            );
            if (rowCount !== 1) throw new Error('checkpoint moved');
            return batch;
          });
          if (read.messages.length === 0) break;
          batchMs.push(performance.now() - t0);
          events += read.messages.length;
          after = read.currentGlobalPosition;
          if (!read.areMessagesLeft) break;
        }
        const seconds = (performance.now() - started) / 1000;
        const s = summarize(batchMs);
        const result: DrainMeasurement = {
          events,
          seconds,
          eventsPerSecond: task.expected / seconds,
          batches: batchMs.length,
          batchP50Ms: s.p50Ms,
          batchP99Ms: s.p99Ms,
          projected: await sumCounters(task.connectionString, task.table),
        };
        return result;
      } finally {
        await pool.close();
      }
    }
  }
}

process.on('message', (task: EmmettTask) => {
  handle(task).then(
    (result) => process.send?.({ ok: true, result }),
    (error: unknown) => process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
