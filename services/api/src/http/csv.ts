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

/** The header a report CSV names its machines still being recomputed in (decision 1030). */
export const RECOMPUTING_HEADER = 'X-Takt-Recomputing';

/**
 * Answer a CSV download (`format=csv` and export links). A report's download passes its answer's `recomputing`
 * list: the machine ids go in RECOMPUTING_HEADER, comma-separated, empty when the figures are settled, and the
 * CSV body keeps its usual shape (decision 1030).
 */
export function csvResponse(
  c: Context,
  filename: string,
  body: string,
  recomputing?: ReadonlyArray<{ machineId: string }>,
) {
  c.header('content-type', 'text/csv; charset=utf-8');
  if (recomputing) c.header(RECOMPUTING_HEADER, recomputing.map((m) => m.machineId).join(','));
  c.header('content-disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`);
  return c.body(body);
}
