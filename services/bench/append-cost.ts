/**
 * Where a single-event append's time goes (issue 13 item 1): N appends one after the other in
 * one transaction (no commit wait), timed per statement and in client CPU, beside the same
 * number of plain INSERTs of the row (named prepared, as ours runs). Not part of `npm run bench`:
 * `npx tsx services/bench/append-cost.ts [N]` against DATABASE_URL (a scratch database is made).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDb } from '../src/core/db';
import { appendToStream } from '../src/core/event-store';
import { migrateToLatest } from '../src/core/migrate';
import { BENCH_EVENT_TYPE, eventData, eventMetadata } from './harness';

const n = Number(process.argv[2] ?? 2000);
const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const name = `append_cost_${process.pid}`;
const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(server.toString());
url.pathname = `/${name}`;
const db = createDb(url.toString(), { max: 1, preparedStatements: true });
try {
  await migrateToLatest(db);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  await pool.query('create table plain_events (like events including all)');
  /** `loop(count, offset)` runs `count` appends in one transaction. */
  const measure = async (label: string, loop: (count: number, offset: number) => Promise<void>) => {
    await loop(50, 1_000_000); // warm: the connection's statements prepared, past the custom plans
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await loop(n, 0);
    const wall = (performance.now() - t0) / n;
    const cpu = process.cpuUsage(cpu0);
    console.log(`${label.padEnd(34)} ${(wall * 1000).toFixed(0).padStart(5)} µs an append, client CPU ${((cpu.user + cpu.system) / n).toFixed(0).padStart(4)} µs`);
  };
  const run = `${Date.now()}`;
  const client = await pool.connect();
  const text = 'insert into plain_events (stream_id, stream_position, type, schema_version, data, metadata, recorded_at, event_id, prev_hash, hash) values ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9)';
  const plain = (prepared: boolean) => async (count: number, offset: number) => {
    await client.query('begin');
    for (let i = offset; i < offset + count; i++) {
      const metadata = eventMetadata();
      const values = [`p-${run}-${randomUUID()}`, 1, BENCH_EVENT_TYPE, JSON.stringify(eventData()), JSON.stringify(metadata), metadata.now, randomUUID(), 'f', 'f'];
      await (prepared ? client.query({ name: 'plain', text, values }) : client.query(text, values));
    }
    await client.query('commit');
  };
  for (let round = 0; round < 2; round++) {
    await measure('ours (appendToStream, prepared)', (count, offset) =>
      db.transaction().execute(async (trx) => {
        for (let i = offset; i < offset + count; i++) {
          await appendToStream(trx, `s-${run}-${round}-${i}`, [{ type: BENCH_EVENT_TYPE, data: eventData() }], { expectedVersion: 0, metadata: eventMetadata() });
        }
      }),
    );
    await measure('plain INSERT, named prepared', plain(true));
    await measure('plain INSERT, unnamed', plain(false));
  }
  client.release();
  await pool.end();
} finally {
  await db.destroy();
  await admin.query(`drop database ${name}`);
  await admin.end();
}
