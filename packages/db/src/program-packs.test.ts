import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AWKWARD_TEXT, DIALECTS, freshDb, migrateTo, migrationBefore, rowCount, spanTimes } from './testing';
import type { TestDb } from './testing';
import { companyScope } from './scope';
import { packPrograms } from './program-packs';

// Packed program intervals (decision 1196, migration 0070): the packer moves closed programs ending before its cutoff
// into one pack a machine, sub and UTC hour, and program_intervals reads exactly the same rows after as before,
// per company (the same machine id under another company is another machine). SQLite keeps its rows.
const HOUR = 3_600_000;
const MIGRATION = '2026-11-30-0070-program-packs';

/** Programs of machine `machine_id` of `company_id`: every `step` ms from `from` for `n`, the last open. */
const programs = (
  company_id: string,
  machine_id: string,
  sub: number,
  from: number,
  step: number,
  n: number,
) =>
  Array.from({ length: n }, (_, i) => ({
    company_id,
    machine_id,
    sub,
    start_at: from + i * step,
    end_at: i === n - 1 ? null : from + (i + 1) * step,
    name: AWKWARD_TEXT[i % AWKWARD_TEXT.length] ?? `${machine_id} ${i}`,
  }));

describe.each(DIALECTS)('packed program intervals on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const insert = async (rows: ReturnType<typeof programs>) => {
    for (let i = 0; i < rows.length; i += 500)
      await t.db
        .insertInto('program_intervals')
        .values(rows.slice(i, i + 500))
        .execute();
  };
  const read = async (company?: string) =>
    spanTimes(
      await (company ? companyScope(t.db, company).db : t.db)
        .selectFrom('program_intervals')
        .select(['company_id', 'machine_id', 'sub', 'start_at', 'end_at', 'name'])
        .$if(company !== undefined, (q) => q.where('company_id', '=', company!))
        .orderBy('company_id')
        .orderBy('machine_id')
        .orderBy('sub')
        .orderBy('start_at')
        .execute(),
    ).map((r) => ({ ...r, sub: Number(r.sub) }));

  it('keeps every interval exactly: the view reads the same rows, per company, before and after packing', async () => {
    // m1 of c1: programs every 7 s across three UTC hours and sub-programs every 50 s; m1 of c2: the same machine
    // id, other times; a program of 30 days (longer than a packed duration takes) and the open ones stay rows.
    const base = 20 * 24 * HOUR + 1234;
    await insert([
      ...programs('c1', 'm1', 0, base, 7_000, 1_600),
      ...programs('c1', 'm1', 1, base + 10, 50_000, 200),
      ...programs('c2', 'm1', 0, base - 5, 11_000, 900),
    ]);
    await insert([
      { company_id: 'c2', machine_id: 'm2', sub: 0, start_at: 0, end_at: 30 * 24 * HOUR, name: 'long' },
      { company_id: 'c2', machine_id: 'm2', sub: 0, start_at: 30 * 24 * HOUR, end_at: null, name: 'after' },
    ]);
    const before = await read();
    const c1 = await read('c1');
    const c2 = await read('c2');
    expect(before).toHaveLength(1_600 + 200 + 900 + 2);

    // Packed up to a cutoff inside the history, then all of it.
    const cutoff = base + 2 * HOUR;
    const first = await packPrograms(t.db, cutoff, 0);
    const due = before.filter(
      (r) => r.end_at !== null && r.end_at < cutoff && r.end_at - r.start_at < 2 ** 31,
    );
    expect(first.rowsPacked).toBe(dialect === 'postgres' ? due.length : 0);
    expect(await read()).toEqual(before);
    const all = await packPrograms(t.db, base + 100 * HOUR, 0);
    expect(await read()).toEqual(before);
    expect(await read('c1')).toEqual(c1);
    expect(await read('c2')).toEqual(c2);
    if (dialect === 'postgres') {
      expect(first.rowsPacked + all.rowsPacked).toBe(1_599 + 199 + 899);
      // One pack a machine, sub and hour a pass at most: none spans two hours.
      const packs = await sql<{ from_ts: string; last: string; n: number }>`
        select from_ts, from_ts + starts[cardinality(starts)] as last, cardinality(starts) as n
        from program_packs`.execute(t.db);
      for (const p of packs.rows)
        expect(Math.floor(Number(p.last) / HOUR)).toBe(Math.floor(Number(p.from_ts) / HOUR));
      // Left as rows: the 30-day program alone.
      expect(await rowCount(t.db, 'program_rows')).toBe(1);
    }
  });

  it('migrates up and down on a database with packed intervals, keeping every interval', async () => {
    await migrateTo(t.db, migrationBefore(MIGRATION));
    const rows = [
      ...programs('c1', 'm1', 0, 5 * HOUR, 60_000, 150),
      ...programs('c2', 'm1', 1, 5 * HOUR, 90_000, 40),
    ];
    for (const r of rows)
      await sql`insert into program_intervals (company_id, machine_id, sub, start_at, end_at, name)
        values (${r.company_id}, ${r.machine_id}, ${r.sub}, ${r.start_at}, ${r.end_at}, ${r.name})`.execute(
        t.db,
      );
    const before = await read();
    await migrateTo(t.db, MIGRATION);
    expect(await read()).toEqual(before);
    const r = await packPrograms(t.db, 10 * HOUR, 0);
    expect(r.rowsPacked).toBe(dialect === 'postgres' ? 149 + 39 : 0);
    expect(await read()).toEqual(before);
    await migrateTo(t.db, migrationBefore(MIGRATION));
    expect(await read()).toEqual(before);
    expect(await rowCount(t.db, 'program_rows')).toBe(149 + 39);
    // The view's insert trigger still works after the way down.
    await t.db
      .insertInto('program_intervals')
      .values({ company_id: 'c1', machine_id: 'm9', sub: 0, start_at: 1, end_at: 2, name: 'x' })
      .execute();
    expect(await rowCount(t.db, 'program_rows')).toBe(149 + 39 + 1);
    await migrateTo(t.db, MIGRATION);
    expect((await read()).length).toBe(before.length + 1);
  });
});
