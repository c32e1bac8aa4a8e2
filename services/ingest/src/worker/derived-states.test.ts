// Machine states stored narrow (decision 1180, migration 0062): a closed state is inserted once into state_rows and
// never updated, the open state of a machine is state_open's row, updated in place when a new state opens; a take-over
// closes it at its time. Read through the state_intervals view as before.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DerivationResult, EpochMs, MachineState } from '@takt/domain';
import { DIALECTS, freshDb, rowCount } from '@takt/db/testing';
import { derivationOf } from '../testing/derivation';
import type { TestDb } from '@takt/db/testing';
import { writeBatch } from './store';
import type { DerivedWrite } from './store';

const ms = (n: number) => n as EpochMs;

/** States [start, end, state] each, the last open. */
const states = (...rows: Array<[number, number, MachineState]>): DerivationResult =>
  derivationOf({
    intervals: rows.map(([start, end, state], i) => ({
      start: ms(start),
      end: ms(end),
      state,
      reason: state === 'INACTIVE' ? 'feedhold' : null,
      ...(i === rows.length - 1 ? { open: true } : {}),
    })),
  });

describe.each(DIALECTS)('state intervals stored narrow (%s)', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const write = (derived: DerivedWrite[]) =>
    writeBatch(t.db, { observations: [], derived, live: [], stats: [] });
  const stored = async () =>
    (
      await t.db
        .selectFrom('state_intervals')
        .select(['start_at', 'end_at', 'state', 'reason'])
        .where('machine_id', '=', 'm1')
        .orderBy('start_at')
        .execute()
    ).map((r) => [Number(r.start_at), r.end_at == null ? null : Number(r.end_at), r.state, r.reason]);
  // The row versions (PostgreSQL's xmin: the transaction that wrote each) of the closed rows by start, and the open row.
  const versions = async () => {
    const r = await sql<{ start_at: string; v: string; open: boolean }>`
      select start_at, xmin::text as v, false as open from state_rows
      union all select start_at, xmin::text as v, true as open from state_open`.execute(t.db);
    return new Map(r.rows.map((x) => [x.open ? 'open' : String(Number(x.start_at)), x.v]));
  };

  it('inserts a closed state once, updates the open one in place, and a take-over closes it', async () => {
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 0,
        result: states([0, 1000, 'ACTIVE'], [1000, 2000, 'INACTIVE'], [2000, 3000, 'ACTIVE']),
      },
    ]);
    const first = dialect === 'postgres' ? await versions() : null;
    // From 2.5 s: the open ACTIVE state ended at 4 s and an IDLE one is open since; the closed ones are as stored.
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 2500,
        result: states(
          [0, 1000, 'ACTIVE'],
          [1000, 2000, 'INACTIVE'],
          [2000, 4000, 'ACTIVE'],
          [4000, 5000, 'SETUP'],
        ),
      },
    ]);
    expect(await stored()).toEqual([
      [0, 1000, 'ACTIVE', null],
      [1000, 2000, 'INACTIVE', 'feedhold'],
      [2000, 4000, 'ACTIVE', null],
      [4000, null, 'SETUP', null],
    ]);
    expect([await rowCount(t.db, 'state_rows'), await rowCount(t.db, 'state_open')]).toEqual([3, 1]);
    if (first) {
      const now = await versions();
      // The closed states before the batch's time were not written again; the open row took the new state.
      expect(now.get('0')).toBe(first.get('0'));
      expect(now.get('1000')).toBe(first.get('1000'));
      expect(now.get('open')).not.toBe(first.get('open'));
    }
    // A new worker takes over at 4.5 s with no state after it: the open state ends there.
    await write([{ companyId: 'c', machineId: 'm1', from: 4500, takeOverAt: 4500, result: states() }]);
    expect((await stored()).slice(-2)).toEqual([
      [2000, 4000, 'ACTIVE', null],
      [4000, 4500, 'SETUP', null],
    ]);
    // PostgreSQL keeps the machine's row with no open state (start null) for the next one to update; SQLite deletes it.
    const open = await sql<{ start_at: string | null }>`select start_at from state_open`.execute(t.db);
    expect(open.rows.map((r) => r.start_at)).toEqual(dialect === 'postgres' ? [null] : []);
    await write([{ companyId: 'c', machineId: 'm1', from: 5000, result: states([5000, 6000, 'ACTIVE']) }]);
    expect((await stored()).slice(-2)).toEqual([
      [4000, 4500, 'SETUP', null],
      [5000, null, 'ACTIVE', null],
    ]);
    expect(await rowCount(t.db, 'state_open')).toBe(1);
  });
});
