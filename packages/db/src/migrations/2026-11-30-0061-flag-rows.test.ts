import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, rowCount, spanTimes } from '../testing';
import type { TestDb } from '../testing';
import { companyScope as scoped } from '../scope';
import { migrations } from './index';

// Migration 0061 (decision 1171): the flag spans stored before it move into flag_rows (closed) and flag_open (open)
// by the machine's small integer id, and the flag_spans view reads them as before, per company; rows inserted,
// updated and deleted through the view afterwards land in (or leave) the table their end says.
describe.each(DIALECTS)('migration 0061 flag rows on %s', (dialect) => {
  let t: TestDb;
  const migrator = () => new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
  const migrateTo = async (name: string) => {
    const { error } = await migrator().migrateTo(name);
    if (error) throw error instanceof Error ? error : new Error(String(error));
  };
  beforeEach(async () => {
    t = await freshDb(dialect);
    await migrateTo('2026-11-29-0059-program-rows');
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const read = (company: string) =>
    scoped(t.db, company)
      .selectFrom('flag_spans')
      .select(['company_id', 'machine_id', 'kind', 'start_at', 'end_at'])
      .orderBy('machine_id')
      .orderBy('kind')
      .orderBy('start_at')
      .execute()
      .then(spanTimes);
  const count = (table: string) => rowCount(t.db, table);

  it('keeps every stored span, reads them as before and writes through the view', async () => {
    const old = [
      { company_id: 'c1', machine_id: 'm1', kind: 'incut', start_at: 1200, end_at: 1300 },
      { company_id: 'c1', machine_id: 'm1', kind: 'spindle', start_at: 1000, end_at: 2000 },
      { company_id: 'c1', machine_id: 'm1', kind: 'spindle', start_at: 2500, end_at: null },
      // The same machine id under another company is another machine.
      { company_id: 'c2', machine_id: 'm1', kind: 'spindle', start_at: 500, end_at: null },
      { company_id: 'c2', machine_id: 'm2', kind: 'incut', start_at: 7, end_at: 9 },
      // Two open spans of one kind (ingest writes none such): the earlier one ends where the later starts.
      { company_id: 'c2', machine_id: 'm2', kind: 'incut', start_at: 20, end_at: null },
      { company_id: 'c2', machine_id: 'm2', kind: 'incut', start_at: 30, end_at: null },
    ] as const;
    // m1 of c1 sent observations already: its dictionary id is kept.
    await sql`insert into observations (company_id, machine_id, ts, key, value)
      values ('c1', 'm1', 1, 'execution', 'ACTIVE')`.execute(t.db);
    for (const r of old)
      await sql`insert into flag_spans (company_id, machine_id, kind, start_at, end_at)
        values (${r.company_id}, ${r.machine_id}, ${r.kind}, ${r.start_at}, ${r.end_at})`.execute(t.db);

    await migrateTo('2026-11-30-0061-flag-rows');

    expect(await read('c1')).toEqual([old[0], old[1], old[2]]);
    expect(await read('c2')).toEqual([old[3], old[4], { ...old[5], end_at: 30 }, old[6]]);
    expect(await count('flag_rows')).toBe(4);
    expect(await count('flag_open')).toBe(3);
    expect(await count('observation_machines')).toBe(3);

    // Inserted through the view: an open span to flag_open, a closed one to flag_rows, a new machine in the dictionary.
    const c3 = scoped(t.db, 'c3');
    await c3
      .insertInto('flag_spans', [
        { machine_id: 'm9', kind: 'spindle', start_at: 10, end_at: 20 },
        { machine_id: 'm9', kind: 'spindle', start_at: 20, end_at: null },
      ])
      .execute();
    expect([await count('flag_rows'), await count('flag_open')]).toEqual([5, 4]);
    expect(await count('observation_machines')).toBe(4);

    // Updated: the open span closes (it moves to flag_rows), a closed one's end moves.
    await c3.updateTable('flag_spans').set({ end_at: 25 }).where('start_at', '=', 20).execute();
    await c3.updateTable('flag_spans').set({ end_at: 15 }).where('start_at', '=', 10).execute();
    expect((await read('c3')).map((r) => [r.start_at, r.end_at])).toEqual([
      [10, 15],
      [20, 25],
    ]);
    expect([await count('flag_rows'), await count('flag_open')]).toEqual([6, 3]);
    if (dialect === 'postgres') {
      // A machine's row with no open span (ingest keeps it, start null) is not read, and takes the next open span.
      await sql`insert into flag_open (start_at, m, kind)
        select null, id, 'incut' from observation_machines where company_id = 'c3'`.execute(t.db);
      expect((await read('c3')).map((r) => [r.start_at, r.end_at])).toEqual([
        [10, 15],
        [20, 25],
      ]);
      await c3
        .insertInto('flag_spans', { machine_id: 'm9', kind: 'incut', start_at: 30, end_at: null })
        .execute();
      expect((await read('c3')).map((r) => [r.kind, r.start_at, r.end_at])).toEqual([
        ['incut', 30, null],
        ['spindle', 10, 15],
        ['spindle', 20, 25],
      ]);
      await c3.deleteFrom('flag_spans').where('kind', '=', 'incut').execute();
    }
    // Deleted: only the rows the delete names, of its company.
    await c3.deleteFrom('flag_spans').where('start_at', '=', 10).execute();
    await scoped(t.db, 'c2').deleteFrom('flag_spans').where('machine_id', '=', 'm1').execute();
    expect((await read('c3')).map((r) => [r.start_at, r.end_at])).toEqual([[20, 25]]);
    expect(await read('c2')).toEqual([old[4], { ...old[5], end_at: 30 }, old[6]]);
    expect(await read('c1')).toEqual([old[0], old[1], old[2]]);

    // And back: the table as it was, with the same rows.
    await migrateTo('2026-11-29-0059-program-rows');
    expect(await read('c1')).toEqual([old[0], old[1], old[2]]);
    expect(await count('flag_spans')).toBe(7);
  });
});
