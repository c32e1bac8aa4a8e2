// Pieces of the explain benches (bench/explain-*.ts): a series of numbers as SQL, and a plan's lines as printed.

/** `select` of the numbers 0 … n-1 as column `name`, on either dialect (SQLite has no generate_series). */
export const series = (pg: boolean, n: number, name: string): string =>
  pg
    ? `select generate_series(0, ${n - 1}) as ${name}`
    : `with recursive s(${name}) as (select 0 union all select ${name} + 1 from s where ${name} < ${n - 1}) select ${name} from s`;

/** The lines of an EXPLAIN's rows: PostgreSQL's QUERY PLAN, SQLite's query plan (id, parent, detail). */
export const planLines = (pg: boolean, rows: readonly unknown[]): string[] =>
  (rows as Array<Record<string, unknown>>).map((row) =>
    pg ? String(row['QUERY PLAN']) : `${String(row.id)} ${String(row.parent)} ${String(row.detail)}`,
  );
