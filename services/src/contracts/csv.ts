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

/**
 * A naira figure as a spreadsheet reads it: a plain number with exactly two decimals, no currency
 * sign and no thousands separator ("1500.50", "-12.05"). Rounded to the kobo from the answer's
 * naira (kobo / 100), which is exact for every amount the portal holds.
 */
export function nairaCell(naira: number | null | undefined): string {
  if (naira === null || naira === undefined || !Number.isFinite(naira)) return '';
  const kobo = Math.round(naira * 100);
  const whole = Math.trunc(Math.abs(kobo) / 100);
  const fraction = String(Math.abs(kobo) % 100).padStart(2, '0');
  return `${kobo < 0 ? '-' : ''}${whole}.${fraction}`;
}
