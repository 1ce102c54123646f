import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse } from 'csv-parse';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { httpHelpers } from '../../test/http';

/**
 * The back office's CSV export (api/list-export.ts, docs/exports.md): any simple-rest list answers
 * `Accept: text/csv` with every row its filter matches, in its sort, streamed from one cursor.
 * The withdrawals read table is filled with 100,000 rows straight in SQL (a fixture for size: the
 * export reads the read table, whatever wrote it), with a member whose name is a formula.
 */
const ROWS = 100_000;
const HOSTILE_NAME = '=HYPERLINK("http://evil.example","click")';
let t: TestApp;
let h: ReturnType<typeof httpHelpers>;
let finance: string;
let baseUrl: string;
let memberToken: string;

beforeAll(async () => {
  t = await createTestApp({ listen: true });
  h = httpHelpers(t);
  finance = await h.adminToken('finance');
  memberToken = (await h.registeredMember()).token;
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const db = t.runtime.db;
  await sql`
    insert into members (id, username, email, first_name, last_name, phone, package_id, reg_package_id, created_at, updated_at)
    values ('00000000-0000-4000-8000-00000000e001', 'exporter', 'exporter@example.com', ${HOSTILE_NAME}, '+cmd|calc', '08000000000', 1, 1, now(), now())`.execute(db);
  // Amount i + 100,000 kobo (₦1,000.01 … ₦2,000.00), fee i % 100 kobo; statuses in turn; one a second.
  await sql`
    insert into withdrawals (id, member_id, kind, amount, fee, net_amount, status, bank_name, bank_code, account_number, account_name,
      transfer_reference, created_at, updated_at)
    select gen_random_uuid(), '00000000-0000-4000-8000-00000000e001', 'withdrawal', 100000 + i, i % 100, 100000 + i - i % 100,
      (array['pending', 'successful', 'failed'])[i % 3 + 1], 'Test Bank', '001', '0123456789', 'Exporter',
      'EXP-' || i, timestamptz '2026-01-01' + i * interval '1 second', now()
    from generate_series(1, ${ROWS}) as i`.execute(db);
}, 300_000);
afterAll(async () => t?.close());

// What the export keeps alive, not what it has allocated: the peak of heapUsed counted garbage not yet
// collected, so it moved with the collector's timing (128 MB once in CI for a bounded export).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
const retainedHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

/** `retainedGrowth`: the most the heap kept alive (after a collection) beyond what it held before, sampled at every 512 KB received. */
type Download = { status: number; headers: http.IncomingHttpHeaders; records: string[][]; chunks: number; pausedMidQuery: boolean; retainedGrowth: number };

/**
 * GETs a list as CSV over a real socket and parses it as it arrives. With `pauseAfterFirstChunk`,
 * it stops reading after the first bytes and waits until the server is seen holding its export
 * cursor open (a session idle in a transaction after `fetch forward`): bytes arrived before the
 * query was done.
 */
function download(path: string, options: { token?: string; pauseAfterFirstChunk?: boolean; onRecord?: (record: string[]) => void } = {}): Promise<Download> {
  return new Promise((resolve, reject) => {
    const heapBefore = retainedHeap();
    let heapPeak = heapBefore;
    const request = http.get(`${baseUrl}${path}`, { headers: { accept: 'text/csv', authorization: `Bearer ${options.token ?? finance}` } }, (response) => {
      const records: string[][] = [];
      let chunks = 0;
      let pausedMidQuery = false;
      const parser = parse({ bom: true, relax_column_count: false });
      // With onRecord the records are folded as they come, not kept: the heap then measures the server.
      parser.on('data', (record: string[]) => (options.onRecord ? options.onRecord(record) : records.push(record)));
      parser.on('error', reject);
      parser.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, records, chunks, pausedMidQuery, retainedGrowth: heapPeak - heapBefore }));
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        chunks++;
        if (Math.floor((received + chunk.length) / 524_288) > Math.floor(received / 524_288)) heapPeak = Math.max(heapPeak, retainedHeap());
        received += chunk.length;
        if (chunks === 1 && options.pauseAfterFirstChunk) {
          response.pause();
          exportCursorHeldOpen().then((held) => {
            pausedMidQuery = held;
            response.resume();
          }, reject);
        }
      });
      response.pipe(parser);
    });
    request.on('error', reject);
  });
}

/** Waits (polling the condition, at most 10 s) for a session of this database idle inside its export transaction. */
async function exportCursorHeldOpen(): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state = 'idle in transaction' and query ilike 'fetch forward%list_export%'`.execute(t.runtime.db);
    if ((rows[0]?.n ?? 0) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const query = (params: Record<string, unknown>) => `?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)])))}`;
/** "1000.01" → 100001 kobo, exactly (no float on the way). */
const kobo = (cell: string) => {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(cell);
  if (!match) throw new Error(`not a two-decimal naira cell: ${cell}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
};

