import { describe, expect, it } from 'vitest';
import { companyDayRange, epochMs, reportIntervals, shopDateOf } from '@takt/domain';
import type { CompanyCalendar } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { CompanyScope } from '@takt/db';
import {
  indexedDowntimeByReason,
  indexedRollupCells,
  loadRollupCells,
  loadRollupDayDowntimeByReason,
  useWeekIndex,
  weekIndexReads,
} from '@takt/db/rollups';
import { aDowntimeReason, anAnnotation } from '../testing/downtime-builders';
import {
  anAdjustmentRow,
  aMachineWithFacts,
  apiPerTest,
  aReportTenant,
  generatedFacts,
} from '../testing/report-plant';
import { aWeekPlant, DAY, NOW, seriesRowsOf, T0 } from '../testing/week-plant';

// Decision 1157: a report's whole weeks sliced from the company's week index give the same packed series and
// computed-at as reading the week and day rows (loadRollupCells), over random day-aligned ranges by day, week
// and month, and after a recompute at the same clock (the stamp's recompute count), on both dialects.
// Decision 1166: the same for the OEE waterfall's downtime by reason (indexedDowntimeByReason against
// loadRollupDayDowntimeByReason) in every shift selection, and after a recompute that changes only reasons.
// Decision 1233: the index keeps each machine's week rows packed; the cells of whole weeks are views of them, the
// others merged with the partial weeks' day rows: the same rows in the same order (fixed ranges of each kind).
// Decision 1168: a moved stamp reads again only the machines whose week rows changed, with the same cells and
// reasons as a full reload, and reads the whole company after a delete or a write below the latest computed_at.

/** A small deterministic generator (the same ranges every run). */
function lcg(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s % n;
  };
}

