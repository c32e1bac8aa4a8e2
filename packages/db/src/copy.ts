import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

// PostgreSQL's COPY … FROM STDIN, the fastest way to load rows (bench/ingest-insert.ts measures it), run as an
// ordinary statement through Kysely. Kysely's PostgreSQL connection hands every statement to the pool client's
// query(text, values); the pool of openDb makes its clients from CopyClient, which runs a `copy … from stdin`
// text with the rows as its one parameter, already in COPY's text format (copyField, copyLine). So a COPY
// joins the transaction it is run in like any INSERT: it commits or rolls back with the rest of the batch.

const COPY_FROM_STDIN = /^copy\s[^;]*\sfrom\s+stdin$/i;
/**
 * Decision 1240: `copy (select …) to stdout with (format binary)`, run without parameters (COPY takes none), gives its
 * rows as arrays of their fields' bytes (binaryCopyRows): a bytea comes as stored, where a select sends it as text
 * the server encodes (hex or base64) and the client decodes (node-postgres cannot take binary results).
 */
const COPY_TO_BINARY = /^copy\s+\(.*\)\s+to\s+stdout\s+with\s+\(format binary\)$/is;

/**
 * Decision 1244: a connection prepares, by name, the parameterized statements it runs a second time, so PostgreSQL
 * parses and analyzes each text once a connection instead of on every call. At most PREPARED_MAX names a
 * connection, and only texts of at most PREPARED_TEXT_MAX characters (a many-row INSERT is parsed in a small share of
 * its own work, and its parse tree is the largest a backend would keep). Texts are counted in a set of at most
 * SEEN_CHARS characters, emptied when full, so one-off texts (a list's length in the text) never hold a name and
 * neither side's memory grows with the texts a connection has run.
 */
const PREPARED_MAX = 256;
const PREPARED_TEXT_MAX = 8_192;
const SEEN_CHARS = 1 << 20;
let preparing = process.env.TAKT_PG_PREPARED !== '0';
/** Benchmarks: prepare repeated statements (the default) or not, from the next statement on. */
export function usePreparedStatements(on: boolean): void {
  preparing = on;
}

/** A pg client that also runs `copy … from stdin` statements, whose one parameter is the data to load. */
export class CopyClient extends pg.Client {
  private readonly prepared = new Map<string, string>();
  private readonly seen = new Set<string>();
  private seenChars = 0;

  /** The name `text` is prepared under on this connection, if it is one to prepare (decision 1244). */
  private nameFor(text: string): string | undefined {
    if (!preparing || text.length > PREPARED_TEXT_MAX) return undefined;
    const name = this.prepared.get(text);
    if (name !== undefined || this.prepared.size >= PREPARED_MAX) return name;
    if (!this.seen.has(text)) {
      if (this.seenChars + text.length > SEEN_CHARS) {
        this.seen.clear();
        this.seenChars = 0;
      }
      this.seen.add(text);
      this.seenChars += text.length;
      return undefined;
    }
    this.seen.delete(text);
    this.seenChars -= text.length;
    const next = `takt_${this.prepared.size}`;
    this.prepared.set(text, next);
    return next;
  }

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
    if (
      typeof text === 'string' &&
      (values === undefined || (Array.isArray(values) && values.length === 0)) &&
      COPY_TO_BINARY.test(text)
    )
      return this.copyOut(text) as never;
    // A statement with parameters goes by the extended protocol anyway: one statement, so it can be prepared.
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && args.length === 2) {
      const name = this.nameFor(text);
      if (name !== undefined) return (super.query as (q: unknown) => never)({ name, text, values });
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private async copyOut(text: string): Promise<pg.QueryResult> {
    const stream = (super.query as (q: unknown) => ReturnType<typeof copyTo>)(copyTo(text));
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const rows = binaryCopyRows(Buffer.concat(chunks));
    return { command: 'COPY', rowCount: rows.length, rows, oid: 0, fields: [] };
  }

  private async copyIn(text: string, data: string): Promise<pg.QueryResult> {
    const stream = (super.query as (q: unknown) => ReturnType<typeof copyFrom>)(copyFrom(text));
    stream.end(data);
    await finished(stream);
    return { command: 'COPY', rowCount: stream.rowCount, rows: [], oid: 0, fields: [] };
  }
}

/** COPY's binary format: its signature, then flags and a header extension (two 32-bit words, the extension's bytes). */
const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The tuples of COPY's binary format (PostgreSQL's "Binary Format" of COPY): each an array of its fields' bytes (views
 * of `data`; null for NULL). Throws on anything else.
 */
export function binaryCopyRows(data: Buffer): Array<Array<Buffer | null>> {
  if (data.length < 21 || !data.subarray(0, 11).equals(BINARY_SIGNATURE))
    throw new Error('COPY binary: no signature');
  let at = 15;
  at += 4 + data.readUInt32BE(at);
  const rows: Array<Array<Buffer | null>> = [];
  for (;;) {
    const n = data.readInt16BE(at);
    at += 2;
    if (n === -1) return rows;
    const row: Array<Buffer | null> = [];
    for (let i = 0; i < n; i++) {
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) row.push(null);
      else {
        if (at + length > data.length) throw new Error('COPY binary: a field past the end');
        row.push(data.subarray(at, at + length));
        at += length;
      }
    }
    rows.push(row);
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