describe('CSV export of a back-office list (Accept: text/csv)', () => {
  it('streams all 100,000 withdrawals to finance in chunks while the query is still open, naira to the kobo', async () => {
    let header: string[] | null = null;
    const seen = { rows: 0, amount: 0, net: 0, sorted: true, lastCreated: '', first: [] as string[], fee99: '', fee100: '', last: [] as string[] };
    const column = (name: string) => header!.indexOf(name);
    const answer = await download(`/api/admin/withdrawals${query({ sort: ['created_at', 'ASC'], range: [0, 24] })}`, {
      pauseAfterFirstChunk: true,
      onRecord: (record) => {
        if (!header) {
          header = record;
          return;
        }
        seen.rows++;
        seen.amount += kobo(record[column('amount (₦)')]!);
        seen.net += kobo(record[column('net_amount (₦)')]!);
        const created = record[column('created_at')]!;
        seen.sorted &&= seen.lastCreated <= created;
        seen.lastCreated = created;
        if (seen.rows === 1) seen.first = record;
        if (seen.rows === 99) seen.fee99 = record[column('fee (₦)')]!;
        if (seen.rows === 100) seen.fee100 = record[column('fee (₦)')]!;
        seen.last = record;
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="withdrawals-\d{4}-\d{2}-\d{2}\.csv"$/);
    // Bytes came before the server had read every row: it was seen holding its cursor open mid-way.
    expect(answer.pausedMidQuery).toBe(true);
    expect(answer.chunks).toBeGreaterThan(10);
    // The whole list (not the page of 25 the range names).
    expect(seen.rows).toBe(ROWS);
    expect(header).toEqual(expect.arrayContaining(['id', 'username', 'amount (₦)', 'charge (₦)', 'fee (₦)', 'net_amount (₦)', 'status', 'created_at']));
    expect(seen.first[column('amount (₦)')]).toBe('1000.01');
    expect(seen.first[column('fee (₦)')]).toBe('0.01');
    expect(seen.fee99).toBe('0.99');
    expect(seen.fee100).toBe('0.00');
    expect(seen.last[column('amount (₦)')]).toBe('2000.00');
    const { rows: sums } = await sql<{ amount: number; net: number }>`select sum(amount)::bigint as amount, sum(net_amount)::bigint as net from withdrawals`.execute(t.runtime.db);
    expect(seen.amount).toBe(sums[0]!.amount);
    expect(seen.net).toBe(sums[0]!.net);
    // Sorted as asked: created_at ascending.
    expect(seen.sorted).toBe(true);
    // Bounded memory: the server holds one batch of 500 at a time (a few hundred KB); 100,000 records
    // held at once (as JSON objects, before any CSV) would keep well over 50 MB alive.
    expect(answer.retainedGrowth).toBeLessThan(50 * 1024 * 1024);
    // A ceiling for a loaded machine, not a speed assertion.
  }, 300_000);

  it('respects the filter and the sort, and neutralises text a spreadsheet would run', async () => {
    const answer = await download(`/api/admin/withdrawals${query({ filter: { status: 'failed', amount_gte: 1990 }, sort: ['amount', 'DESC'] })}`);
    expect(answer.status).toBe(200);
    const [header, ...rows] = answer.records;
    const { rows: expected } = await sql<{ id: string; amount: string }>`
      select id::text, amount::text from withdrawals where status = 'failed' and amount >= 199000 order by amount desc`.execute(t.runtime.db);
    expect(expected.length).toBeGreaterThan(100);
    expect(rows.map((row) => row[header!.indexOf('id')])).toEqual(expected.map((row) => row.id));
    expect(rows.map((row) => kobo(row[header!.indexOf('amount (₦)')]!))).toEqual(expected.map((row) => Number(row.amount)));
    expect(rows.every((row) => row[header!.indexOf('status')] === 'failed')).toBe(true);
    expect(rows[0]![header!.indexOf('first_name')]).toBe(`'${HOSTILE_NAME}`);
    expect(rows[0]![header!.indexOf('last_name')]).toBe(`'+cmd|calc`);
    expect(rows[0]![header!.indexOf('full_name')]).toBe(`'${HOSTILE_NAME} +cmd|calc`);
  });

  it('exports every row of a list whose handler pages by itself (ranks), the same rows as its JSON answer', async () => {
    const json = await h.call('GET', `/api/admin/ranks${query({ range: [0, 499] })}`, { token: finance });
    expect(json.status).toBe(200);
    const listed = json.body as unknown as Array<{ id: number }>;
    expect(listed.length).toBeGreaterThan(1);
    const answer = await download(`/api/admin/ranks${query({ range: [0, 0] })}`);
    expect(answer.status).toBe(200);
    const [header, ...rows] = answer.records;
    expect(rows.map((row) => Number(row[header!.indexOf('id')]))).toEqual(listed.map((rank) => rank.id));
  });

  it('answers a bad filter with a 422 in JSON, before any CSV', async () => {
    const answer = await h.call('GET', `/api/admin/withdrawals${query({ filter: { amount_gte: 'lots' } })}`, { token: finance, headers: { accept: 'text/csv' } });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/amount_gte must be a number/);
  });

  it('refuses members and anonymous callers', async () => {
    expect((await h.call('GET', '/api/admin/withdrawals', { token: memberToken, headers: { accept: 'text/csv' } })).status).toBe(403);
    expect((await h.call('GET', '/api/admin/withdrawals', { headers: { accept: 'text/csv' } })).status).toBe(401);
  });
});
