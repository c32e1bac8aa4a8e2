import { CompiledQuery } from 'kysely';
import type { Executor } from './scope';

// The hot writes of ingest (bench/ingest-insert.ts measures them). Every batch runs the same few statement
// texts, so they are written here once per shape (and the SQLite handle keeps them prepared, see openDb's
// statement cache) instead of going through the query builder, which rebuilds and walks each query's tree
// every time.

/**
 * Most parameters in one statement, far below both dialects' bind limits. SQLite runs a prepared statement of
 * about a hundred rows fastest (measured: 100-row statements beat 1000-row ones and single rows); PostgreSQL
 * pays a round trip per statement, so it takes the largest.
 */
const maxParams = (numbered: boolean) => (numbered ? 5000 : 500);

/** Whether the dialect numbers its placeholders ($1: PostgreSQL) or not (?: SQLite), per dialect adapter. */
const numberedByAdapter = new WeakMap<object, boolean>();
export function numberedPlaceholders(trx: Executor): boolean {
  const adapter = trx.getExecutor().adapter;
  let numbered = numberedByAdapter.get(adapter);
  if (numbered === undefined) {
    numbered = trx.selectFrom('observations').select('ts').where('ts', '=', 0).compile().sql.includes('$1');
    numberedByAdapter.set(adapter, numbered);
  }
  return numbered;
}

const statementTexts = new Map<string, string>();

/** `INSERT INTO table (columns) VALUES (…), (…) [tail]` for `rows` rows; made once per shape. */
export function insertText(
  numbered: boolean,
  table: string,
  columns: readonly string[],
  rows: number,
  tail: string,
): string {
  const key = `${numbered ? '$' : '?'} ${table} ${rows} ${tail}`;
  let text = statementTexts.get(key);
  if (text !== undefined) return text;
  const tuples: string[] = [];
  const width = columns.length;
  for (let r = 0; r < rows; r++) {
    const p: string[] = [];
    for (let c = 1; c <= width; c++) p.push(numbered ? `$${r * width + c}` : '?');
    tuples.push(`(${p.join(', ')})`);
  }
  text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}${tail ? ` ${tail}` : ''}`;
  statementTexts.set(key, text);
  return text;
}

/** A statement text with `?` placeholders, numbered for PostgreSQL; made once per text. */
function sqlText(numbered: boolean, text: string): string {
  if (!numbered) return text;
  const key = `$ ${text}`;
  let out = statementTexts.get(key);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    statementTexts.set(key, out);
  }
  return out;
}

/**
 * Row counts of the INSERTs for n rows of `width` columns. PostgreSQL: full chunks, then the rest in one
 * (it parses every statement anyway). SQLite: full chunks, then the rest in powers of two, so any batch
 * uses the same dozen statements, each prepared once.
 */
export function insertSizes(n: number, width: number, numbered: boolean): number[] {
  const chunk = Math.floor(maxParams(numbered) / width);
  const sizes: number[] = [];
  let left = n;
  for (; left >= chunk; left -= chunk) sizes.push(chunk);
  if (numbered) return left > 0 ? [...sizes, left] : sizes;
  for (let p = 1 << Math.floor(Math.log2(chunk)); p >= 1; p >>= 1) {
    if (left < p) continue;
    sizes.push(p);
    left -= p;
  }
  return sizes;
}

/**
 * `INSERT INTO table (columns) SELECT * FROM unnest($1::type[], …) [tail]`: all the rows in one statement of one
 * array a column (decision 1165). Made once per shape.
 */
export function unnestInsertText(
  table: string,
  columns: readonly string[],
  types: readonly string[],
  tail: string,
): string {
  const key = `unnest ${table} ${columns.join(',')} ${types.join(',')} ${tail}`;
  let text = statementTexts.get(key);
  if (text !== undefined) return text;
  const arrays = types.map((t, c) => `$${c + 1}::${t}[]`).join(', ');
  text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) select * from unnest(${arrays})${tail ? ` ${tail}` : ''}`;
  statementTexts.set(key, text);
  return text;
}

const ARRAY_SPECIAL = /["\\]/;
const ARRAY_SPECIALS = /["\\]/g;

/**
 * An array parameter in PostgreSQL's text form, as the pg driver would send it (`{"a",NULL,1}`): strings quoted with
 * their backslashes and double quotes escaped, null and undefined NULL, numbers as JavaScript writes them. Encoded when
 * a batch's statements are built, before its transaction begins, the driver passes the string on and does no work per
 * element inside it (decision 1177). Elements of other types (dates, buffers, objects) are left to the driver.
 */
export function pgArray(values: readonly unknown[]): string | readonly unknown[] {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v == null) out += 'NULL';
    else if (typeof v === 'string')
      out += ARRAY_SPECIAL.test(v) ? `"${v.replace(ARRAY_SPECIALS, '\\$&')}"` : `"${v}"`;
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') out += String(v);
    else return values;
  }
  return `${out}}`;
}

/**
 * The statements of a multi-row insert of `rows`; `put` writes one row's values into the parameter list at `at`.
 * `tail` follows the values (an `on conflict …` clause). With the columns' PostgreSQL `types`, PostgreSQL takes all
 * the rows in one statement of an array a column (unnest), each array already in its text form (pgArray): a VALUES list
 * of thousands of parameters cost about twice as much to parse, plan and run, in statements of at most 5,000
 * parameters each (decision 1165). A key twice in the rows then fails an `on conflict do update` tail whatever the
 * chunks, as it did within one chunk.
 */
export function insertStatements<T>(
  numbered: boolean,
  table: string,
  columns: readonly string[],
  rows: readonly T[],
  put: (params: unknown[], at: number, row: T) => void,
  tail = '',
  types?: readonly string[],
): CompiledQuery[] {
  if (rows.length === 0) return [];
  const width = columns.length;
  if (numbered && types) {
    const row: unknown[] = new Array(width);
    const arrays: unknown[][] = columns.map(() => new Array(rows.length));
    for (let r = 0; r < rows.length; r++) {
      put(row, 0, rows[r] as T);
      for (let c = 0; c < width; c++) arrays[c]![r] = row[c];
    }
    return [CompiledQuery.raw(unnestInsertText(table, columns, types, tail), arrays.map(pgArray))];
  }
  const out: CompiledQuery[] = [];
  let i = 0;
  for (const n of insertSizes(rows.length, width, numbered)) {
    const params: unknown[] = new Array(n * width);
    for (let k = 0; k < n; k++, i++) put(params, k * width, rows[i] as T);
    out.push(CompiledQuery.raw(insertText(numbered, table, columns, n, tail), params));
  }
  return out;
}

/** Runs statements one after the other, each sent once the one before answered. */
export async function runStatements(trx: Executor, statements: readonly CompiledQuery[]): Promise<void> {
  for (const s of statements) await trx.executeQuery(s);
}

/** One statement written with `?` placeholders (numbered for PostgreSQL), built to be run later. */
export const sqlStatement = (numbered: boolean, text: string, params: unknown[]) =>
  CompiledQuery.raw(sqlText(numbered, text), params);

/** Runs one statement written with `?` placeholders (numbered for PostgreSQL). */
export const runStatement = (trx: Executor, numbered: boolean, text: string, params: unknown[]) =>
  trx.executeQuery(sqlStatement(numbered, text, params));
