import { afterEach, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import type { TestDb } from './testing';
import { freshDb } from './testing';

// Decision 1244: a pool connection prepares by name the parameterized statements it runs a second time; the rest run
// unnamed as before. PostgreSQL only (SQLite's handle keeps its own statement cache, connect.ts).

describe('statements prepared by name on their connection on postgres', () => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it('prepares a repeated statement once, answers every run with its own values, and leaves one-offs unnamed', async () => {
    t = await freshDb('postgres');
    await sql`create table seen (k int primary key, v text)`.execute(t.db);
    await t.db.connection().execute(async (c) => {
      for (let k = 0; k < 5; k++) await sql`insert into seen values (${k}, ${`v${k}`})`.execute(c);
      const byKey = async (k: number) =>
        (await sql<{ v: string }>`select v from seen where k = ${k}`.execute(c)).rows.map((r) => r.v);
      expect(await byKey(1)).toEqual(['v1']);
      expect(await byKey(3)).toEqual(['v3']);
      expect(await byKey(9)).toEqual([]);
      // A run that fails on the server (a value of the wrong type) leaves the prepared statement usable.
      await expect(
        sql`select v from seen where k = ${'not a number'}`.execute(c).then(() => 'ran'),
      ).rejects.toThrow(/invalid input syntax/);
      expect(await byKey(4)).toEqual(['v4']);
      await sql`select v from seen where k = ${2} and v <> ${'once'}`.execute(c);
      const prepared = await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements where not from_sql order by statement`.execute(c);
      const texts = prepared.rows.map((r) => r.statement);
      expect(texts).toContain('insert into seen values ($1, $2)');
      expect(texts).toContain('select v from seen where k = $1');
      expect(texts.filter((s) => s.includes("'once'") || s.includes('v <>'))).toEqual([]);
      // A text past PREPARED_TEXT_MAX (a many-row INSERT's length) runs unnamed however often it runs.
      const long = `select v from seen where k = $1 or v = $2 /* ${'x'.repeat(9_000)} */`;
      for (let run = 0; run < 3; run++) await c.executeQuery(CompiledQuery.raw(long, [1, 'v1']));
      const named = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_prepared_statements where statement like ${'%xxxx%'}`.execute(c);
      expect(named.rows[0]!.n).toBe(0);
      // A statement without parameters (this one) runs by the simple protocol: never named.
      expect(texts.filter((s) => s.includes('pg_prepared_statements'))).toEqual([]);
    });
  });
});
