import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyReply } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../core/db';
import { z } from 'zod';
import { asNumber, isReasonableDate, MAX_INT4 } from '../contracts/fields';
import { RuleViolation } from '../core/errors';
import { findUnstorableText, jsonDepth } from './input-guard';

/**
 * The back office's list protocol, ra-data-simple-rest (API.md §2, STYLE.md "The ra-data-simple-rest
 * contract"): `sort=["field","ASC"]`, `range=[0,24]`, `filter={...}` as JSON strings; the answer is
 * a bare array with `Content-Range: <resource> <start>-<end>/<total>`. Filters follow the FakeRest
 * dialect: `key` equals (an array means "one of"), `key_gte`, `key_lte`, `key_gt`, `key_lt`,
 * `key_neq`, and `q` for the resource's own search.
 */

const MAX_PARAMETER_LENGTH = 10_000;
export const simpleRestQuery = z.object({ sort: z.string().max(MAX_PARAMETER_LENGTH).optional(), range: z.string().max(MAX_PARAMETER_LENGTH).optional(), filter: z.string().max(MAX_PARAMETER_LENGTH).optional() });
export type SimpleRestQuery = z.infer<typeof simpleRestQuery>;

/**
 * A resource's columns by the field names the back office uses: SQL expressions (never raw input)
 * and the kind of value they hold, so a malformed filter value is a 422, not a database error.
 */
export type ResourceColumn = { sql: RawBuilder<unknown>; type: 'number' | 'text' | 'timestamp' };
export type ResourceColumns = Record<string, ResourceColumn>;

/** `descending`: the sort's direction, for a tiebreak that follows it (selectPage). */
export type ListRequest = { orderBy: RawBuilder<unknown>; offset: number; limit: number; where: RawBuilder<boolean>; descending?: boolean };

/**
 * A CSV export in progress (api/list-export.ts): the list's handler runs once per batch inside it.
 * `selectPage` then reads the next batch from one cursor over the whole query in the export's
 * transaction; a handler with its own query pages by `offset` (parseListRequest hands it out).
 */
export type ListExportBatch = {
  trx: Executor;
  batchSize: number;
  /** Rows handed out so far, for handlers that page by offset. */
  offset: number;
  cursorOpen: boolean;
  /** Whether the handler's last run read from the cursor (else it paged by offset). */
  usedCursor: boolean;
};
export const listExportBatch = new AsyncLocalStorage<ListExportBatch>();
const EXPORT_CURSOR = 'list_export';

const operators = { _gte: '>=', _lte: '<=', _gt: '>', _lt: '<', _neq: '<>' } as const;
const MAX_PAGE = 500;
/** Offsets beyond this are not a page anyone can reach (and PostgreSQL's OFFSET is a bigint). */
const MAX_OFFSET = MAX_INT4;

export function parseJson(value: string | undefined, name: string): unknown {
  if (value === undefined || value === '') return undefined;
  if (value.length > MAX_PARAMETER_LENGTH) throw new RuleViolation(`The ${name} parameter is too long.`, name);
  if (jsonDepth(value) > 4) throw new RuleViolation(`The ${name} parameter nests too deeply.`, name);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new RuleViolation(`The ${name} parameter is not valid JSON.`, name);
  }
  if (findUnstorableText(parsed)) throw new RuleViolation(`The ${name} parameter contains characters that are not allowed.`, name);
  return parsed;
}

/**
 * Turns the three parameters into SQL pieces for one resource. Unknown sort fields or filters are
 * refused (422) rather than ignored, so a typo in the back office shows at once.
 */
