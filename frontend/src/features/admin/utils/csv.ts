/** One column of an exported table: its header and how a row fills it. */
export interface CsvColumn<TRow> {
  header: string;
  value: (row: TRow) => string | number | null;
}

/**
 * Spreadsheet programs run a cell that starts with one of these as a formula (CSV injection);
 * tab and carriage return are on OWASP's list too, as some programs strip them first.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell with one of these must be quoted (RFC 4180), and so must surrounding spaces that would be trimmed. */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * One cell as CSV text. Text that a spreadsheet would run as a formula is prefixed with a
 * single quote, so it shows as written; numbers are written as they are (−5 is a number, not a
 * formula). Cells with quotes, commas or line breaks are quoted, quotes doubled.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** The rows as CSV (RFC 4180: a header line, CRLF between lines). */
export function buildCsv<TRow>(columns: readonly CsvColumn<TRow>[], rows: readonly TRow[]): string {
  const lines = [columns.map((column) => csvCell(column.header))];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))));
  return lines.map((cells) => cells.join(',')).join('\r\n') + '\r\n';
}

/** A CSV file Excel opens as UTF-8 too (the byte order mark tells it). */
export function csvBlob(csv: string): Blob {
  return new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
}
