import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb, migrateTo, migrationBefore, rowCount, spanTimes } from '../testing';
import type { TestDb } from '../testing';
import { companyScope as scoped } from '../scope';

// Migration 0062 (decision 1180): the state intervals stored before it move into state_rows (closed) and state_open
// (open) by the machine's small integer id, and the state_intervals view reads them as before, per company; rows
// inserted, updated and deleted through the view afterwards land in (or leave) the table their end says.
const NAME = '2026-11-30-0062-state-rows';
const BEFORE = migrationBefore(NAME);

describe.each(DIALECTS)('migration 0062 state rows on %s', (dialect) => {
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
      .selectFrom('state_intervals')
      .select(['company_id', 'machine_id', 'start_at', 'end_at', 'state', 'reason'])
      .orderBy('machine_id')
      .orderBy('start_at')
      .execute()
      .then(spanTimes);
  const count = (table: string) => rowCount(t.db, table);

  it('keeps every stored state, reads them as before and writes through the view', async () => {
    const old = [
      { company_id: 'c1', machine_id: 'm1', start_at: 1000, end_at: 2000, state: 'ACTIVE', reason: null },
      {
        company_id: 'c1',
        machine_id: 'm1',
        start_at: 2000,
        end_at: null,
        state: 'STOPPED',
        reason: 'feedhold',
      },
      { company_id: 'c2', machine_id: 'm2', start_at: 7, end_at: 9, state: 'ACTIVE', reason: null },
      // Two open states (ingest writes none such): the earlier one ends where the later starts.
      { company_id: 'c2', machine_id: 'm2', start_at: 20, end_at: null, state: 'STOPPED', reason: null },
      { company_id: 'c2', machine_id: 'm2', start_at: 30, end_at: null, state: 'ACTIVE', reason: null },
    ] as const;
    // m1 of c1 sent observations already: its dictionary id is kept.
    await sql`insert into observations (company_id, machine_id, ts, key, value)
      values ('c1', 'm1', 1, 'execution', 'ACTIVE')`.execute(t.db);
    for (const r of old)
      await sql`insert into state_intervals (company_id, machine_id, start_at, end_at, state, reason)
        values (${r.company_id}, ${r.machine_id}, ${r.start_at}, ${r.end_at}, ${r.state}, ${r.reason})`.execute(
        t.db,
      );

    await migrateTo(t.db, NAME);

    expect(await read('c1')).toEqual([old[0], old[1]]);
    expect(await read('c2')).toEqual([old[2], { ...old[3], end_at: 30 }, old[4]]);
    expect([await count('state_rows'), await count('state_open')]).toEqual([3, 2]);
    expect(await count('observation_machines')).toBe(2);

    // Inserted through the view (as manual work centers write): a closed state to state_rows, an open one to
    // state_open, a new machine in the dictionary.
    const c3 = scoped(t.db, 'c3');
    await c3
      .insertInto('state_intervals', [
        { machine_id: 'm9', start_at: 10, end_at: 20, state: 'ACTIVE', reason: null },
        { machine_id: 'm9', start_at: 20, end_at: null, state: 'IDLE', reason: 'x' },
      ])
      .execute();
    expect([await count('state_rows'), await count('state_open')]).toEqual([4, 3]);
    expect(await count('observation_machines')).toBe(3);

    // Updated: the open state closes (it moves to state_rows), a closed one's end moves.
    await c3.updateTable('state_intervals').set({ end_at: 25 }).where('start_at', '=', 20).execute();
    await c3.updateTable('state_intervals').set({ end_at: 15 }).where('start_at', '=', 10).execute();
    expect((await read('c3')).map((r) => [r.start_at, r.end_at, r.state, r.reason])).toEqual([
      [10, 15, 'ACTIVE', null],
      [20, 25, 'IDLE', 'x'],
    ]);
    expect([await count('state_rows'), await count('state_open')]).toEqual([5, 2]);
    if (dialect === 'postgres') {
      // A machine's row with no open state (ingest keeps it, start null) is not read, and takes the next open state.
      await sql`insert into state_open (start_at, m, state)
        select null, id, 'IDLE' from observation_machines where company_id = 'c3'`.execute(t.db);
      expect(await read('c3')).toHaveLength(2);
      await c3
        .insertInto('state_intervals', { machine_id: 'm9', start_at: 30, end_at: null, state: 'ACTIVE' })
        .execute();
      expect((await read('c3')).map((r) => [r.start_at, r.end_at, r.state])).toEqual([
        [10, 15, 'ACTIVE'],
        [20, 25, 'IDLE'],
        [30, null, 'ACTIVE'],
      ]);
      await c3.deleteFrom('state_intervals').where('start_at', '=', 30).execute();
    }
    // Deleted: only the rows the delete names, of its company.
    await c3.deleteFrom('state_intervals').where('start_at', '=', 10).execute();
    await scoped(t.db, 'c2').deleteFrom('state_intervals').where('machine_id', '=', 'm1').execute();
    expect((await read('c3')).map((r) => [r.start_at, r.end_at])).toEqual([[20, 25]]);
    expect(await read('c1')).toEqual([old[0], old[1]]);
    await scoped(t.db, 'c2').deleteFrom('state_intervals').where('start_at', '=', 7).execute();
    expect(await read('c2')).toEqual([{ ...old[3], end_at: 30 }, old[4]]);

    // And back: the table as it was, with the same rows.
    await migrateTo(t.db, BEFORE);
    expect(await read('c1')).toEqual([old[0], old[1]]);
    expect(await count('state_intervals')).toBe(5);
  });
});
