/**
 * CSV for the back office's exports, safe to open in a spreadsheet (OWASP "CSV Injection"): a
 * text cell that starts with = + - @, a tab or a carriage return is a formula to Excel, LibreOffice
 * and Google Sheets (`=HYPERLINK(...)` in a member's name would run in the admin's spreadsheet), so
 * it is written with a leading apostrophe, which the spreadsheet shows as text. Numbers stay numbers
 * (a negative amount is a number, not text). Every cell is quoted; quotes are doubled.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;

/** Rows of plain objects as CSV: one column per key seen (first-seen order), a header line first. */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns?: readonly string[]): string {
  const keys = columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const lines = [keys.map((key) => quote(neutraliseCell(key))).join(',')];
  for (const row of rows) lines.push(keys.map((key) => quote(neutraliseCell(row[key]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
