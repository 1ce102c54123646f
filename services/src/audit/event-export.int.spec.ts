import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';
import { EXPORT_BATCH_ROWS } from '../api/list-export';
import { runInTransaction } from '../core/command';
import { appendToStream } from '../core/event-store';

/**
 * The event log explorer's Export (docs/exports.md): GET /api/admin/events with Accept: text/csv
 * streams every event the filter matches, batch after batch by the keyset the list pages with,
 * in the list's order, with no event written twice or left out; finance exports, members do not.
 */
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let admin: string;
let finance: string;
const EXPORTED = EXPORT_BATCH_ROWS * 2 + 37;

async function append(stream: string, type: string, n: number) {
  await runInTransaction(t.runtime.commands, (trx) =>
    appendToStream(trx, stream, Array.from({ length: n }, (_, i) => ({ type, data: { i, amount_kobo: 150_050 } })), {
      expectedVersion: 0,
      metadata: { actor: { type: 'system', id: 'test' }, now: new Date().toISOString() },
    }),
  );
}

async function exportCsv(filter: Record<string, unknown>, order: 'ASC' | 'DESC', token = finance) {
  const query = new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify(['id', order]), range: '[0,24]' });
  return t.app.inject({ method: 'GET', url: `/api/admin/events?${query}`, headers: { authorization: `Bearer ${token}`, accept: 'text/csv' } });
}

const rowsOf = (body: string) => parse(body, { columns: true, bom: true }) as Record<string, string>[];

beforeAll(async () => {
  t = await createTestApp({ consumers: [] });
  h = httpHelpers(t);
  admin = await h.adminToken('admin');
  finance = await h.adminToken('finance');
  // Two streams of the exported type, interleaved with events of another type.
  await append('export-a', 'ExportedThing', EXPORTED - 200);
  await append('export-other', 'OtherThing', 300);
  await append('export-b', 'ExportedThing', 200);
}, 60_000);
afterAll(async () => t?.close());

describe('the event log CSV export', () => {
  it('writes every matching event, newest first, past the first page and every batch, once each', async () => {
    const response = await exportCsv({ type: 'ExportedThing' }, 'DESC');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="events-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = rowsOf(response.body);
    const { rows: expected } = await sql<{ id: number }>`select global_position::int as id from events where type = 'ExportedThing' order by global_position desc`.execute(t.runtime.db);
    expect(rows).toHaveLength(EXPORTED);
    expect(rows.map((row) => Number(row.id))).toEqual(expected.map((row) => row.id));
    expect(Object.keys(rows[0]!)).toEqual(['id', 'event_id', 'stream_id', 'stream_position', 'type', 'schema_version', 'data', 'metadata', 'recorded_at', 'hash', 'prev_hash']);
    expect(JSON.parse(rows[0]!.data!)).toMatchObject({ amount_kobo: 150_050 });
  });

  it('follows the filter and the order: oldest first, one stream', async () => {
    const rows = rowsOf((await exportCsv({ stream_id: 'export-a' }, 'ASC', admin)).body);
    expect(rows).toHaveLength(EXPORTED - 200);
    expect(rows.map((row) => Number(row.stream_position))).toEqual(Array.from({ length: EXPORTED - 200 }, (_, i) => i + 1));
    const empty = await exportCsv({ stream_id: 'no-such-stream' }, 'DESC');
    expect(empty.statusCode).toBe(200);
    expect(rowsOf(empty.body)).toEqual([]);
  });

  it('is for admins and finance staff; a bad filter is a 422, not a file', async () => {
    const member = await h.registeredMember();
    expect((await exportCsv({}, 'DESC', member.token)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/events', headers: { accept: 'text/csv' } });
    expect(anonymous.statusCode).toBe(401);
    const bad = await exportCsv({ member_id: 'not-a-uuid' }, 'DESC');
    expect(bad.statusCode).toBe(422);
    expect(bad.headers['content-type']).toContain('application/json');
  });
});
