import { describe, expect, it } from 'vitest';
import type { DurationMs, EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { Bucket, CompanyCalendar } from '../calendar/intervals';
import { reportIntervals, rollupBuckets } from '../calendar/intervals';
import type { ShiftDefinition } from '../calendar/shifts';
import type { MachineCycle, StateInterval } from '../derive/outputs';
import type { MachineState } from '../machine-state';
import { efficiency } from '../metrics/oee';
import { plannedValue } from '../metrics/planned';
import type { PartAdjustmentFact, RunStandards } from '../metrics/production';
import { applyStandards } from '../metrics/production';
import type { DowntimeAnnotation, RollupSource } from './rollup';
import {
  addMeasuresInto,
  buildRollups,
  efficiencyTotals,
  efficiencyTotalsSorted,
  NO_DATA_REASON,
  SETUP_REASON,
  sumRollups,
  UNCATEGORIZED_REASON,
} from './rollup';

const t = (iso: string) => Date.parse(iso) as EpochMs;
const min = (m: number) => m * MINUTE_MS;

describe('METRICS.md §7 worked example through derivation → rollups → report', () => {
  // One 480-minute shift 06:00–14:00 (UTC company) on 2024-01-15; the rest of the day the machine is off.
  const shift: ShiftDefinition = {
    id: 'first',
    name: 'First',
    versions: [
      {
        startoffsetminutes: 360,
        endoffsetminutes: 840,
        byweekday: [0, 1, 2, 3, 4],
        effectivedate: '2024-01-01',
      },
    ],
  };
  const calendar: CompanyCalendar = { timezone: 'UTC', shifts: [shift] };
  const dayStart = t('2024-01-15T00:00:00Z');
  const s0 = dayStart + 6 * HOUR_MS;
  const at = (m: number) => (s0 + min(m)) as EpochMs;

  // Timeline in shift minutes: 2 breaks of 15 min and a 30 min meal (planned, 60 min), 47 min of unplanned
  // stops, the rest (373 min) in cycle.
  const pieces: [number, MachineState, string | null][] = [
    [100, 'ACTIVE', null],
    [15, 'INACTIVE', 'break'],
    [90, 'ACTIVE', null],
    [30, 'INACTIVE', 'meal'],
    [20, 'INACTIVE', null], // unplanned, uncategorized
    [83, 'ACTIVE', null],
    [15, 'INACTIVE', 'break'],
    [27, 'FAULT', 'jam'], // unplanned, categorized as an unplanned reason
    [100, 'ACTIVE', null],
  ];
  const intervals: StateInterval[] = [
    { start: dayStart, end: s0 as EpochMs, state: 'UNAVAILABLE', reason: 'DISCONNECTED' },
  ];
  const annotations: DowntimeAnnotation[] = [];
  const types = {
    break: { plannedBehavior: 'planned' as const },
    meal: { plannedBehavior: 'plannedWithLimit' as const, plannedLimitMs: min(30) },
    jam: { plannedBehavior: 'unplanned' as const },
  };
  let m = 0;
  for (const [len, state, reason] of pieces) {
    intervals.push({ start: at(m), end: at(m + len), state, reason: null });
    if (reason) {
      const type = types[reason as keyof typeof types];
      annotations.push({
        start: at(m),
        end: at(m + len),
        reasonId: reason,
        countsAsPlanned: plannedValue(type, min(len)).countsAsPlanned,
      });
    }
    m += len;
  }
  intervals.push({
    start: at(480),
    end: (dayStart + 24 * HOUR_MS) as EpochMs,
    state: 'UNAVAILABLE',
    reason: 'DISCONNECTED',
  });

  // 19,271 cycles of ideal 1.0 s, spread over the ACTIVE time.
  const activeEnds: number[] = [];
  for (const iv of intervals.filter((i) => i.state === 'ACTIVE')) activeEnds.push(iv.start, iv.end);
  const machineCycles: MachineCycle[] = [];
  const activeMs = min(373);
  for (let k = 0; k < 19_271; k++) {
    // k-th cycle ends at a fraction of the active time, mapped back onto the active intervals.
    let offset = Math.floor(((k + 1) * activeMs) / 19_271) - 1;
    let end = 0;
    for (let j = 0; j < activeEnds.length; j += 2) {
      const len = (activeEnds[j + 1] as number) - (activeEnds[j] as number);
      if (offset < len) {
        end = (activeEnds[j] as number) + offset;
        break;
      }
      offset -= len;
    }
    machineCycles.push({
      start: end as EpochMs,
      end: end as EpochMs,
      duration: 0 as DurationMs,
      count: 1,
      source: 'part_count',
      setup: false,
    });
  }
  const run: RunStandards = {
    id: 'run',
    jobId: 'job',
    start: s0 as EpochMs,
    end: at(480),
    productionStart: s0 as EpochMs,
    expectedCycleTime: 1000,
    idealCycleTime: 1000,
    partBehavior: 'one',
    startInSetup: 'none',
  };
  // 423 rejects, removed from good parts (count 0).
  const rejects: PartAdjustmentFact[] = [
    { adjustmenttime: at(200), count: 0, scrapcount: 400, rejectBehavior: 'scrap', categoryId: 'burr' },
    { adjustmenttime: at(470), count: 0, scrapcount: 23, rejectBehavior: 'nonconform', categoryId: 'size' },
  ];
  const source: RollupSource = {
    machineId: 'm1',
    intervals,
    cycles: applyStandards(machineCycles, [run]),
    adjustments: rejects,
    annotations,
    runs: [run],
  };
  const day = { start: dayStart, end: (dayStart + 24 * HOUR_MS) as EpochMs };
  const rollups = buildRollups(source, rollupBuckets(calendar, day));
  const close = (x: number | null, pct: number) =>
    expect(Math.abs((x as number) * 100 - pct)).toBeLessThan(0.01);

  it('reproduces A 88.81 %, P 86.11 %, Q 97.80 %, OEE 74.79 % and the day OOE / TEEP', () => {
    const totals = efficiencyTotals(sumRollups(rollups, day));
    expect(totals).toMatchObject({
      shiftTimeMs: min(480),
      plannedDowntimeMs: min(60),
      runTimeMs: min(373),
      totalParts: 19_271,
      rejectedParts: 423,
    });
    const e = efficiency(totals, { shiftFiltered: false });
    close(e.availability, 88.81);
    close(e.performance, 86.11);
    close(e.quality, 97.8);
    close(e.oee, 74.79);
    const pq = (19_271 / 22_380) * (18_848 / 19_271);
    close(e.ooe, (373 / 480) * pq * 100);
    close(e.teep, (373 / 1440) * pq * 100);
  });

  it('the same through the sorted fast path, by shift filter, and hour by hour', () => {
    expect(efficiencyTotalsSorted(rollups, day)).toEqual(efficiencyTotals(sumRollups(rollups, day)));
    const filtered = efficiency(
      efficiencyTotals(sumRollups(rollups, { ...day, shiftIds: new Set(['first']) })),
      { shiftFiltered: true },
    );
    close(filtered.oee, 74.79);
    expect([filtered.ooe, filtered.teep]).toEqual([null, null]);
    const hours = reportIntervals(calendar, day, 'hour').map((h) => sumRollups(rollups, h));
    const summed = hours.reduce((acc, h) => addMeasuresInto(acc, h.inShift), sumRollups([], day).inShift);
    expect(summed).toEqual(sumRollups(rollups, day).inShift);
  });

  it('keeps downtime by reason and rejects by type', () => {
    const sum = sumRollups(rollups, day).all;
    expect(sum.downtimeByReason).toEqual({
      break: { plannedMs: min(30), unplannedMs: 0 },
      meal: { plannedMs: min(30), unplannedMs: 0 },
      jam: { plannedMs: 0, unplannedMs: min(27) },
      [UNCATEGORIZED_REASON]: { plannedMs: 0, unplannedMs: min(20) },
      // The off hours: the machine is disconnected (UNAVAILABLE), No data (METRICS.md §1).
      [NO_DATA_REASON]: { plannedMs: 0, unplannedMs: min(960) },
    });
    expect(sum.rejectsByType).toEqual({ burr: 400, size: 23 });
  });
});

describe('rollup rules', () => {
  const buckets: Bucket[] = [
    { start: 0 as EpochMs, end: 1000 as EpochMs, shiftId: null },
    { start: 1000 as EpochMs, end: 2000 as EpochMs, shiftId: 's' },
  ];
  const iv = (start: number, end: number, state: MachineState): StateInterval => ({
    start: start as EpochMs,
    end: end as EpochMs,
    state,
    reason: null,
  });

  it('setup of a run started in planned setup mode is planned downtime; otherwise unplanned', () => {
    const run = (start: number, end: number, mode: RunStandards['startInSetup']) => ({
      start: start as EpochMs,
      end: end as EpochMs,
      startInSetup: mode,
      expectedCycleTime: 1,
      idealCycleTime: 1,
    });
    const rows = buildRollups(
      {
        machineId: 'm',
        intervals: [iv(0, 2000, 'SETUP')],
        runs: [run(0, 1500, 'planned'), run(1500, 3000, 'unplanned')],
      },
      buckets,
    );
    expect(
      rows.map((r) => [r.plannedDowntimeMs, r.unplannedDowntimeMs, r.downtimeByReason[SETUP_REASON]]),
    ).toEqual([
      [1000, 0, { plannedMs: 1000, unplannedMs: 0 }],
      [500, 500, { plannedMs: 500, unplannedMs: 500 }],
    ]);
  });

  it('ACTIVE time under a planned annotation is run time, not downtime', () => {
    const rows = buildRollups(
      {
        machineId: 'm',
        intervals: [iv(0, 2000, 'ACTIVE')],
        annotations: [
          { start: 0 as EpochMs, end: 2000 as EpochMs, reasonId: 'lunch', countsAsPlanned: true },
        ],
      },
      buckets,
    );
    expect(rows.map((r) => [r.stateMs.ACTIVE, r.plannedDowntimeMs])).toEqual([
      [1000, 0],
      [1000, 0],
    ]);
  });

  it('runs without standards, and cycles outside runs, set minExpectedPartTime to 0 (the warning)', () => {
    const cycle = (end: number): MachineCycle => ({
      start: end as EpochMs,
      end: end as EpochMs,
      duration: 0 as DurationMs,
      count: 1,
      source: 'part_count',
      setup: false,
    });
    const run: RunStandards = {
      id: 'r',
      jobId: 'j',
      start: 1000 as EpochMs,
      end: null,
      productionStart: null,
      expectedCycleTime: 30_000,
      idealCycleTime: 20_000,
      partBehavior: 'one',
      startInSetup: 'none',
    };
    const rows = buildRollups(
      {
        machineId: 'm',
        intervals: [],
        cycles: applyStandards([cycle(500), cycle(1500)], [run]),
        runs: [run],
      },
      buckets,
    );
    expect(rows.map((r) => r.minExpectedPartTime)).toEqual([0, 30_000]);
  });

  it('standardRunMs is the ACTIVE time of runs with an ideal cycle time (decision 1002)', () => {
    const run = (start: number, end: number | null, idealCycleTime: number) => ({
      start: start as EpochMs,
      end: end as EpochMs | null,
      startInSetup: 'none' as const,
      expectedCycleTime: 1,
      idealCycleTime,
    });
    const rows = buildRollups(
      {
        machineId: 'm',
        intervals: [iv(0, 600, 'ACTIVE'), iv(600, 900, 'INACTIVE'), iv(900, 2000, 'ACTIVE')],
        // no run before 300, a run without ideal 300–1200, with one 1200 on
        runs: [run(300, 1200, 0), run(1200, null, 10)],
      },
      buckets,
    );
    expect(rows.map((r) => [r.stateMs.ACTIVE, r.standardRunMs])).toEqual([
      [700, 0],
      [1000, 800],
    ]);
  });

  it('a report range that cuts through a bucket is flagged as not aligned', () => {
    const rows = buildRollups({ machineId: 'm', intervals: [iv(0, 2000, 'ACTIVE')] }, buckets);
    expect(sumRollups(rows, { start: 0 as EpochMs, end: 2000 as EpochMs }).aligned).toBe(true);
    expect(sumRollups(rows, { start: 0 as EpochMs, end: 1500 as EpochMs }).aligned).toBe(false);
  });
});
