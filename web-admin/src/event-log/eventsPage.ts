import type { GetListParams, GetListResult } from 'react-admin';
import { httpClient } from '../api/client';

/**
 * The event log's pages (docs/audit.md): the server never counts the log, it answers a page and
 * the position to continue from (`X-Next-Cursor`). react-admin's pages 1, 2, 3… become keyset
 * cursors remembered per filter and sort, so page 40 of 10 million events costs what page 1 does.
 * A page reached without its cursor (a pasted link) falls back to an offset.
 */
const cursors = new Map<string, Map<number, number>>();

export async function getEventsPage(params: GetListParams): Promise<GetListResult> {
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const ascending = params.sort?.order === 'ASC';
  const filter: Record<string, unknown> = { ...params.filter };
  const key = JSON.stringify([filter, ascending, perPage]);
  const known = cursors.get(key) ?? new Map<number, number>();
  cursors.set(key, known);
  const cursor = page > 1 ? known.get(page) : undefined;
  let range = [0, perPage - 1];
  if (cursor !== undefined) filter[ascending ? 'id_gt' : 'id_lt'] = cursor;
  else if (page > 1) range = [(page - 1) * perPage, page * perPage - 1];
  const query = new URLSearchParams({ filter: JSON.stringify(filter), sort: JSON.stringify(['id', ascending ? 'ASC' : 'DESC']), range: JSON.stringify(range) });
  const { json, headers } = await httpClient(`/api/admin/events?${query}`, { signal: params.signal });
  const next = headers.get('X-Next-Cursor');
  if (next) known.set(page + 1, Number(next));
  return { data: json, pageInfo: { hasNextPage: next !== null, hasPreviousPage: page > 1 } };
}
