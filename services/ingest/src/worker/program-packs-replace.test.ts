// A late batch over packed program intervals (decision 1196): on PostgreSQL the closed programs ending before the
// packer's cutoff are in program_packs; a batch that replaces a machine's records from a time on (decision 1122), or
// a take-over, must leave exactly what it leaves when they are rows: the packs holding records ending from its time
// on become rows again first. Another company's machine with the same id and a machine not in the batch stay as they
// were. SQLite packs nothing: the same writes, the same expectations.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DerivationResult, EpochMs } from '@takt/domain';
import { packPrograms } from '@takt/db';
import { DIALECTS, freshDb, rowCount } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { derivationOf } from '../testing/derivation';
import { writeBatch } from './store';
import type { DerivedWrite } from './store';

const HOUR = 3_600_000;
const STEP = 60_000;
const ms = (n: number) => n as EpochMs;

/** A program every minute from `start` to `end` named `${tag}${start}`, the last open; no other records. */
function history(start: number, end: number, tag: string): DerivationResult {
  const programs = [];
  for (let t = start; t < end; t += STEP)
    programs.push({
      start: ms(t),
      end: ms(Math.min(t + STEP, end)),
      name: `${tag}${t}`,
      ...(t + STEP >= end ? { open: true } : {}),
    });
  return derivationOf({ programs });
}

describe.each(DIALECTS)('a late batch over packed program intervals (%s)', (dialect) => {
  // Two databases: this one packed, and a reference that packs nothing.
  let t: TestDb;
  let reference: TestDb;
  beforeEach(async () => {
    [t, reference] = await Promise.all([freshDb(dialect), freshDb(dialect)]);
  });
  afterEach(async () => {
    await Promise.all([t.cleanup(), reference.cleanup()]);
  });
  const write = (db: TestDb['db'], derived: DerivedWrite[]) =>
    writeBatch(db, { observations: [], derived, live: [], stats: [] });
  const rows = async (db: TestDb['db'], company: string, machine: string) =>
    (
      await db
        .selectFrom('program_intervals')
        .select(['start_at', 'end_at', 'name'])
        .where('company_id', '=', company)
        .where('machine_id', '=', machine)
        .where('sub', '=', 0)
        .orderBy('start_at')
        .execute()
    ).map((r) => [Number(r.start_at), r.end_at == null ? null : Number(r.end_at), r.name]);
  it('replaces the packed records ending from its time on and keeps the rest, of its machine only', async () => {
    const end = 3 * HOUR;
    // The same writes into the reference: what every step must leave.
    const both = async (derived: DerivedWrite[]) => {
      await write(t.db, derived);
      await write(reference.db, derived);
    };
    const agree = async () => {
      for (const [c, m] of [
        ['c1', 'm1'],
        ['c2', 'm1'],
        ['c1', 'm3'],
      ] as const)
        expect(await rows(t.db, c, m)).toEqual(await rows(reference.db, c, m));
    };
    // Three hours of m1 in c1 and c2 (the same machine id: another machine) and of m3 in c1.
    await both([
      { companyId: 'c1', machineId: 'm1', from: 0, result: history(0, end, 'A') },
      { companyId: 'c2', machineId: 'm1', from: 0, result: history(0, end, 'B') },
      { companyId: 'c1', machineId: 'm3', from: 0, result: history(0, end, 'C') },
    ]);
    const packed = await packPrograms(t.db, end, 0);
    if (dialect === 'postgres') {
      expect(packed.rowsPacked).toBe(3 * (180 - 1));
      expect(await rowCount(t.db, 'program_rows')).toBe(0);
    }
    await agree();
    // A late batch of c1's m1 from 1.5 h (mid-program: the program from 1.5 h is replaced) with other programs,
    // shifted by 30 s, up to 3.5 h.
    const late = history(1.5 * HOUR + 30_000, 3.5 * HOUR, 'D');
    await both([
      {
        companyId: 'c1',
        machineId: 'm1',
        from: 1.5 * HOUR + 10_000,
        result: {
          ...late,
          programs: [{ start: ms(1.5 * HOUR), end: ms(1.5 * HOUR + 30_000), name: 'cut' }, ...late.programs],
        },
      },
    ]);
    await agree();
    const m1 = await rows(t.db, 'c1', 'm1');
    expect(m1.slice(89, 92)).toEqual([
      [89 * STEP, 90 * STEP, `A${89 * STEP}`],
      [1.5 * HOUR, 1.5 * HOUR + 30_000, 'cut'],
      [1.5 * HOUR + 30_000, 1.5 * HOUR + 90_000, `D${1.5 * HOUR + 30_000}`],
    ]);
    expect(m1.at(-1)).toEqual([3.5 * HOUR - 30_000, null, `D${3.5 * HOUR - 30_000}`]);
    expect(new Set(m1.map((r) => r[0])).size).toBe(m1.length);
    // Only the packs reaching the batch's time became rows: the first 1.5 h of m1 stayed packed.
    if (dialect === 'postgres') expect(await rowCount(t.db, 'program_rows')).toBeLessThan(2 * 60 + 2 * 90);

    // Packed again, then a take-over at 2 h, then a batch from 1 h (all packed again before each).
    await packPrograms(t.db, 4 * HOUR, 0);
    await both([
      {
        companyId: 'c1',
        machineId: 'm1',
        from: 2 * HOUR,
        takeOverAt: 2 * HOUR,
        result: history(2 * HOUR, 2 * HOUR + 2 * STEP, 'E'),
      },
    ]);
    await agree();
    await packPrograms(t.db, 4 * HOUR, 0);
    await both([{ companyId: 'c1', machineId: 'm1', from: HOUR, result: history(HOUR, 2.5 * HOUR, 'F') }]);
    await agree();
    expect((await rows(t.db, 'c1', 'm1')).at(-1)).toEqual([2.5 * HOUR - STEP, null, `F${2.5 * HOUR - STEP}`]);
  });
});