export function parseListRequest(
  query: SimpleRestQuery,
  resource: { columns: ResourceColumns; defaultSort: [string, 'ASC' | 'DESC']; search?: (q: string) => RawBuilder<boolean> },
): ListRequest {
  const sort = parseJson(query.sort, 'sort') ?? resource.defaultSort;
  if (!Array.isArray(sort) || typeof sort[0] !== 'string' || !['ASC', 'DESC'].includes(String(sort[1]).toUpperCase())) {
    throw new RuleViolation('The sort parameter must look like ["field","ASC"].', 'sort');
  }
  const sortColumn = resource.columns[sort[0]];
  if (!sortColumn) throw new RuleViolation(`Cannot sort by ${sort[0]}.`, 'sort');
  const direction = String(sort[1]).toUpperCase() === 'DESC' ? sql`desc` : sql`asc`;

  // ra-data-simple-rest always sends a range for getList; only getMany (`filter={"id":[...]}`)
  // sends none, and it wants every record it names, not a first page.
  const range = parseJson(query.range, 'range') ?? [0, MAX_PAGE - 1];
  if (!Array.isArray(range) || !range.every((n) => Number.isInteger(n) && n >= 0 && n <= MAX_OFFSET) || range.length !== 2 || range[1] < range[0]) {
    throw new RuleViolation('The range parameter must look like [0,24].', 'range');
  }
  const exporting = listExportBatch.getStore();
  const [start, end] = exporting ? [exporting.offset, exporting.offset + exporting.batchSize - 1] : (range as [number, number]);
  const limit = Math.min(end - start + 1, MAX_PAGE);

  const filter = parseJson(query.filter, 'filter') ?? {};
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new RuleViolation('The filter parameter must be a JSON object.', 'filter');
  const conditions: RawBuilder<boolean>[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'q' && resource.search) {
      conditions.push(resource.search(String(value)));
      continue;
    }
    const suffix = (Object.keys(operators) as Array<keyof typeof operators>).find((op) => key.endsWith(op) && resource.columns[key.slice(0, -op.length)]);
    const column = resource.columns[suffix ? key.slice(0, -suffix.length) : key];
    if (!column) throw new RuleViolation(`Cannot filter by ${key}.`, 'filter');
    const values = (Array.isArray(value) ? value : [value]).map((v) => filterValue(column, key, v));
    if (suffix) conditions.push(sql<boolean>`${column.sql} ${sql.raw(operators[suffix])} ${values[0]}`);
    else if (Array.isArray(value)) conditions.push(values.length === 0 ? sql<boolean>`false` : sql<boolean>`${column.sql} in (${sql.join(values)})`);
    else conditions.push(sql<boolean>`${column.sql} = ${values[0]}`);
  }
  const where = conditions.length > 0 ? sql<boolean>`${sql.join(conditions, sql` and `)}` : sql<boolean>`true`;
  return { orderBy: sql`${sortColumn.sql} ${direction}`, offset: start, limit, where, descending: String(sort[1]).toUpperCase() === 'DESC' };
}

function filterValue(column: ResourceColumn, key: string, value: unknown): string | number {
  if (column.type === 'number') {
    const n = asNumber(value);
    if (typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) return n;
  }
  if (column.type === 'timestamp' && typeof value === 'string' && isReasonableDate(value)) return new Date(value).toISOString();
  if (column.type === 'text' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) return String(value);
  throw new RuleViolation(`The filter ${key} must be ${column.type === 'number' ? 'a number' : column.type === 'timestamp' ? 'a date' : 'text'}.`, 'filter');
}

/**
 * One page of a resource and how many records its filter matches in all: `select <columns> <from>
 * where <fixed> and <filter> order by <sort>, <tiebreak>`, then the count over the same rows.
 * `from` is the whole FROM clause with its joins; `tiebreak` keeps the order stable across pages.
 */
