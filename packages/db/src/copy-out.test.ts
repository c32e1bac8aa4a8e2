import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestDb } from './testing';
import { AWKWARD_TEXT as AWKWARD, freshDb } from './testing';
import { binaryCopyRows } from './copy';

// Decision 1240: `copy (select …) to stdout with (format binary)` through the pool's client gives each row's fields as
// their bytes (PostgreSQL only: SQLite has no COPY; the week packs' read there is a select, week-packs.test.ts).

describe('COPY to stdout in binary through the pool client on postgres', () => {
  let t: TestDb;
  afterEach(async () => {
    await t?.cleanup();
  });

  it("gives every row's fields as stored: text, bigint, bytea, NULL, in a transaction too", async () => {
    t = await freshDb('postgres');
    await sql`create table blobs (k int primary key, s text, b bigint, p bytea)`.execute(t.db);
    const bytes = (k: number) => Buffer.from(Array.from({ length: k * 37 }, (_, i) => (i * 7 + k) % 256));
    const rows = AWKWARD.map((s, k) => ({
      k,
      s,
      b: k % 3 === 2 ? null : -1_700_000_000_000 - k,
      p: k === 4 ? null : bytes(k),
    }));
    for (const r of rows) await sql`insert into blobs values (${r.k}, ${r.s}, ${r.b}, ${r.p})`.execute(t.db);
    const copied = (db: typeof t.db) =>
      sql<
        Array<Buffer | null>
      >`copy (select k, s, b, p from blobs order by k) to stdout with (format binary)`.execute(db);
    const decoded = (got: Array<Array<Buffer | null>>) =>
      got.map(([k, s, b, p]) => ({
        k: k!.readInt32BE(0),
        s: s ? s.toString('utf8') : null,
        b: b ? Number(b.readBigInt64BE(0)) : null,
        p,
      }));
    expect(decoded((await copied(t.db)).rows)).toEqual(rows);
    expect(decoded(await t.db.transaction().execute(async (trx) => (await copied(trx)).rows))).toEqual(rows);
    // The pool's client goes on with ordinary statements after it.
    expect((await sql<{ n: number }>`select count(*)::int as n from blobs`.execute(t.db)).rows[0]!.n).toBe(
      rows.length,
    );
  });

  it('refuses bytes that are not COPY binary or end inside a field', () => {
    expect(() => binaryCopyRows(Buffer.from('k\ts\n1\tx\n'))).toThrow(/signature/);
    const head = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
    const field = Buffer.from([0, 1, 0, 0, 0, 9, 1, 2]);
    expect(() => binaryCopyRows(Buffer.concat([head, field]))).toThrow(/past the end/);
    expect(binaryCopyRows(Buffer.concat([head, Buffer.from([0xff, 0xff])]))).toEqual([]);
  });
});
