import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { recomputeRollups } from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';

// Decision 1153: a recompute writes the hourly, day and week rows only where they changed. The same facts
// recomputed later leave every row as it was (its values, its computed_at and, on PostgreSQL, its row version);
// a changed bucket and the sums holding it are rewritten; a bucket no longer produced is deleted; and what is
// stored is what recomputing into empty tables stores.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = Date.parse('2024-01-15T00:00:00Z'); // a Monday
const TABLES = ['rollups', 'rollup_days', 'rollup_weeks'] as const;
type Table = (typeof TABLES)[number];

describe.each(DIALECTS)('rollups rewritten only where they changed on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  /** Every stored row of `table`, by start, with its row version on PostgreSQL (`v`, else null). */
  async function stored(table: Table): Promise<Array<Record<string, unknown>>> {
    const version = sql<string | null>`${sql.raw(dialect === 'postgres' ? 'xmin::text' : 'null')}`;
    const rows = await t.db
      .selectFrom(table)
      .selectAll()
      .select(version.as('v'))
      .orderBy('start_at')
      .execute();
    return rows as Array<Record<string, unknown>>;
  }
  const all = async () => ({
    rollups: await stored('rollups'),
    rollup_days: await stored('rollup_days'),
    rollup_weeks: await stored('rollup_weeks'),
  });
  const withoutVersion = (rows: Array<Record<string, unknown>>) => rows.map(({ v: _v, ...r }) => r);
  /** A row without its downtime report figures, its computed_at and its version. */
  const apartFromFigures = ({ downtime: _d, computed_at: _c, v: _v, ...r }: Record<string, unknown>) => r;
  const at = (rows: Array<Record<string, unknown>>, start: number) =>
    rows.find((r) => Number(r.start_at) === start);

  it('keeps unchanged rows, rewrites a changed bucket and its sums, deletes a bucket no longer produced', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company, { name: 'Press 1' });
    // One shift 06:00–13:30 every day: its last bucket is 13:00–13:30, then 13:30–14:00 outside it.
    const shiftId = await aShift(t.db, company, { startoffsetminutes: 360, endoffsetminutes: 810 });
    await someStates(t.db, company, machineId, [
      [DAY, DAY + 8 * HOUR, 'INACTIVE'],
      [DAY + 8 * HOUR, DAY + 9 * HOUR, 'ACTIVE'],
      [DAY + 9 * HOUR, DAY + 24 * HOUR, 'INACTIVE'],
    ]);
    const recompute = (now: number) =>
      recomputeRollups(t.db, { companyId: company.id, machineId, from: DAY, to: DAY + 1, now });

    const now1 = DAY + 2 * 24 * HOUR;
    await recompute(now1);
    const first = await all();
    expect(first.rollups.length).toBeGreaterThanOrEqual(24);
    expect(at(first.rollups, DAY + 13.5 * HOUR)).toMatchObject({ shift_id: null });
    expect(first.rollup_days.map((r) => r.shift_id)).toEqual([null, shiftId]);
    expect(first.rollup_weeks).toHaveLength(2);

    // The same facts recomputed a day later: nothing is written, not even computed_at.
    await recompute(now1 + 24 * HOUR);
    expect(await all()).toEqual(first);

    // The hour of ACTIVE time moves from 08:00 to 09:00: two hourly rows change, the day's and week's sums
    // (in the same shift) do not; the week rows still take the new computed_at (the reports' data version). The
    // stop after it now begins at 10:00: the later hours' and the sums' downtime report figures (decision 1188: the
    // period in progress at a row's start is kept with its start) change, and only those.
    await t.db.deleteFrom('state_intervals').where('machine_id', '=', machineId).execute();
    await someStates(t.db, company, machineId, [
      [DAY, DAY + 9 * HOUR, 'INACTIVE'],
      [DAY + 9 * HOUR, DAY + 10 * HOUR, 'ACTIVE'],
      [DAY + 10 * HOUR, DAY + 24 * HOUR, 'INACTIVE'],
    ]);
    const now2 = now1 + 2 * 24 * HOUR;
    await recompute(now2);
    const moved = await all();
    for (const r of moved.rollups) {
      const before = at(first.rollups, Number(r.start_at))!;
      const hour = (Number(r.start_at) - DAY) / HOUR;
      if (hour === 8 || hour === 9) {
        expect(r.measures).not.toEqual(before.measures);
        expect(Number(r.computed_at)).toBe(now2);
        if (dialect === 'postgres') expect(r.v).not.toBe(before.v);
      } else if (hour >= 10) {
        expect(apartFromFigures(r)).toEqual(apartFromFigures(before));
        expect(r.downtime).not.toEqual(before.downtime);
      } else expect(r).toEqual(before);
    }
    expect(moved.rollup_days.map(apartFromFigures)).toEqual(first.rollup_days.map(apartFromFigures));
    expect(withoutVersion(moved.rollup_weeks).map(apartFromFigures)).toEqual(
      withoutVersion(first.rollup_weeks).map(apartFromFigures),
    );
    expect(Math.max(...moved.rollup_weeks.map((r) => Number(r.computed_at)))).toBe(now2);

    // The shift now ends at 14:00: the 13:30 bucket is no longer produced and goes, 13:00 grows to 14:00,
    // the shift's day and week rows change, the rows outside the shift keep their values.
    await t.db
      .updateTable('shift_versions')
      .set({ endoffsetminutes: 840 })
      .where('shift_id', '=', shiftId)
      .execute();
    const now3 = now2 + 24 * HOUR;
    await recompute(now3);
    const edited = await all();
    expect(at(edited.rollups, DAY + 13.5 * HOUR)).toBeUndefined();
    expect(at(edited.rollups, DAY + 13 * HOUR)).toMatchObject({ end_at: DAY + 14 * HOUR, computed_at: now3 });
    expect(at(edited.rollups, DAY + 14 * HOUR)).toEqual(at(moved.rollups, DAY + 14 * HOUR));
    expect(edited.rollups).toHaveLength(moved.rollups.length - 1);
    const shiftDay = edited.rollup_days.find((r) => r.shift_id === shiftId)!;
    expect(Number(shiftDay.computed_at)).toBe(now3);
    expect(Number(shiftDay.duration_ms)).toBe(8 * HOUR);

    // What is stored is what a recompute into empty tables stores (at the same now).
    for (const table of TABLES) await t.db.deleteFrom(table).execute();
    await recompute(now3);
    const fresh = await all();
    expect(edited.rollups.filter((r) => Number(r.computed_at) !== now3).length).toBeGreaterThan(20);
    for (const table of TABLES) {
      expect(withoutVersion(edited[table]).map((r) => ({ ...r, computed_at: now3 }))).toEqual(
        withoutVersion(fresh[table]),
      );
    }
  }, 60_000);
});
