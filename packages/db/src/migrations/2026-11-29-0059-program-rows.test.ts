import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, rowCount, spanTimes } from '../testing';
import type { TestDb } from '../testing';
import { companyScope as scoped } from '../scope';
import { migrations } from './index';

// Migration 0059 (decision 1161): the program intervals stored before it move into program_rows (closed) and
// program_open (open) by the machine's small integer id, and the program_intervals view reads them as before, per
// company; a row inserted into the view afterwards goes to the table its end says.
describe.each(DIALECTS)('migration 0059 program rows on %s', (dialect) => {
  let t: TestDb;
  const migrator = () => new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
  beforeEach(async () => {
    t = await freshDb(dialect);
    const { error } = await migrator().migrateTo('2026-11-29-0052-kept-override-steps');
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('keeps every stored program interval and reads them as before', async () => {
    const old = [
      { company_id: 'c1', machine_id: 'm1', sub: 0, start_at: 1000, end_at: 2000, name: 'O1' },
      { company_id: 'c1', machine_id: 'm1', sub: 0, start_at: 2000, end_at: null, name: 'O2' },
      { company_id: 'c1', machine_id: 'm1', sub: 1, start_at: 1500, end_at: 1700, name: 'S1' },
      // The same machine id under another company is another machine.
      { company_id: 'c2', machine_id: 'm1', sub: 0, start_at: 500, end_at: null, name: 'X' },
      { company_id: 'c2', machine_id: 'm2', sub: 1, start_at: 7, end_at: 9, name: 'Y' },
      // Two open sub-programs (ingest writes none such): the earlier one ends where the later starts.
      { company_id: 'c2', machine_id: 'm2', sub: 1, start_at: 20, end_at: null, name: 'Z1' },
      { company_id: 'c2', machine_id: 'm2', sub: 1, start_at: 30, end_at: null, name: 'Z2' },
    ];
    // m1 of c1 sent observations already: its dictionary id is kept.
    await sql`insert into observations (company_id, machine_id, ts, key, value)
      values ('c1', 'm1', 1, 'execution', 'ACTIVE')`.execute(t.db);
    for (const r of old)
      await sql`insert into program_intervals (company_id, machine_id, sub, start_at, end_at, name)
        values (${r.company_id}, ${r.machine_id}, ${r.sub}, ${r.start_at}, ${r.end_at}, ${r.name})`.execute(
        t.db,
      );

    const { error } = await migrator().migrateTo('2026-11-29-0059-program-rows');
    if (error) throw error instanceof Error ? error : new Error(String(error));

    const read = (company: string) =>
      scoped(t.db, company)
        .selectFrom('program_intervals')
        .select(['company_id', 'machine_id', 'sub', 'start_at', 'end_at', 'name'])
        .orderBy('machine_id')
        .orderBy('sub')
        .orderBy('start_at')
        .execute()
        .then((rows) => spanTimes(rows).map((r) => ({ ...r, sub: Number(r.sub) })));
    expect(await read('c1')).toEqual([old[0], old[1], old[2]]);
    expect(await read('c2')).toEqual([old[3], old[4], { ...old[5], end_at: 30 }, old[6]]);
    const count = (table: string) => rowCount(t.db, table);
    expect(await count('program_rows')).toBe(4);
    expect(await count('program_open')).toBe(3);
    expect(await count('observation_machines')).toBe(3);
    const m1 = await t.db
      .selectFrom('observations')
      .select('machine_id')
      .where('company_id', '=', 'c1')
      .execute();
    expect(m1).toEqual([{ machine_id: 'm1' }]);

    // Written through the view: an open interval to program_open, a closed one to program_rows.
    await scoped(t.db, 'c3')
      .insertInto('program_intervals', [
        { machine_id: 'm9', sub: 0, start_at: 10, end_at: 20, name: 'A' },
        { machine_id: 'm9', sub: 0, start_at: 20, end_at: null, name: 'B' },
      ])
      .execute();
    expect(await count('program_rows')).toBe(5);
    expect(await count('program_open')).toBe(4);
    expect((await read('c3')).map((r) => [r.start_at, r.end_at, r.name])).toEqual([
      [10, 20, 'A'],
      [20, null, 'B'],
    ]);

    // And back: the table as it was, with the same rows.
    const { error: down } = await migrator().migrateTo('2026-11-29-0052-kept-override-steps');
    if (down) throw down instanceof Error ? down : new Error(String(down));
    expect(await read('c1')).toEqual([old[0], old[1], old[2]]);
    expect(await count('program_intervals')).toBe(9);
  });
});
