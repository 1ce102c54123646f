import { type RawBuilder, sql } from 'kysely';
import { type ListExportBatch, type SimpleRestQuery, listExportBatch, parseJson } from '../api/simple-rest';
import { isReasonableDate } from '../contracts/fields';
import { EVENT_LINKS_SHOWN, type EventActor, type EventDetail, type EventRecord, type EventSummary } from '../contracts/audit';
import type { Executor } from '../core/db';
import { NotFound, RuleViolation } from '../core/errors';

/**
 * The event log explorer's reads (docs/audit.md). A log of millions of events is paged by its
 * position (keyset: `id_lt` / `id_gt` from the last row shown), never counted: each page reads its
 * rows through an index chosen by its filter (migrations/2026_11_26_finance_00_event_log_explorer.ts).
 * `member_id` and `q` read the side table `event_search` (audit/projections.ts), kept by the worker
 * off the append path: they see an event once that projection has caught up.
 */

export type EventRow = {
  id: string | number;
  event_id: string;
  stream_id: string;
  stream_position: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
  hash: string;
  prev_hash: string;
};

export const eventColumns = sql`global_position as id, event_id, stream_id, stream_position, type, schema_version, data, metadata, recorded_at, hash, prev_hash`;
const summaryColumns = sql`global_position as id, event_id, stream_id, stream_position, type, recorded_at`;

export const toRecord = (row: EventRow): EventRecord => ({ ...row, id: Number(row.id), recorded_at: row.recorded_at.toISOString() });
const toSummary = (row: { id: string | number; event_id: string; stream_id: string; stream_position: number; type: string; recorded_at: Date }): EventSummary => ({
  id: Number(row.id),
  event_id: row.event_id,
  stream_id: row.stream_id,
  stream_position: row.stream_position,
  type: row.type,
  recorded_at: row.recorded_at.toISOString(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PAGE = 200;
const MAX_WORDS = 8;

function text(key: string, value: unknown, max = 200): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw new RuleViolation(`The filter ${key} must be text.`, 'filter');
  const s = String(value).trim();
  if (s.length > max) throw new RuleViolation(`The filter ${key} is too long.`, 'filter');
  return s;
}
function uuid(key: string, value: unknown): string {
  const s = text(key, value);
  if (!UUID.test(s)) throw new RuleViolation(`The filter ${key} must be an id like 8b0e2a52-…`, 'filter');
  return s.toLowerCase();
}
function position(key: string, value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new RuleViolation(`The filter ${key} must be a number.`, 'filter');
  return n;
}
function date(key: string, value: unknown): string {
  if (typeof value !== 'string' || !isReasonableDate(value)) throw new RuleViolation(`The filter ${key} must be a date.`, 'filter');
  return new Date(value).toISOString();
}

/**
 * Free text as a prefix search over the words of the stream, the type and every string and number
 * of the data: "bonus ada" finds a BonusCredited whose data names ada. Only letters and digits
 * reach to_tsquery, so no query syntax can be injected.
 */
export function wordsQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_WORDS) ?? [];
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(' & ');
}

/** Each filter the explorer offers, as SQL over an index of the migration above. */
const filters: Record<string, (value: unknown, key: string) => RawBuilder<boolean>> = {
  id: (value, key) => {
    const ids = (Array.isArray(value) ? value : [value]).map((v) => position(key, v));
    return ids.length === 0 ? sql<boolean>`false` : sql<boolean>`global_position in (${sql.join(ids)})`;
  },
  id_lt: (value, key) => sql<boolean>`global_position < ${position(key, value)}`,
  id_gt: (value, key) => sql<boolean>`global_position > ${position(key, value)}`,
  stream_id: (value, key) => sql<boolean>`stream_id = ${text(key, value)}`,
  type: (value, key) => {
    const types = (Array.isArray(value) ? value : [value]).map((v) => text(key, v));
    return types.length === 0 ? sql<boolean>`false` : sql<boolean>`type in (${sql.join(types)})`;
  },
  // Any event about the member: on their streams, naming them anywhere in its data, or done by them.
  member_id: (value, key) => sql<boolean>`global_position in (select s.global_position from event_search s where s.subjects @> array[${uuid(key, value)}]::uuid[])`,
  actor_id: (value, key) => sql<boolean>`metadata->'actor'->>'id' = ${text(key, value)}`,
  actor_type: (value, key) => sql<boolean>`metadata->'actor'->>'type' = ${text(key, value)}`,
  correlation_id: (value, key) => sql<boolean>`metadata->>'correlation_id' = ${text(key, value)}`,
  causation_id: (value, key) => sql<boolean>`metadata->>'causation_id' = ${uuid(key, value)}`,
  recorded_at_gte: (value, key) => sql<boolean>`recorded_at >= ${date(key, value)}`,
  recorded_at_lte: (value, key) => sql<boolean>`recorded_at <= ${date(key, value)}`,
  q: (value, key) => {
    const query = wordsQuery(text(key, value));
    if (!query) throw new RuleViolation('Type a word or a number to search for.', 'filter');
    return sql<boolean>`global_position in (select s.global_position from event_search s where s.words @@ to_tsquery('simple', ${query}))`;
  },
};

export type EventPage = { rows: EventRecord[]; offset: number; nextCursor: number | null };

