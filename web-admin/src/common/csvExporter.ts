import { downloadCSV, type Exporter } from 'react-admin';
import { toCsv } from '@portal/services/contracts/csv';

/**
 * The exporter of every list with an Export button: react-admin's default writes members' own text
 * (names, reasons, narrations) as it is, so "=HYPERLINK(...)" would run in the admin's spreadsheet.
 * This one writes such cells as text (contracts/csv.ts). Nested values are written as JSON.
 */
export const safeExporter: Exporter = (records, _fetchRelatedRecords, _dataProvider, resource) => {
  downloadCSV(toCsv(records as Record<string, unknown>[]), resource ?? 'export');
};
