// Decision 1190 (the left of decision 1187): the same machine id under another company is another machine (decision
// 1130), so its live row and its setup mark are its own. Keyed by the machine id alone (before migration 0066), the
// second company's live row overwrote the first's and its setup mark merged into the other's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSetupMark, companyScope, markSetupChanged, runStatements, setupMarksOf } from '@takt/db';
import type { MachineLiveTable } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { liveStatements } from './live-row';

const T = Date.UTC(2026, 10, 20, 12);

const liveRow = (companyId: string, machineId: string, state: string, program: string): MachineLiveTable => ({
  machine_id: machineId,
  company_id: companyId,
  state,
  state_since: T,
  connection: 'CONNECTED',
  connection_since: T,
  last_heartbeat: T,
  execution: state === 'ACTIVE' ? 'ACTIVE' : 'READY',
  execution_since: T,
  availability: 'AVAILABLE',
  controller_mode: null,
  program,
  part_count: null,
  spindle_speed: null,
  fault_since: null,
  fault_message: null,
  in_setup: 0,
  updated_at: T,
});

describe.each(DIALECTS)('live rows and setup marks of a machine id two companies store on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it("keeps each company's live row of the machine, in one batch and in the next", async () => {
    const mine = await aCompany(t.db);
    const theirs = await aCompany(t.db);
    const machine = await aMachine(t.db, mine, { name: 'Lathe' });
    const numbered = dialect === 'postgres';
    const write = (rows: MachineLiveTable[]) => runStatements(t.db, liveStatements(numbered, rows));
    const live = (companyId: string) =>
      companyScope(t.db, companyId)
        .selectFrom('machine_live')
        .select(['state', 'program'])
        .where('machine_id', '=', machine)
        .execute();

    await write([liveRow(mine.id, machine, 'ACTIVE', 'O100'), liveRow(theirs.id, machine, 'FAULT', 'O900')]);
    expect(await live(mine.id)).toEqual([{ state: 'ACTIVE', program: 'O100' }]);
    expect(await live(theirs.id)).toEqual([{ state: 'FAULT', program: 'O900' }]);
    await write([liveRow(theirs.id, machine, 'INACTIVE', 'O901')]);
    expect(await live(mine.id)).toEqual([{ state: 'ACTIVE', program: 'O100' }]);
    expect(await live(theirs.id)).toEqual([{ state: 'INACTIVE', program: 'O901' }]);
  });

  it("keeps each company's setup mark of the machine and hands a worker only the marks of what it holds", async () => {
    const mine = await aCompany(t.db);
    const theirs = await aCompany(t.db);
    const machine = await aMachine(t.db, mine, { name: 'Lathe' });
    await markSetupChanged(t.db, { companyId: mine.id, machineId: machine, from: T - 5_000, now: 1 });
    await markSetupChanged(t.db, { companyId: theirs.id, machineId: machine, from: T - 9_000, now: 2 });

    const marks = (companyId: string) =>
      setupMarksOf(t.db, [{ companyId, machineId: machine }]).then((all) =>
        all.map((m) => [m.company_id, m.from_at, m.marked_at]),
      );
    expect(await marks(mine.id)).toEqual([[mine.id, T - 5_000, 1]]);
    expect(await marks(theirs.id)).toEqual([[theirs.id, T - 9_000, 2]]);
    await clearSetupMark(t.db, { companyId: mine.id, machineId: machine, markedAt: 1 });
    expect(await marks(mine.id)).toEqual([]);
    expect(await marks(theirs.id)).toEqual([[theirs.id, T - 9_000, 2]]);
  });
});
