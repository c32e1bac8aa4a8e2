// CSV for "every table downloads as CSV" (UI.md "Office"). RFC 4180 quoting, CRLF line ends, and a guard
// against spreadsheet formula injection: a text cell starting with = + - @ (or a tab/CR) gets a leading
// apostrophe — but real numbers such as "-5" stay numbers.

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMERIC = /^-?\d+(\.\d+)?$/;

export function csvCell(value: CsvCell): string {
  if (value == null) return '';
  let s = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if (typeof value === 'string' && FORMULA_START.test(s) && !NUMERIC.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Saves text as a file through a temporary link (browser only). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // A BOM so spreadsheet programs read UTF-8 machine names correctly.
  const blob = new Blob(['\uFEFF', text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