export async function selectPage<Row>(
  db: Executor,
  page: {
    columns: RawBuilder<unknown>;
    from: RawBuilder<unknown>;
    fixed?: RawBuilder<boolean>;
    /**
     * A function of the sort's direction when ties go the same way as the sort: an index on
     * (sort key, id) then serves both directions, read backward for a descending sort, where a
     * fixed ascending id costs an incremental sort over every run of equal keys.
     */
    tiebreak: RawBuilder<unknown> | ((direction: RawBuilder<unknown>) => RawBuilder<unknown>);
    list: ListRequest;
    /** The FROM clause the count needs, when `from` joins what only the page's columns read (default: `from`). */
    countFrom?: RawBuilder<unknown>;
    /**
     * Count exactly up to this many rows; past it the total is PostgreSQL's estimate (at least the
     * cap + 1); an estimate past five times the cap is answered without counting. For lists too long
     * to count at every page (members at 1,000,000: docs/decisions.md 47 and 58).
     */
    countCap?: number;
  },
): Promise<{ rows: Row[]; total: number }> {
  const { columns, from, list } = page;
  const tiebreak = typeof page.tiebreak === 'function' ? page.tiebreak(list.descending ? sql`desc` : sql`asc`) : page.tiebreak;
  const where = page.fixed ? sql<boolean>`${page.fixed} and ${list.where}` : list.where;
  const exporting = listExportBatch.getStore();
  if (exporting) {
    // Every matching row, in the list's order, a batch per call: one query, never re-run per page.
    if (!exporting.cursorOpen) {
      await sql`declare ${sql.raw(EXPORT_CURSOR)} no scroll cursor for select ${columns} ${from} where ${where} order by ${list.orderBy}, ${tiebreak}`.execute(exporting.trx);
      exporting.cursorOpen = true;
    }
    exporting.usedCursor = true;
    const { rows } = await sql<Row>`fetch forward ${sql.raw(String(exporting.batchSize))} from ${sql.raw(EXPORT_CURSOR)}`.execute(exporting.trx);
    return { rows, total: 0 };
  }
  const { rows } = await sql<Row>`select ${columns} ${from} where ${where} order by ${list.orderBy}, ${tiebreak} limit ${list.limit} offset ${list.offset}`.execute(db);
  return { rows, total: await listTotal(db, { countFrom: page.countFrom ?? from, where, list, countCap: page.countCap, pageLength: rows.length }) };
}

/**
 * How many rows a list's filter matches, once its page (`pageLength` rows) is read: counted, or
 * with `countCap` counted up to the cap and estimated past it (selectPage). For a resource that
 * builds its page statement itself (the members list sorted by package).
 */
export async function listTotal(
  db: Executor,
  page: { countFrom: RawBuilder<unknown>; where: RawBuilder<boolean>; list: ListRequest; countCap?: number; pageLength: number },
): Promise<number> {
  const { countFrom, where, list, countCap, pageLength } = page;
  if (countCap === undefined) {
    const { rows: counted } = await sql<{ total: number }>`select count(*)::int as total ${countFrom} where ${where}`.execute(db);
    return counted[0]?.total ?? 0;
  }
  // A short page ends the list: its total is known without counting.
  if (pageLength < list.limit && (pageLength > 0 || list.offset === 0)) return list.offset + pageLength;
  // Far past the cap the count would only confirm that the total is the estimate: skip it.
  const estimate = await estimatedRows(db, sql`select 1 ${countFrom} where ${where}`);
  if (estimate > countCap * ESTIMATE_BEYOND_DOUBT) return estimate;
  const { rows: counted } = await sql<{ total: number }>`select count(*)::int as total from (select 1 ${countFrom} where ${where} limit ${countCap + 1}) capped`.execute(db);
  const exact = counted[0]?.total ?? 0;
  if (exact <= countCap) return exact;
  return Math.max(countCap + 1, estimate);
}

/**
 * How far past the count cap the planner's estimate must be for the list to answer it without
 * counting. The capped count only decides between "exactly n" and "the estimate"; an estimate
 * five times the cap is not that wrong for a filter on the list's own columns (a common word's
 * count was the whole cost of its page: ~60 ms at 1,000,000 members, docs/decisions.md 58).
 */
export const ESTIMATE_BEYOND_DOUBT = 5;

/** The planner's estimate of the rows a query returns (EXPLAIN, not run): a list's total past its count cap. */
export async function estimatedRows(db: Executor, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`explain (format json) ${query}`.execute(db);
  return Math.round(rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

/** Sets `Content-Range` (ra-data-simple-rest reads the total after the slash) and answers the rows. */
export function sendList<T>(reply: FastifyReply, resourceName: string, list: ListRequest, rows: T[], total: number): T[] {
  if (listExportBatch.getStore()) return rows;
  const range = rows.length === 0 ? '*' : `${list.offset}-${list.offset + rows.length - 1}`;
  reply.header('Content-Range', `${resourceName} ${range}/${total}`);
  return rows;
}
