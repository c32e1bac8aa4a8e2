import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import type { TestDb } from './testing';
import { AWKWARD_TEXT as AWKWARD, DIALECTS, freshDb } from './testing';
import { insertStatements, numberedPlaceholders, runStatements } from './batch-insert';

type Row = { k: number; s: string | null; b: number | null; f: number | null };

const rowsOf = (n: number, shift = 0): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    k: i,
    s: AWKWARD[(i + shift) % AWKWARD.length]!,
    b: i % 4 === 3 ? null : 1_700_000_000_000 + i + shift,
    f: i % 5 === 4 ? null : i / 8 + shift,
  }));

const COLUMNS = ['k', 's', 'b', 'f'];
const TYPES = ['int', 'text', 'bigint', 'float8'];
const UPSERT = 'on conflict ("k") do update set "s" = excluded."s", "b" = excluded."b", "f" = excluded."f"';

describe.each(DIALECTS)('insertStatements on %s', (dialect) => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  const write = async (table: string, rows: readonly Row[], types?: readonly string[]) => {
    const numbered = numberedPlaceholders(t.db);
    await runStatements(
      t.db,
      insertStatements(
        numbered,
        table,
        COLUMNS,
        rows,
        (p, at, r) => {
          p[at] = r.k;
          p[at + 1] = r.s;
          p[at + 2] = r.b;
          p[at + 3] = r.f;
        },
        UPSERT,
        types,
      ),
    );
  };
  const stored = async (table: string) =>
    (
      await t.db.executeQuery<Row>(
        CompiledQuery.raw(`select "k", "s", "b", "f" from "${table}" order by "k"`),
      )
    ).rows.map((r) => ({ ...r, k: Number(r.k), b: r.b == null ? null : Number(r.b) }));

  // 2,500 rows are several VALUES statements; with the types, one statement of an array a column on PostgreSQL.
  it.each([1, 2500])('stores and upserts %i rows the same with the column types as without', async (n) => {
    t = await freshDb(dialect);
    for (const table of ['with_types', 'without_types'])
      await t.db.executeQuery(
        CompiledQuery.raw(
          `create table "${table}" ("k" integer primary key, "s" text, "b" bigint, "f" float8)`,
        ),
      );
    await write('with_types', rowsOf(n), TYPES);
    await write('without_types', rowsOf(n));
    expect(await stored('with_types')).toEqual(rowsOf(n));
    expect(await stored('with_types')).toEqual(await stored('without_types'));
    // The upsert tail: every row's values replaced.
    await write('with_types', rowsOf(n, 3), TYPES);
    await write('without_types', rowsOf(n, 3));
    expect(await stored('with_types')).toEqual(rowsOf(n, 3));
    expect(await stored('with_types')).toEqual(await stored('without_types'));
  });
});
