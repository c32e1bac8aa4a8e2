import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, migrateTo, migrationBefore, rowCount } from '../testing';
import type { TestDb } from '../testing';
import { companyScope as scoped } from '../scope';

// Migration 0064 (decision 1182): the cycles stored before it move into cycle_rows by the machine's small integer id,
// and the cycles view reads them as before, per company; rows inserted, updated and deleted through the view land in
// (or leave) cycle_rows.
const NAME = '2026-11-30-0064-cycle-rows';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0064 cycle rows on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
    await migrateTo(t.db, BEFORE);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const read = (company: string) =>
    scoped(t.db, company)
      .selectFrom('cycles')
      .select(['company_id', 'machine_id', 'start_at', 'end_at', 'duration', 'count', 'source', 'setup'])
      .orderBy('machine_id')
      .orderBy('end_at')
      .execute()
      .then((rows) =>
        rows.map((r) => ({
          ...r,
          start_at: Number(r.start_at),
          end_at: Number(r.end_at),
          duration: Number(r.duration),
        })),
      );

  it('keeps every stored cycle, reads them as before and writes through the view', async () => {
    const old = [
      {
        company_id: 'c1',
        machine_id: 'm1',
        start_at: 0,
        end_at: 10,
        duration: 10,
        count: 1,
        source: 'part_count',
        setup: 0,
      },
      {
        company_id: 'c1',
        machine_id: 'm1',
        start_at: 0,
        end_at: 12,
        duration: 12,
        count: 2,
        source: 'program',
        setup: 1,
      },
      // The same machine id under another company is another machine (the old key had no company: another end).
      {
        company_id: 'c2',
        machine_id: 'm1',
        start_at: 5,
        end_at: 11,
        duration: 5,
        count: 1,
        source: 'part_count',
        setup: 0,
      },
    ] as const;
    // m1 of c1 sent observations already: its dictionary id is kept.
    await sql`insert into observations (company_id, machine_id, ts, key, value)
      values ('c1', 'm1', 1, 'execution', 'ACTIVE')`.execute(t.db);
    for (const r of old)
      await sql`insert into cycles (company_id, machine_id, start_at, end_at, duration, count, source, setup)
        values (${r.company_id}, ${r.machine_id}, ${r.start_at}, ${r.end_at}, ${r.duration}, ${r.count},
          ${r.source}, ${r.setup})`.execute(t.db);

    await migrateTo(t.db, NAME);

    expect(await read('c1')).toEqual([old[0], old[1]]);
    expect(await read('c2')).toEqual([old[2]]);
    expect(await rowCount(t.db, 'cycle_rows')).toBe(3);
    expect(await rowCount(t.db, 'observation_machines')).toBe(2);

    // Inserted through the view, a new machine in the dictionary; updated; deleted.
    const c3 = scoped(t.db, 'c3');
    await c3
      .insertInto('cycles', [
        { machine_id: 'm9', start_at: 1, end_at: 2, duration: 1, count: 1, source: 'part_count', setup: 0 },
        { machine_id: 'm9', start_at: 2, end_at: 3, duration: 1, count: 1, source: 'part_count', setup: 1 },
      ])
      .execute();
    expect(await rowCount(t.db, 'observation_machines')).toBe(3);
    await c3.updateTable('cycles').set({ count: 5 }).where('end_at', '=', 3).execute();
    await c3.deleteFrom('cycles').where('end_at', '=', 2).execute();
    expect((await read('c3')).map((r) => [r.end_at, r.count, r.setup])).toEqual([[3, 5, 1]]);
    // A delete names only its company's rows.
    await scoped(t.db, 'c2').deleteFrom('cycles').where('machine_id', '=', 'm1').execute();
    expect(await read('c1')).toEqual([old[0], old[1]]);
    expect(await read('c2')).toEqual([]);

    // And back: the table as it was, with the same rows.
    await migrateTo(t.db, BEFORE);
    expect(await read('c1')).toEqual([old[0], old[1]]);
    expect(await rowCount(t.db, 'cycles')).toBe(3);
  });
});