/** One page of the log, newest first unless sorted ["id","ASC"] (a stream's timeline reads oldest first). */
export async function listEvents(db: Executor, query: SimpleRestQuery): Promise<EventPage> {
  const sort = parseJson(query.sort, 'sort') ?? ['id', 'DESC'];
  if (!Array.isArray(sort) || !['id', 'global_position'].includes(String(sort[0])) || !['ASC', 'DESC'].includes(String(sort[1]).toUpperCase())) {
    throw new RuleViolation('The event log is sorted by its order only: ["id","DESC"] or ["id","ASC"].', 'sort');
  }
  const ascending = String(sort[1]).toUpperCase() === 'ASC';
  const range = parseJson(query.range, 'range') ?? [0, 24];
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n) && n >= 0 && n <= 1_000_000) || range[1] < range[0]) {
    throw new RuleViolation('The range parameter must look like [0,24].', 'range');
  }
  const [offset, end] = range as [number, number];
  const limit = Math.min(end - offset + 1, MAX_PAGE);
  const filter = parseJson(query.filter, 'filter') ?? {};
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new RuleViolation('The filter parameter must be a JSON object.', 'filter');
  const conditions: RawBuilder<boolean>[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    const condition = filters[key];
    if (!condition) throw new RuleViolation(`Cannot filter the event log by ${key}.`, 'filter');
    conditions.push(condition(value, key));
  }
  const exporting = listExportBatch.getStore();
  if (exporting) return exportBatch(exporting, conditions, ascending);
  const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
  // One row more than the page says whether there is a next page, without counting the log.
  const { rows } = await sql<EventRow>`
    select ${eventColumns} from events where ${where}
    order by global_position ${ascending ? sql`asc` : sql`desc`} limit ${limit + 1} offset ${offset}`.execute(db);
  const page = rows.slice(0, limit).map(toRecord);
  return { rows: page, offset, nextCursor: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** Where each running CSV export of the log stands: the last position it wrote. */
const exportKeysets = new WeakMap<ListExportBatch, number>();

/**
 * One batch of a CSV export of the log (api/list-export.ts calls the route once per batch, in its
 * read-only snapshot): the next rows after the last one written, by the keyset the list pages with
 * (global_position, as the list's id_lt / id_gt cursor), so each batch is an index range scan
 * however deep into the log the export is, never an OFFSET that re-reads what was written.
 */
async function exportBatch(exporting: ListExportBatch, conditions: RawBuilder<boolean>[], ascending: boolean): Promise<EventPage> {
  exporting.usedCursor = true;
  const last = exportKeysets.get(exporting);
  const after = last === undefined ? [] : [ascending ? sql<boolean>`global_position > ${last}` : sql<boolean>`global_position < ${last}`];
  const all = [...conditions, ...after];
  const where = all.length > 0 ? sql.join(all, sql` and `) : sql`true`;
  const { rows } = await sql<EventRow>`
    select ${eventColumns} from events where ${where}
    order by global_position ${ascending ? sql`asc` : sql`desc`} limit ${exporting.batchSize}`.execute(exporting.trx);
  const page = rows.map(toRecord);
  if (page.length > 0) exportKeysets.set(exporting, page[page.length - 1]!.id);
  return { rows: page, offset: 0, nextCursor: null };
}

/** Who an actor was, by name where the log names a person (a member's username, an admin's name and e-mail). */
export async function actorOf(db: Executor, metadata: unknown): Promise<EventActor | null> {
  const actor = (metadata as { actor?: { type?: string; id?: string } } | null)?.actor;
  if (!actor?.type) return null;
  const id = actor.id ?? null;
  let name: string | null = null;
  if (id && UUID.test(id) && actor.type === 'admin') {
    const admin = await db.selectFrom('admins').select(['name', 'email']).where('id', '=', id).executeTakeFirst();
    name = admin ? `${admin.name} (${admin.email})` : null;
  } else if (id && UUID.test(id) && actor.type === 'member') {
    name = (await db.selectFrom('members').select('username').where('id', '=', id).executeTakeFirst())?.username ?? null;
  }
  return { type: actor.type, id, name };
}

export async function eventAt(db: Executor, id: number): Promise<EventRow> {
  const { rows } = await sql<EventRow>`select ${eventColumns} from events where global_position = ${id}`.execute(db);
  if (!rows[0]) throw new NotFound('Event not found.');
  return rows[0];
}

export async function eventById(db: Executor, eventId: string): Promise<EventRow | null> {
  if (!UUID.test(eventId)) return null;
  const { rows } = await sql<EventRow>`select ${eventColumns} from events where event_id = ${eventId}::uuid`.execute(db);
  return rows[0] ?? null;
}

/** An event with its cause, its effects and the other events of its request (correlation id). */
export async function eventDetail(db: Executor, id: number): Promise<EventDetail> {
  const row = await eventAt(db, id);
  const metadata = (row.metadata ?? {}) as { causation_id?: string | null; correlation_id?: string | null };
  const cause = metadata.causation_id ? await eventById(db, metadata.causation_id) : null;
  const { rows: effects } = await sql<EventRow>`
    select ${summaryColumns} from events where metadata->>'causation_id' = ${row.event_id}
    order by global_position limit ${EVENT_LINKS_SHOWN + 1}`.execute(db);
  const correlated = metadata.correlation_id
    ? (
        await sql<EventRow>`
          select ${summaryColumns} from events where metadata->>'correlation_id' = ${metadata.correlation_id} and global_position <> ${row.id}
          order by global_position limit ${EVENT_LINKS_SHOWN + 1}`.execute(db)
      ).rows
    : [];
  return {
    ...toRecord(row),
    actor: await actorOf(db, row.metadata),
    cause: cause ? toSummary(cause) : null,
    effects: effects.slice(0, EVENT_LINKS_SHOWN).map(toSummary),
    effects_more: effects.length > EVENT_LINKS_SHOWN,
    correlated: correlated.slice(0, EVENT_LINKS_SHOWN).map(toSummary),
    correlated_more: correlated.length > EVENT_LINKS_SHOWN,
  };
}

export { toSummary };
