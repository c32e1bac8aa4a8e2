import { describe, expect, it } from 'vitest';
import { companyWeekRange, epochMs, reportIntervals } from '@takt/domain';
import { DIALECTS, weekPacksAndRows, writeVersionOnePacks } from '@takt/db/testing';
import type { CompanyScope } from '@takt/db';
import {
  indexedDowntimeByReason,
  indexedRollupCells,
  loadRollupCells,
  loadRollupDayDowntimeByReason,
  markRollupsDirty,
  PACK_SPAN_MS,
  storedWeekPacks,
  useWeekIndex,
  weekIndexReads,
} from '@takt/db/rollups';
import { RollupWorker } from '../../../ingest/src/worker/rollup';
import { anAnnotation, aDowntimeReason } from '../testing/downtime-builders';
import { anAdjustmentRow, apiPerTest, aReportTenant } from '../testing/report-plant';
import { aWeekPlant, DAY, NOW, seriesRowsOf, T0 } from '../testing/week-plant';

// Decision 1235 (migration 0073): the week rows' writer stores each machine's week rows and in-shift downtime by
// reason packed, in its transaction; the week index loads a company from those packs where they add up to its rows'
// computed_at, and reads the rows of a machine whose pack does not. Here, on both dialects: the stored packs equal the
// rows they pack (as the index reads them from rows: readWeeks and loadReasons) after each kind of write of week rows
// (the first recompute, the rollup worker's after an ingest batch's facts and mark, a recompute of a past week after
// an edit at the same clock); after a week row written behind the writer's back, and a machine's week rows deleted,
// a cold index still gives the rows' cells and reasons, reading only those machines' rows. The packs' span boundary
// 2025-10-20 (205 × 2^33 ms) lies inside the plant (from T0, Monday 2025-10-06).
// Decision 1242: the packs hold each machine's rows before its open week (the company week of its latest row: NOW's
// here); those from there on are read as rows with them. A recompute of the open week alone writes no pack; one that
// opens a new week packs the week it closed.

