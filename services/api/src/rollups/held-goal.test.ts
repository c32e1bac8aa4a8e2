import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveGoal } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import {
  loadHeldRollups,
  loadRollupSource,
  loadRollupSources,
  markRollupsDirty,
  recomputeRollups,
} from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, someStates } from '../testing/downtime-builders';
import { aJobWithRun, someCycles } from '../testing/report-plant';
import { dashboardGoals, figuresContext } from '../services/dashboard-figures';
import { openRunsOn } from '../repositories/dashboard';
import { goalRun } from '../services/workcenter';

// Decision 1155: a tile's goal sums the stored hourly rows that still hold and the facts only before them (from
// the run's start to the first whole hour after its production start) and after them (the fresh tail). It must
// be the goal summed from the facts alone: across hours and a company day start, with a stored hour whose facts
// changed and are marked but not recomputed yet, and with hours computed while a plannedWithLimit downtime was
// within its limit that it has passed since (nothing marks that). Both dialects.

const MIN = 60_000;
const HOUR = 60 * MIN;
const MON = Date.parse('2024-01-15T00:00:00Z'); // a Monday, company days from midnight UTC
const TUE = MON + 24 * HOUR;
const START = MON + 20 * HOUR + 10 * MIN; // the run starts mid-hour, in setup until 20:25
const SETUP_END = START + 15 * MIN;
const COMPUTED = TUE + 2 * HOUR; // the rollup worker's last recompute
const NOW = TUE + 3 * HOUR;

