import { downloadCSV, type Exporter, type SortPayload } from 'react-admin';
import { toCsv } from '@portal/services/contracts/csv';
import { getToken } from '../api/token';

/**
 * The exporter of every back-office list (docs/exports.md): asks the list's own resource for CSV
 * (`Accept: text/csv`) with the list's current filter and sort, and the server streams ALL the
 * matching rows (not only the loaded page), naira as plain two-decimal numbers under "(₦)" headers,
 * formula-looking text neutralised (services/src/api/list-export.ts). The file is saved under the
 * server's name for it.
 */
export async function downloadListCsv(list: { resource: string; filter: Record<string, unknown>; sort: SortPayload }): Promise<void> {
  const params = new URLSearchParams({ sort: JSON.stringify([list.sort.field, list.sort.order]), filter: JSON.stringify(list.filter) });
  const headers = new Headers({ Accept: 'text/csv' });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(`/api/admin/${list.resource}?${params}`, { headers });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The export failed (${response.status}).`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${list.resource}.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download by now; free it on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * For records already in the browser (a panel's own rows): react-admin's default exporter writes
 * members' own text (names, reasons, narrations) as it is, so "=HYPERLINK(...)" would run in the
 * admin's spreadsheet. This one writes such cells as text (contracts/csv.ts). Nested values as JSON.
 */
export const safeExporter: Exporter = (records, _fetchRelatedRecords, _dataProvider, resource) => {
  downloadCSV(toCsv(records as Record<string, unknown>[]), resource ?? 'export');
};
