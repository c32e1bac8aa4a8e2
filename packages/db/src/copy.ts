import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

// PostgreSQL's COPY … FROM STDIN, the fastest way to load rows (bench/ingest-insert.ts measures it), run as an
// ordinary statement through Kysely. Kysely's PostgreSQL connection hands every statement to the pool client's
// query(text, values); the pool of openDb makes its clients from CopyClient, which runs a `copy … from stdin`
// text with the rows as its one parameter, already in COPY's text format (copyField, copyLine). So a COPY
// joins the transaction it is run in like any INSERT: it commits or rolls back with the rest of the batch.

const COPY_FROM_STDIN = /^copy\s[^;]*\sfrom\s+stdin$/i;

/** A pg client that also runs `copy … from stdin` statements, whose one parameter is the data to load. */
export class CopyClient extends pg.Client {
  // pg's query() has a dozen overloads; this wraps them all and keeps the ones it does not handle as they were.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length === 1 &&
      COPY_FROM_STDIN.test(text)
    )
      return this.copyIn(text, String(values[0])) as never;
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private async copyIn(text: string, data: string): Promise<pg.QueryResult> {
    const stream = (super.query as (q: unknown) => ReturnType<typeof copyFrom>)(copyFrom(text));
    stream.end(data);
    await finished(stream);
    return { command: 'COPY', rowCount: stream.rowCount, rows: [], oid: 0, fields: [] };
  }
}

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field in COPY's text format: backslash, tab and line breaks escaped, null as \N. */
export function copyField(v: string | number | null | undefined): string {
  if (v == null) return '\\N';
  if (typeof v === 'number') return String(v);
  return SPECIAL.test(v) ? v.replace(SPECIALS, (c) => ESCAPES[c]!) : v;
}

/** `copy "table" ("a", "b") from stdin`. */
export const copyStatement = (table: string, columns: readonly string[]) =>
  `copy "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) from stdin`;