describe.each(DIALECTS)('the tile goal from stored rows and a fresh tail on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('equals the goal from the facts alone, and reads facts where a stored hour does not hold', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const scope = companyScope(t.db, company.id);
    const planned = await aDowntimeReason(t.db, company, { name: 'Meeting', plannedBehavior: 'planned' });
    const limited = await aDowntimeReason(t.db, company, {
      name: 'Break',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 30 * MIN,
    });
    const names = ['Clean', 'Marked', 'Limited'] as const;
    const ids: Record<(typeof names)[number], string> = { Clean: '', Marked: '', Limited: '' };
    for (const name of names) {
      const id = (ids[name] = await aMachine(t.db, company, { name }));
      await aJobWithRun(scope, {
        machineId: id,
        name: `Job ${name}`,
        expected: MIN,
        ideal: MIN,
        jobCreatedAt: START,
        start: START,
        setupEnd: SETUP_END,
        end: null,
      });
      const stopAt = name === 'Limited' ? TUE + 110 * MIN : TUE + HOUR;
      await someStates(t.db, company, id, [
        [START, SETUP_END, 'SETUP'],
        [SETUP_END, stopAt, 'ACTIVE'],
        [stopAt, name === 'Limited' ? null : stopAt + 20 * MIN, 'INACTIVE'],
        ...(name === 'Limited' ? [] : ([[stopAt + 20 * MIN, null, 'ACTIVE']] as const)),
      ]);
      await anAnnotation(t.db, company, {
        machineId: id,
        start: stopAt,
        typeId: name === 'Limited' ? limited.id : planned.id,
      });
      // A part every 7 minutes from the run's start (setup included) to the worker's recompute.
      const ends = Array.from(
        { length: Math.floor((COMPUTED - START) / (7 * MIN)) },
        (_, k) => START + (k + 1) * 7 * MIN,
      );
      await someCycles(
        scope,
        id,
        ends.map((end) => ({ start: end - 5 * MIN, end })),
      );
      await recomputeRollups(t.db, {
        companyId: company.id,
        machineId: id,
        from: START,
        to: COMPUTED,
        now: COMPUTED,
      });
    }
    // Another company's machine of the Limited one's id (decision 1130): its run and its annotation soon after the
    // break end a period of its own, never this company's break, which is past its limit.
    const theirs = await aCompany(t.db, { timezone: 'UTC' });
    await someStates(t.db, theirs, ids.Limited, [
      [TUE + 100 * MIN, TUE + 115 * MIN, 'INACTIVE'],
      [TUE + 115 * MIN, null, 'ACTIVE'],
    ]);
    const theirReason = await aDowntimeReason(t.db, theirs, { name: 'Theirs' });
    await anAnnotation(t.db, theirs, {
      machineId: ids.Limited,
      start: TUE + 112 * MIN,
      end: TUE + 115 * MIN,
      typeId: theirReason.id,
    });
    await t.db.deleteFrom('rollup_dirty').execute();
    // After the recompute: the fresh tail's parts, and a late part of Monday 23:31 with its mark only.
    for (const id of Object.values(ids))
      await someCycles(scope, id, [
        { start: COMPUTED + 10 * MIN, end: COMPUTED + 15 * MIN },
        { start: COMPUTED + 40 * MIN, end: COMPUTED + 45 * MIN },
      ]);
    await someCycles(scope, ids.Marked, [
      { start: MON + 23 * HOUR + 29 * MIN, end: MON + 23 * HOUR + 31 * MIN },
    ]);
    await markRollupsDirty(t.db, {
      companyId: company.id,
      machineId: ids.Marked,
      from: MON + 23 * HOUR + 31 * MIN,
      now: NOW - MIN,
    });

    const machineIds = Object.values(ids);
    const runs = await openRunsOn(scope, machineIds);
    const held = await loadHeldRollups(
      t.db,
      company.id,
      machineIds.map((id) => ({ machineId: id, from: SETUP_END })),
      NOW,
    );
    // Whole hours from 21:00 across the day start: to the recompute; before the marked hour; before the hour
    // computed while the break was within its limit.
    expect(held.get(ids.Clean)).toMatchObject({ from: MON + 21 * HOUR, to: COMPUTED });
    expect(held.get(ids.Marked)).toMatchObject({ from: MON + 21 * HOUR, to: MON + 23 * HOUR });
    expect(held.get(ids.Limited)).toMatchObject({ from: MON + 21 * HOUR, to: TUE + HOUR });
    // Another company asking for these machines reads none of their rows.
    const other = await aCompany(t.db, { timezone: 'UTC' });
    const foreign = await loadHeldRollups(
      t.db,
      other.id,
      machineIds.map((id) => ({ machineId: id, from: SETUP_END })),
      NOW,
    );
    expect(foreign.size).toBe(0);
    // Each machine from its own start (decision 1202: on PostgreSQL one list of machines and starts): read together
    // as each alone, no row before its start.
    const froms = [
      { machineId: ids.Clean, from: SETUP_END },
      { machineId: ids.Marked, from: MON + 22 * HOUR },
      { machineId: ids.Limited, from: TUE },
    ];
    const together = await loadHeldRollups(t.db, company.id, froms, NOW);
    expect(together.get(ids.Marked)).toMatchObject({ from: MON + 22 * HOUR, to: MON + 23 * HOUR });
    expect(together.get(ids.Limited)).toMatchObject({ from: TUE, to: TUE + HOUR });
    for (const want of froms)
      expect(together.get(want.machineId), want.machineId).toEqual(
        (await loadHeldRollups(t.db, company.id, [want], NOW)).get(want.machineId),
      );
    // A goal's heads (`within`), each machine's cycles inside its own span only (decision 1202: on SQLite one
    // `values` list of machines and spans): read together as each alone, and no cycle outside its span.
    const spans = new Map([
      [ids.Clean, { start: START, end: MON + 22 * HOUR }],
      [ids.Marked, { start: MON + 22 * HOUR, end: TUE + HOUR }],
      [ids.Limited, { start: TUE, end: NOW }],
    ]);
    const heads = (within: typeof spans) =>
      loadRollupSources(
        scope,
        [...within.keys()],
        { start: START, end: NOW },
        { now: NOW, spans: false, within },
      );
    const listed = await heads(spans);
    for (const [id, span] of spans) {
      const cycles = listed.get(id)!.cycles!;
      expect(cycles.length, id).toBeGreaterThan(0);
      expect(
        cycles.every((c) => c.end >= span.start && c.end < span.end),
        id,
      ).toBe(true);
      const alone = (await heads(new Map([[id, span]]))).get(id)!;
      expect(cycles, id).toEqual(alone.cycles);
      expect(listed.get(id)!.adjustments, id).toEqual(alone.adjustments);
    }

    const goals = await dashboardGoals(scope, machineIds, runs, NOW);
    const { calendar, limits } = await figuresContext(scope);
    for (const id of machineIds) {
      const source = await loadRollupSource(scope, id, { start: START, end: NOW }, { now: NOW });
      const want = liveGoal({ calendar, source, run: goalRun(runs.get(id)), now: NOW, limits });
      expect(goals.get(id), id).toMatchObject({
        scheduled: true,
        expectedParts: want.expectedParts,
        actualParts: want.goodParts,
        percent: want.percent,
        aheadBehind: want.aheadBehind,
        productionRuntimeMs: want.productionRuntimeMs,
        status: want.status,
      });
    }
    // The figures themselves: the break passed its limit (unplanned), the meeting is planned; the late part counts.
    const limitedGoal = goals.get(ids.Limited)!;
    expect(limitedGoal.productionRuntimeMs).toBe(NOW - SETUP_END);
    expect(goals.get(ids.Clean)!.productionRuntimeMs).toBe(NOW - SETUP_END - 20 * MIN);
    expect(goals.get(ids.Marked)!.actualParts).toBe(goals.get(ids.Clean)!.actualParts! + 1);
  });
});