describe.each(DIALECTS)('stored week packs on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  const plant = () => aWeekPlant(api.h);
  /**
   * An ingest batch as the batch writer stores it (25 parts adjusted on `machineId` two days before NOW, and its
   * mark), then the rollup worker's run an hour later.
   */
  const batchThenRollupRun = async (p: Awaited<ReturnType<typeof plant>>, machineId: string) => {
    await p.scope
      .insertInto('part_adjustments', [anAdjustmentRow(machineId, NOW - 2 * DAY, { count: 25 })])
      .execute();
    await markRollupsDirty(api.h.t.db, { companyId: p.company.id, machineId, from: NOW - 2 * DAY, now: NOW });
    await new RollupWorker(
      api.h.t.db,
      () => NOW + 3_600_000,
      () => undefined,
    ).run();
  };

  const packsMatchRows = async (scope: CompanyScope) => {
    const { packs, rows } = await weekPacksAndRows(scope);
    expect(packs).toEqual(rows);
    return packs;
  };

  it('equal the rows they pack after the first recompute, an ingest batch and a recompute of a past week', async () => {
    const p = await plant();
    const first = await packsMatchRows(p.scope);
    expect((first as Array<{ id: string }>).map((m) => m.id).sort()).toEqual([...p.machines].sort());
    // Rows on both sides of a span boundary: two packs a machine.
    const spans = await p.scope.selectFrom('rollup_week_packs').select('span_start').distinct().execute();
    expect(spans.map((s) => Number(s.span_start)).sort()).toEqual([204, 205].map((k) => k * PACK_SPAN_MS));

    // An ingest batch: the second machine's new facts in the last week and its mark, as the batch writer stores
    // them, then the rollup worker's run an hour later.
    const [m0, m1] = p.machines as [string, string];
    await batchThenRollupRun(p, m1);
    const afterBatch = await packsMatchRows(p.scope);
    expect(afterBatch).not.toEqual(first);

    // A correction in the third week at 23:00, recomputed; then moved to 22:30 (the same company day and Night
    // shift) and that day recomputed later: only hourly rows change, so its past week's rows take the new computed_at
    // alone (decision 1148).
    const day = { from: T0 + 16 * DAY, to: T0 + 17 * DAY };
    const correction = anAdjustmentRow(m1, T0 + 16 * DAY + 23 * 3_600_000, { count: 25 });
    await p.scope.insertInto('part_adjustments', [correction]).execute();
    await p.recompute([m1], { ...day, now: NOW + 7_200_000 });
    const corrected = await packsMatchRows(p.scope);
    await p.scope
      .updateTable('part_adjustments')
      .set({ adjustment_time: correction.adjustment_time - 1_800_000 })
      .where('id', '=', correction.id)
      .execute();
    await p.recompute([m1], { ...day, now: NOW + 10_800_000 });
    expect(await packsMatchRows(p.scope)).not.toEqual(corrected);

    // A downtime reason put on the first machine's third week, recomputed at the same clock: its week rows' reasons
    // change, their computed_at does not.
    const reason = (await aDowntimeReason(api.h.t.db, p.company, { name: 'Tool change' })).id;
    await anAnnotation(api.h.t.db, p.company, {
      machineId: m0,
      start: T0 + 15 * DAY,
      end: T0 + 18 * DAY,
      typeId: reason,
      planned: false,
    });
    await p.recompute([m0], { from: T0 + 14 * DAY, to: T0 + 21 * DAY, now: NOW });
    const afterEdit = await packsMatchRows(p.scope);
    expect(JSON.stringify(afterEdit)).toContain(reason);

    // Another company holds no pack of these machines.
    const other = await aReportTenant(api.h, [['Day', 360, 840]]);
    expect((await storedWeekPacks(other.scope)).weeks.size).toBe(0);
  });

  /** How many week rows the plant's company holds (of one machine; starting before `before`). */
  const counter = (scope: CompanyScope) => async (machineId?: string, before?: number) => {
    let q = scope.selectFrom('rollup_weeks').select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (machineId) q = q.where('machine_id', '=', machineId);
    if (before !== undefined) q = q.where('start_at', '<', before);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  /** A cold index's cells and reasons over the whole plant equal the rows', and how many rows it took from packs. */
  const coldLoader = (p: Awaited<ReturnType<typeof plant>>) => async () => {
    const db = p.scope.db;
    useWeekIndex(db, false);
    useWeekIndex(db, true);
    const before = weekIndexReads(db);
    const span = {
      machineIds: p.machines,
      start: epochMs(T0),
      end: epochMs(T0 + 35 * DAY),
      clock: p.calendar,
    };
    const input = { ...span, cellStarts: reportIntervals(p.calendar, span, 'week').map((c) => c.start) };
    const [indexed, read] = await Promise.all([
      indexedRollupCells(p.scope, input),
      loadRollupCells(p.scope, input),
    ]);
    expect(indexed.computedAt).toEqual(read.computedAt);
    expect([...indexed.series.keys()].sort()).toEqual([...read.series.keys()].sort());
    for (const [id, s] of read.series) expect(seriesRowsOf(indexed.series.get(id)!)).toEqual(seriesRowsOf(s));
    for (const shiftIds of [null, new Set(p.shiftIds.slice(0, 1))])
      expect(await indexedDowntimeByReason(p.scope, { ...span, shiftIds })).toEqual(
        await loadRollupDayDowntimeByReason(p.scope, { ...span, shiftIds }),
      );
    const after = weekIndexReads(db);
    return { rows: after.rows - before.rows, packed: after.packed - before.packed };
  };

  it('loads the index from the packs, and from the rows of a machine whose pack does not add up', async () => {
    const p = await plant();
    const [m0, m1] = p.machines as [string, string];
    const count = counter(p.scope);
    const coldLoad = coldLoader(p);
    // The open week's rows are read as rows, the rest from packs.
    const open = companyWeekRange(p.calendar, NOW).start;
    const all = await count();
    expect(await count(undefined, open)).toBeLessThan(all);
    expect(await coldLoad()).toEqual({ rows: all, packed: await count(undefined, open) });

    // A week row of the second machine rewritten behind the writer's back (another process, by hand): its pack no
    // longer adds up, so its rows are read, the first machine's still come from its pack.
    await p.scope
      .updateTable('rollup_weeks')
      .set((eb) => ({ parts: eb('parts', '+', 7), computed_at: NOW + 7_200_000 }))
      .where('machine_id', '=', m1)
      .where('start_at', '=', T0 + 14 * DAY)
      .execute();
    expect(await coldLoad()).toEqual({ rows: all, packed: await count(m0, open) });

    // The first machine's week rows deleted by hand: its pack is not taken (no rows), nothing is from packs.
    await p.scope.deleteFrom('rollup_weeks').where('machine_id', '=', m0).execute();
    expect(await coldLoad()).toEqual({ rows: await count(m1), packed: 0 });

    // Both recomputed: the writer packs them again, and the index takes every row from the packs.
    await p.recompute(p.machines, { from: T0, to: NOW, now: NOW + 10_800_000 });
    await packsMatchRows(p.scope);
    const again = await count();
    expect(await coldLoad()).toEqual({ rows: again, packed: await count(undefined, open) });
  });

  it('writes no pack when only the open week changed, and packs the week a new one closes', async () => {
    const p = await plant();
    const [m0, m1] = p.machines as [string, string];
    const count = counter(p.scope);
    const coldLoad = coldLoader(p);
    const packs = () =>
      p.scope
        .selectFrom('rollup_week_packs')
        .select(['machine_id', 'span_start', 'pack'])
        .orderBy('machine_id')
        .orderBy('span_start')
        .execute();
    // Every stored pack marked by a byte after its end (read as before): a pack written again loses it.
    const MARK = 0xa5;
    for (const k of await packs())
      await p.scope
        .updateTable('rollup_week_packs')
        .set({ pack: Buffer.concat([Buffer.from(k.pack), Buffer.of(MARK)]) })
        .where('machine_id', '=', k.machine_id)
        .where('span_start', '=', k.span_start)
        .execute();
    const marked = async () =>
      (await packs()).map((k) => [k.machine_id, Number(k.span_start), k.pack[k.pack.length - 1] === MARK]);
    const before = await marked();
    expect(before.every(([, , m]) => m)).toBe(true);
    const rowsBefore = (await weekPacksAndRows(p.scope)).rows;

    // An ingest batch's facts in the open week (Tuesday), marked and recomputed by the rollup worker an hour later:
    // the week rows change, no pack is written, the index still equals the rows.
    await batchThenRollupRun(p, m1);
    const afterBatch = await packsMatchRows(p.scope);
    expect(afterBatch).not.toEqual(rowsBefore);
    expect(await marked()).toEqual(before);
    const open = companyWeekRange(p.calendar, NOW).start;
    expect(await coldLoad()).toEqual({ rows: await count(), packed: await count(undefined, open) });

    // The second machine recomputed into the next week (its first rows there): the week it closed is packed, its
    // pack of that span written again; the first machine's packs stay as they were.
    const next = companyWeekRange(p.calendar, NOW + 7 * DAY).start;
    await p.recompute([m1], { from: NOW - DAY, to: next + DAY, now: next + DAY });
    const after = await marked();
    expect(after.filter(([id]) => id === m0)).toEqual(before.filter(([id]) => id === m0));
    expect(after.filter(([id]) => id === m1).map(([, at, m]) => [at, m])).toEqual([
      [204 * PACK_SPAN_MS, true],
      [205 * PACK_SPAN_MS, false],
    ]);
    await packsMatchRows(p.scope);
    expect((await count(m1)) - (await count(m1, next))).toBeGreaterThan(0);
    expect(await coldLoad()).toEqual({
      rows: await count(),
      packed: (await count(m0, open)) + (await count(m1, next)),
    });
  });

  it('reads the packs stored before the open bound (version 1), and writes them anew as it meets them', async () => {
    const p = await plant();
    const [m0, m1] = p.machines as [string, string];
    const count = counter(p.scope);
    const coldLoad = coldLoader(p);
    await writeVersionOnePacks(p.scope);
    await packsMatchRows(p.scope);
    expect(await coldLoad()).toEqual({ rows: await count(), packed: await count() });

    // The open week of the second machine recomputed: its latest span's pack is written with the bound, the one
    // before stays a version 1 pack; the first machine's all stay.
    await p.recompute([m1], { from: NOW - DAY, to: NOW, now: NOW + 3_600_000 });
    await packsMatchRows(p.scope);
    const open = companyWeekRange(p.calendar, NOW).start;
    expect(await coldLoad()).toEqual({
      rows: await count(),
      packed: (await count(m0)) + (await count(m1, open)),
    });
  });
});