describe.each(DIALECTS)('week index on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  const plant = () => aWeekPlant(api.h);

  /**
   * Both reads of the same cells agree, over `n` random ranges of company days, after fixed ones: whole weeks only
   * (decision 1233: views of the index's columns), and partial weeks at both ends or one (a merge with the day rows).
   */
  async function agree(scope: CompanyScope, calendar: CompanyCalendar, machineIds: string[], n: number) {
    const rnd = lcg(7);
    const dayStart = (t: number) => companyDayRange(calendar, shopDateOf(calendar, epochMs(t))).start;
    const fixed: Array<[number, number, 'day' | 'week' | 'month']> = [
      [T0, T0 + 28 * DAY, 'week'],
      [T0 + 7 * DAY, T0 + 14 * DAY, 'week'],
      [T0 + 7 * DAY, T0 + 21 * DAY, 'day'],
      [T0 + 2 * DAY, T0 + 33 * DAY, 'week'],
      [T0 + 3 * DAY, T0 + 28 * DAY, 'month'],
      [T0, T0 + 26 * DAY, 'week'],
    ];
    for (let i = 0; i < fixed.length + n; i++) {
      const a =
        i < fixed.length
          ? dayStart(fixed[i]![0] + 12 * 3_600_000)
          : dayStart(T0 + rnd(37) * DAY + 12 * 3_600_000);
      const b =
        i < fixed.length
          ? dayStart(fixed[i]![1] + 12 * 3_600_000)
          : dayStart(a + (1 + rnd(36)) * DAY + 12 * 3_600_000);
      if (b <= a) continue;
      const unit = i < fixed.length ? fixed[i]![2] : (['day', 'week', 'month'] as const)[rnd(3)]!;
      const span = { start: epochMs(a), end: epochMs(Math.min(b, dayStart(NOW))) };
      if (span.end <= span.start) continue;
      const input = {
        machineIds,
        ...span,
        cellStarts: reportIntervals(calendar, span, unit).map((c) => c.start),
        clock: calendar,
      };
      const [indexed, read] = await Promise.all([
        indexedRollupCells(scope, input),
        loadRollupCells(scope, input),
      ]);
      expect(indexed.computedAt).toEqual(read.computedAt);
      expect([...indexed.series.keys()].sort()).toEqual([...read.series.keys()].sort());
      for (const [id, s] of read.series)
        expect(seriesRowsOf(indexed.series.get(id))).toEqual(seriesRowsOf(s));
    }
  }

  it('gives the cells of the week and day rows over random ranges, and follows a recompute at the same clock', async () => {
    const p = await plant();
    await agree(p.scope, p.calendar, p.machines, 25);
    // A correction of 40 parts on the first machine, recomputed at the same now: the same computed_at, count
    // and latest of the week rows, only the values (and this process's recompute count) change.
    await p.scope
      .insertInto('part_adjustments', [anAdjustmentRow(p.machines[0]!, T0 + 16 * DAY, { count: 40 })])
      .execute();
    await p.recompute([p.machines[0]!], { from: T0 + 14 * DAY, to: T0 + 21 * DAY, now: NOW });
    await agree(p.scope, p.calendar, p.machines, 25);
    // Another company's index holds none of these machines' rows.
    const other = await aReportTenant(api.h, [['Day', 360, 840]]);
    const cells = await indexedRollupCells(other.scope, {
      machineIds: p.machines,
      start: T0,
      end: T0 + 28 * DAY,
      cellStarts: [T0],
      clock: p.calendar,
    });
    expect(cells.series.size).toBe(0);
  });

  /** Both sums of the downtime by reason agree, over `n` random ranges of company days and shift selections. */
  async function reasonsAgree(
    scope: CompanyScope,
    calendar: CompanyCalendar,
    machineIds: string[],
    shiftIds: string[],
    n: number,
  ) {
    const rnd = lcg(13);
    const dayStart = (t: number) => companyDayRange(calendar, shopDateOf(calendar, epochMs(t))).start;
    const selections = [null, new Set(shiftIds.slice(0, 1)), new Set(shiftIds.slice(1)), new Set(shiftIds)];
    for (let i = 0; i < n; i++) {
      const a = dayStart(T0 + rnd(37) * DAY + 12 * 3_600_000);
      const end = Math.min(dayStart(a + (1 + rnd(36)) * DAY + 12 * 3_600_000), dayStart(NOW));
      if (end <= a) continue;
      const input = {
        machineIds: rnd(3) === 0 ? machineIds.slice(0, 1) : machineIds,
        start: a,
        end,
        shiftIds: selections[i % selections.length]!,
        clock: calendar,
      };
      const [indexed, read] = await Promise.all([
        indexedDowntimeByReason(scope, input),
        loadRollupDayDowntimeByReason(scope, input),
      ]);
      expect(indexed).toEqual(read);
    }
  }

  it("gives the week and day rows' downtime by reason in every shift selection, and follows a change of reasons only", async () => {
    const p = await plant();
    await reasonsAgree(p.scope, p.calendar, p.machines, p.shiftIds, 25);
    // A reason put on the first machine's third week (Tuesday to Thursday, every minute of it), recomputed at
    // the same now: the sums of the week rows stay, their reasons change.
    const whole = { start: T0 + 14 * DAY, end: T0 + 21 * DAY };
    const before = await indexedDowntimeByReason(p.scope, {
      machineIds: p.machines,
      ...whole,
      shiftIds: null,
      clock: p.calendar,
    });
    expect(Object.keys(before)).not.toHaveLength(0);
    const reason = (await aDowntimeReason(api.h.t.db, p.company, { name: 'Tool change' })).id;
    await anAnnotation(api.h.t.db, p.company, {
      machineId: p.machines[0]!,
      start: T0 + 15 * DAY,
      end: T0 + 18 * DAY,
      typeId: reason,
      planned: false,
    });
    await p.recompute([p.machines[0]!], { from: T0 + 14 * DAY, to: T0 + 21 * DAY, now: NOW });
    const after = await indexedDowntimeByReason(p.scope, {
      machineIds: p.machines,
      ...whole,
      shiftIds: null,
      clock: p.calendar,
    });
    expect(after[reason]!.unplannedMs).toBeGreaterThan(0);
    await reasonsAgree(p.scope, p.calendar, p.machines, p.shiftIds, 25);
    // Another company's index holds none of these machines' reasons.
    const other = await aReportTenant(api.h, [['Day', 360, 840]]);
    const theirs = await indexedDowntimeByReason(other.scope, {
      machineIds: p.machines,
      ...whole,
      shiftIds: null,
      clock: p.calendar,
    });
    expect(theirs).toEqual({});
  });

  it('reloads only the changed machines when the stamp moves, and the whole company when that does not add up', async () => {
    const p = await plant();
    const db = p.scope.db;
    const [m0, m1] = p.machines as [string, string];
    const weekRows = async (machineId: string | null, inShift = false) => {
      let q = p.scope.selectFrom('rollup_weeks').select((eb) => eb.fn.countAll<number | string>().as('n'));
      if (machineId) q = q.where('machine_id', '=', machineId);
      if (inShift) q = q.where('shift_id', 'is not', null);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const all = await weekRows(null);
    /** The rows and reasons read by the next reload, after both reads agree with the database's. */
    const readBy = async (change: () => Promise<unknown>) => {
      await change();
      const before = weekIndexReads(db);
      await agree(p.scope, p.calendar, p.machines, 10);
      await reasonsAgree(p.scope, p.calendar, p.machines, p.shiftIds, 10);
      const after = weekIndexReads(db);
      return { rows: after.rows - before.rows, reasons: after.reasons - before.reasons };
    };
    /** The index's cells and reasons over the whole span, then the same after emptying it (a full reload). */
    const whole = async () => {
      const span = {
        machineIds: p.machines,
        start: epochMs(T0),
        end: epochMs(T0 + 35 * DAY),
        clock: p.calendar,
      };
      const cellStarts = reportIntervals(p.calendar, span, 'week').map((c) => c.start);
      return Promise.all([
        indexedRollupCells(p.scope, { ...span, cellStarts }),
        indexedDowntimeByReason(p.scope, { ...span, shiftIds: null }),
      ]);
    };
    const equalsFullReload = async () => {
      const kept = await whole();
      useWeekIndex(db, false);
      useWeekIndex(db, true);
      expect(await whole()).toEqual(kept);
    };
    expect(await readBy(async () => undefined)).toEqual({ rows: all, reasons: await weekRows(null, true) });

    // A correction on the first machine recomputed an hour later: its rows and reasons only.
    const later = await readBy(async () => {
      await p.scope
        .insertInto('part_adjustments', [anAdjustmentRow(m0, T0 + 16 * DAY, { count: 40 })])
        .execute();
      await p.recompute([m0], { from: T0 + 14 * DAY, to: T0 + 21 * DAY, now: NOW + 3_600_000 });
    });
    expect(later).toEqual({ rows: await weekRows(m0), reasons: await weekRows(m0, true) });
    expect(later.rows).toBeLessThan(all);
    await equalsFullReload();
    await readBy(async () => undefined); // the emptied index read again

    // Another process rewrites a week row of the second machine later still (no recompute of this process).
    const other = await readBy(() =>
      p.scope
        .updateTable('rollup_weeks')
        .set((eb) => ({ parts: eb('parts', '+', 7), computed_at: NOW + 7_200_000 }))
        .where('machine_id', '=', m1)
        .where('start_at', '=', T0 + 14 * DAY)
        .execute(),
    );
    expect(other).toEqual({ rows: await weekRows(m1), reasons: await weekRows(m1, true) });

    // Another company's recompute moves this process's count: nothing of this company is read.
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const facts = generatedFacts({
      t0: T0,
      now: NOW,
      cuts: 20,
      cycles: 20,
      corrections: 2,
      states: ['ACTIVE'],
      seed: 5,
    });
    const theirs = (await aMachineWithFacts(api.h, tenant.company, 'Drill', T0, facts)).id;
    expect(
      await readBy(() => tenant.recompute([theirs], { from: T0, to: T0 + 7 * DAY, now: NOW + 10_800_000 })),
    ).toEqual({ rows: 0, reasons: 0 });

    // A deleted week row, and a row rewritten below the latest computed_at: the whole company again.
    const deleted = await readBy(() =>
      p.scope
        .deleteFrom('rollup_weeks')
        .where('machine_id', '=', m0)
        .where('start_at', '=', T0 + 14 * DAY)
        .execute(),
    );
    expect(deleted.rows).toBe(await weekRows(null));
    const below = await readBy(() =>
      p.scope
        .updateTable('rollup_weeks')
        .set((eb) => ({ parts: eb('parts', '+', 3), computed_at: NOW - 1 }))
        .where('machine_id', '=', m1)
        .where('start_at', '=', T0 + 21 * DAY)
        .execute(),
    );
    expect(below.rows).toBe(await weekRows(null));
    await equalsFullReload();
  });
});
