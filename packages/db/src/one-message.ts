import { CompiledQuery } from 'kysely';

// PostgreSQL: several statements sent as one message (the simple query protocol), run by the server one after the
// other in the open transaction, so a batch of statements costs one round trip instead of one each (decision 1194).
// The simple protocol takes no parameters: each one is written into the text as a literal. A literal of the
// parameter's text (as the driver would send it) is of type unknown, like an untyped parameter, and takes its type
// from where it stands (a column, a cast) as the parameter did. Only text, numbers, booleans and null are written so;
// a statement with any other parameter (binary, a date, an array or object the driver would encode) is sent alone.

const COPY = /^\s*copy\s/i;
const PLACEHOLDER = /\$(\d+)/g;

const PLAIN = new Set(['string', 'number', 'bigint', 'boolean']);

/**
 * Whether a statement can go in one message with others: not a COPY (it needs its own exchange with the server), and
 * every parameter text (without NUL), a number, a boolean or null.
 */
export function joinable(q: CompiledQuery): boolean {
  if (COPY.test(q.sql)) return false;
  return q.parameters.every(
    (p) =>
      p == null ||
      // A NUL ends the message's text (a C string): such text goes as a parameter, which the server refuses whole.
      (typeof p === 'string'
        ? !p.includes('\0')
        : PLAIN.has(typeof p) && (typeof p !== 'number' || isFinite(p))),
  );
}

/** A parameter as a literal: E'…' (backslash and quote escaped, whatever standard_conforming_strings says), or NULL. */
export function literal(value: unknown): string {
  if (value == null) return 'NULL';
  return `E'${String(value as string | number | bigint | boolean)
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "''")}'`;
}

/**
 * The statements as one: each one's $n placeholders replaced by its parameters' literals, joined by semicolons. Only
 * for statements `joinable` accepts, whose text has no `$` but its placeholders (every statement the ingest batch
 * builds: the values are all parameters). Throws on a placeholder without a parameter.
 */
export function oneMessage(queries: readonly CompiledQuery[]): CompiledQuery {
  if (queries.length === 1 && queries[0]!.parameters.length === 0) return queries[0]!;
  const text = queries
    .map((q) =>
      q.sql.replace(PLACEHOLDER, (_, n: string) => {
        const i = Number(n) - 1;
        if (i < 0 || i >= q.parameters.length)
          throw new Error(`no parameter ${n} for: ${q.sql.slice(0, 80)}`);
        return literal(q.parameters[i]);
      }),
    )
    .join(';\n');
  return CompiledQuery.raw(text, []);
}
