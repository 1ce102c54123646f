import { stringify } from 'csv-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { nairaCell, neutraliseCell } from '../contracts/csv';
import { isNairaFigure } from '../contracts/fields';
import type { Database } from '../database';
import type { Kysely } from 'kysely';
import { type ListExportBatch, listExportBatch, simpleRestQuery } from './simple-rest';

/**
 * CSV export of every back-office list (docs/exports.md). Any GET route that takes the simple-rest
 * query (`querystring: simpleRestQuery`) and answers an array answers `Accept: text/csv` with ALL
 * the rows its filter matches, in its sort, as a CSV download streamed while it is read:
 *
 * - the route's own handler runs once per batch of 500, inside a read-only transaction; its
 *   `selectPage` reads the batch from one cursor over the whole query (api/simple-rest.ts), so a
 *   100,000-row export is one query and holds one batch in memory at a time, and the writes wait
 *   for the client (backpressure);
 * - a handler with its own query is paged by offset instead (small lists: ranks, incentives);
 * - each batch goes through the route's own response schema, so the file holds exactly the fields
 *   the list answers, under the route's own authorization (finance may export: it is a read);
 * - naira figures (contracts `nairaFigure`) are written as plain numbers with two decimals under a
 *   "(₦)" header; text that a spreadsheet would run as a formula is neutralised (contracts/csv.ts).
 */
export const EXPORT_BATCH_ROWS = 500;
/** The export transaction may wait this long for a slow client between batches (core/db.ts sets 30 s for everyone else). */
const EXPORT_IDLE_TIMEOUT = '5min';

type Column = { key: string; header: string; naira: boolean };

const wantsCsv = (request: FastifyRequest) => /\btext\/csv\b/i.test(request.headers.accept ?? '');

/** The CSV columns of a list: its record schema's fields, in order; naira figures marked. */
export function exportColumns(recordSchema: z.ZodType | undefined, firstRecord: Record<string, unknown> | undefined): Column[] {
  const shape = recordSchema instanceof z.ZodObject ? (recordSchema.shape as Record<string, z.ZodType>) : null;
  const keys = shape ? Object.keys(shape) : Object.keys(firstRecord ?? {});
  return keys.map((key) => {
    const naira = shape ? isNairaFigure(shape[key]) : false;
    return { key, header: naira ? `${key} (₦)` : key, naira };
  });
}

export function exportCells(record: Record<string, unknown>, columns: readonly Column[]): string[] {
  return columns.map(({ key, naira }) => (naira ? nairaCell(record[key] as number | null) : neutraliseCell(record[key])));
}

/** `withdrawals-2026-11-25.csv` from `/api/admin/withdrawals`. */
function fileName(request: FastifyRequest): string {
  const resource = (request.routeOptions.url ?? 'export').split('/').filter(Boolean).at(-1) ?? 'export';
  return `${resource.replace(/[^a-z0-9-]/gi, '_')}-${new Date().toISOString().slice(0, 10)}.csv`;
}

function listSchemas(routeOptions: { schema?: { response?: unknown } }): { list: z.ZodType; record: z.ZodType | undefined } | null {
  const ok = (routeOptions.schema?.response as Record<string, unknown> | undefined)?.[200];
  if (!(ok instanceof z.ZodArray)) return null;
  return { list: ok, record: ok.element as z.ZodType };
}

/**
 * Wraps every simple-rest list route registered after it (call before the routes). A request
 * without `Accept: text/csv` runs the route's handler untouched.
 */
export function registerListExports(app: FastifyInstance, db: Kysely<Database>): void {
  app.addHook('onRoute', (routeOptions) => {
    const methods = ([] as string[]).concat(routeOptions.method);
    if (!methods.includes('GET') || routeOptions.schema?.querystring !== simpleRestQuery) return;
    const schemas = listSchemas(routeOptions);
    if (!schemas) return;
    const handler = routeOptions.handler as RouteHandlerMethod;
    routeOptions.handler = function listOrExport(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (!wantsCsv(request)) return handler.call(this, request, reply);
      return streamExport({ db, request, reply, schemas, nextBatch: async () => (await handler.call(this, request, reply)) as unknown });
    } as RouteHandlerMethod;
  });
}

async function streamExport(options: {
  db: Kysely<Database>;
  request: FastifyRequest;
  reply: FastifyReply;
  schemas: { list: z.ZodType; record: z.ZodType | undefined };
  nextBatch: () => Promise<unknown>;
}): Promise<FastifyReply> {
  const { db, request, reply, schemas } = options;
  return new Promise<FastifyReply>((resolve, reject) => {
    let started = false;
    const csv = stringify({ bom: true, record_delimiter: 'windows' });
    db.transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql`set local idle_in_transaction_session_timeout = ${sql.lit(EXPORT_IDLE_TIMEOUT)}`.execute(trx);
        // The cursor is read to its end: plan for every row, not for the first tenth (the default).
        await sql`set local cursor_tuple_fraction = 1`.execute(trx);
        const batch: ListExportBatch = { trx, batchSize: EXPORT_BATCH_ROWS, offset: 0, cursorOpen: false, usedCursor: false };
        const readBatch = () =>
          listExportBatch.run(batch, async () => {
            batch.usedCursor = false;
            return schemas.list.parse(await options.nextBatch()) as Record<string, unknown>[];
          });
        // The first batch before any byte is sent: a bad filter or sort is still a 4xx answer.
        let records = await readBatch();
        const columns = exportColumns(schemas.record, records[0]);
        reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName(request)}"`).header('cache-control', 'no-store');
        started = true;
        resolve(reply.send(csv));
        await write(csv, columns.map((column) => column.header));
        for (;;) {
          for (const record of records) await write(csv, exportCells(record, columns));
          if (records.length < batch.batchSize || csv.destroyed) break;
          if (!batch.usedCursor) batch.offset += records.length;
          records = await readBatch();
        }
        if (batch.cursorOpen) await sql`close list_export`.execute(trx);
      })
      .then(() => csv.end())
      .catch((error: unknown) => {
        if (!started) return reject(error);
        // Headers are gone: the download ends short, and the operator sees why in the log.
        request.log.error({ err: error }, 'CSV export failed after it started');
        csv.destroy(error instanceof Error ? error : new Error(String(error)));
      });
  });
}

/** Writes one row, waiting while the client is behind (backpressure all the way to the cursor). */
async function write(csv: ReturnType<typeof stringify>, cells: string[]): Promise<void> {
  if (csv.destroyed) return;
  if (!csv.write(cells)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        csv.off('drain', done);
        csv.off('close', done);
        resolve();
      };
      csv.on('drain', done);
      csv.on('close', done);
    });
  }
}
