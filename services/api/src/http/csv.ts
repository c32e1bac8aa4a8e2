import type { Context } from 'hono';

// CSV as the report downloads write it: RFC 4180 quoting, CRLF line ends, a header row first.

export type CsvValue = string | number | null | undefined;

export const csvCell = (v: CsvValue) => {
  const s = v == null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV line, CRLF included. */
export const csvLine = (cells: readonly CsvValue[]) => cells.map(csvCell).join(',') + '\r\n';

/** A whole CSV document: the header row, then the rows. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return csvLine(header) + rows.map(csvLine).join('');
}

/** Answer a CSV download (`format=csv` and export links). */
export function csvResponse(c: Context, filename: string, body: string) {
  c.header('content-type', 'text/csv; charset=utf-8');
  c.header('content-disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`);
  return c.body(body);
}
