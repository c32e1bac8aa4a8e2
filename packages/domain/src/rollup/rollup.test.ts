import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DurationMs, EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { Bucket, CompanyCalendar } from '../calendar/intervals';
import { reportIntervals, rollupBuckets } from '../calendar/intervals';
import type { ShiftDefinition } from '../calendar/shifts';
import { shiftOccurrences } from '../calendar/shifts';
import type { MachineCycle, Span, StateInterval } from '../derive/outputs';
import type { MachineState } from '../machine-state';
import { MACHINE_STATES } from '../machine-state';
import type { EfficiencyTotals } from '../metrics/oee';
import { efficiency } from '../metrics/oee';
import { plannedValue } from '../metrics/planned';
import type { PartAdjustmentFact, ProductionCycle, RunStandards } from '../metrics/production';
import { applyStandards } from '../metrics/production';
import type { DowntimeAnnotation, Rollup, RollupSource } from './rollup';
import {
  addMeasuresInto,
  buildRollups,
  efficiencyTotals,
  efficiencyTotalsSeries,
  efficiencyTotalsSorted,
  inShiftDowntimeByReason,
  knownStateMsSeries,
  packRollups,
  packSeriesRows,
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
      [UNCATEGORIZED_REASON]: { plannedMs: 0, unplannedMs: min(20) + min(960) }, // + the off hours
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

// ---------------------------------------------------------------------------------------------------------
// Property: for any bucketing, the sum of rollups equals a direct computation.

const SECOND = 1000;
const RANGE_S = 4 * 3600; // a 4-hour range, whole seconds so a per-second reference is exact
const R0 = Date.UTC(2024, 0, 15, 4, 0, 0);
const sec = (s: number) => (R0 + s * SECOND) as EpochMs;

interface Scenario {
  source: RollupSource;
  shifts: { start: number; end: number; id: string }[];
  cuts: number[];
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    statePoints: fc.uniqueArray(fc.integer({ min: 1, max: RANGE_S - 1 }), { maxLength: 30 }),
    states: fc.array(fc.constantFrom(...MACHINE_STATES), { minLength: 31, maxLength: 31 }),
    ann: fc.array(
      fc.tuple(
        fc.integer({ min: -600, max: RANGE_S }),
        fc.integer({ min: 1, max: 3600 }),
        fc.constantFrom('a', 'b', null),
        fc.boolean(),
      ),
      { maxLength: 6 },
    ),
    spin: fc.array(fc.tuple(fc.integer({ min: 0, max: RANGE_S }), fc.integer({ min: 1, max: 1800 })), {
      maxLength: 5,
    }),
    cycles: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: RANGE_S + 100 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 90 }),
      ),
      { maxLength: 30 },
    ),
    adj: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: RANGE_S - 1 }),
        fc.integer({ min: -3, max: 5 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom<'scrap' | 'nonconform' | null>('scrap', 'nonconform', null),
      ),
      { maxLength: 8 },
    ),
    shiftPoints: fc.uniqueArray(fc.integer({ min: 0, max: RANGE_S }), { maxLength: 6 }),
    setupRun: fc.option(
      fc.tuple(fc.integer({ min: 0, max: RANGE_S }), fc.integer({ min: 1, max: RANGE_S })),
      { nil: null },
    ),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: RANGE_S - 1 }), { maxLength: 40 }),
  })
  .map((g): Scenario => {
    const points = [0, ...[...g.statePoints].sort((a, b) => a - b), RANGE_S];
    const intervals: StateInterval[] = [];
    for (let i = 0; i + 1 < points.length; i++)
      intervals.push({
        start: sec(points[i] as number),
        end: sec(points[i + 1] as number),
        state: g.states[i] ?? 'ACTIVE',
        reason: null,
      });
    const annotations: DowntimeAnnotation[] = [];
    let covered = -Infinity;
    for (const [s, len, reason, planned] of [...g.ann].sort((a, b) => a[0] - b[0])) {
      const start = Math.max(s, covered);
      if (s + len <= start) continue;
      annotations.push({ start: sec(start), end: sec(s + len), reasonId: reason, countsAsPlanned: planned });
      covered = s + len;
    }
    const spindle: Span[] = [];
    covered = -Infinity;
    for (const [s, len] of [...g.spin].sort((a, b) => a[0] - b[0])) {
      const start = Math.max(s, covered);
      if (s + len <= start) continue;
      spindle.push({ start: sec(start), end: sec(s + len) });
      covered = s + len;
    }
    const cycles: ProductionCycle[] = g.cycles.map(([end, parts, ideal]) => ({
      start: sec(end),
      end: sec(end),
      duration: 0 as DurationMs,
      count: 1,
      source: 'part_count',
      setup: false,
      runId: ideal === 0 ? null : 'r',
      jobId: null,
      parts,
      expectedCycleTime: ideal * SECOND,
      idealCycleTime: ideal * SECOND,
      idealMs: ideal * SECOND,
      expectedMs: ideal * SECOND,
    }));
    const adjustments: PartAdjustmentFact[] = g.adj.map(([s, count, scrap, behavior]) => ({
      adjustmenttime: sec(s),
      count,
      scrapcount: behavior ? scrap : 0,
      rejectBehavior: behavior,
      categoryId: behavior === 'scrap' ? 'x' : null,
    }));
    const sp = [...g.shiftPoints].sort((a, b) => a - b);
    const shifts: Scenario['shifts'] = [];
    for (let i = 0; i + 1 < sp.length; i += 2)
      shifts.push({ start: sp[i] as number, end: sp[i + 1] as number, id: `s${i % 4}` });
    const runs = g.setupRun
      ? [
          {
            start: sec(g.setupRun[0]),
            end: sec(g.setupRun[0] + g.setupRun[1]),
            startInSetup: 'planned' as const,
            expectedCycleTime: 5,
            // Decision 1002: half the runs have no ideal cycle time (their run time is out of P).
            idealCycleTime: g.setupRun[1] % 2 === 0 ? 0 : 5,
          },
        ]
      : [];
    return {
      source: {
        machineId: 'm',
        intervals,
        annotations,
        spindle,
        inCut: spindle.slice(0, 1),
        cycles,
        adjustments,
        runs,
      },
      shifts,
      cuts: g.cuts,
    };
  });

function bucketsOf(s: Scenario): Bucket[] {
  const edges = new Set<number>([0, RANGE_S, ...s.cuts]);
  for (const x of s.shifts) edges.add(x.start).add(x.end);
  const sorted = [...edges].sort((a, b) => a - b);
  const out: Bucket[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i] as number;
    const b = sorted[i + 1] as number;
    if (b <= a) continue;
    const shift = s.shifts.find((x) => x.start <= a && b <= x.end);
    out.push({ start: sec(a), end: sec(b), shiftId: shift ? shift.id : null });
  }
  return out;
}

/** Reference: second by second, straight from the definitions (METRICS.md §2–§3). */
function direct(
  s: Scenario,
  shiftIds: ReadonlySet<string> | null,
): { totals: EfficiencyTotals; byReason: Record<string, [number, number]> } {
  const within = <T extends { start: number; end: number }>(spans: readonly T[], at: number): T | undefined =>
    spans.find((x) => x.start <= at && at < x.end);
  const totals: EfficiencyTotals = {
    allTimeMs: 0,
    shiftTimeMs: 0,
    plannedDowntimeMs: 0,
    runTimeMs: 0,
    idealTimeMs: 0,
    standardRunTimeMs: 0,
    totalParts: 0,
    rejectedParts: 0,
    inCycleMs: 0,
    spindleMs: 0,
    inCutMs: 0,
    minExpectedPartTime: null,
  };
  const byReason: Record<string, [number, number]> = {};
  const shiftAt = (x: number) => s.shifts.find((sh) => sh.start <= x && x < sh.end);
  const selected = (x: number) => {
    const sh = shiftAt(x);
    return shiftIds === null || (sh !== undefined && shiftIds.has(sh.id));
  };
  for (let x = 0; x < RANGE_S; x++) {
    if (!selected(x)) continue;
    const at = sec(x);
    const inShift = shiftAt(x) !== undefined;
    const state = within(s.source.intervals, at)?.state as MachineState;
    totals.allTimeMs += SECOND;
    if (state === 'ACTIVE') totals.inCycleMs += SECOND;
    if (within(s.source.spindle ?? [], at)) totals.spindleMs += SECOND;
    if (within(s.source.inCut ?? [], at)) totals.inCutMs += SECOND;
    if (inShift) {
      totals.shiftTimeMs += SECOND;
      if (state === 'ACTIVE') totals.runTimeMs += SECOND;
      const standard = (s.source.runs ?? [])
        .filter((r) => r.idealCycleTime > 0)
        .map((r) => ({ start: r.start, end: r.end ?? Infinity }));
      if (state === 'ACTIVE' && within(standard, at)) totals.standardRunTimeMs += SECOND;
    }
    if (state === 'ACTIVE') continue;
    let reason: string;
    let planned: boolean;
    if (state === 'SETUP') {
      reason = SETUP_REASON;
      planned =
        within(
          (s.source.runs ?? []).map((r) => ({ start: r.start, end: r.end ?? Infinity })),
          at,
        ) !== undefined;
    } else {
      const a = within(s.source.annotations ?? [], at);
      reason = a ? (a.reasonId ?? UNCATEGORIZED_REASON) : UNCATEGORIZED_REASON;
      planned = a ? a.countsAsPlanned : false;
    }
    const r = (byReason[reason] ??= [0, 0]);
    r[planned ? 0 : 1] += SECOND;
    if (planned && inShift) totals.plannedDowntimeMs += SECOND;
  }
  for (const c of s.source.cycles ?? []) {
    const x = (c.end - R0) / SECOND;
    if (x >= RANGE_S || !selected(x)) continue;
    totals.minExpectedPartTime = Math.min(
      totals.minExpectedPartTime ?? Infinity,
      c.runId === null ? 0 : c.expectedCycleTime,
    );
    if (shiftAt(x)) {
      totals.idealTimeMs += c.idealMs;
      totals.totalParts += c.parts;
    }
  }
  for (const r of s.source.runs ?? []) {
    for (let x = (r.start - R0) / SECOND; x < Math.min(RANGE_S, ((r.end ?? Infinity) - R0) / SECOND); x++) {
      if (selected(x)) {
        totals.minExpectedPartTime = Math.min(totals.minExpectedPartTime ?? Infinity, r.expectedCycleTime);
        break;
      }
    }
  }
  for (const a of s.source.adjustments ?? []) {
    const x = (a.adjustmenttime - R0) / SECOND;
    if (!selected(x) || !shiftAt(x)) continue;
    totals.totalParts += a.count;
    if (a.rejectBehavior) totals.rejectedParts += a.scrapcount;
  }
  return { totals, byReason };
}

describe('rollup properties', () => {
  it('rollup sums equal the direct computation for any bucketing, with or without a shift filter', () => {
    fc.assert(
      fc.property(scenarioArb, fc.boolean(), (s, filtered) => {
        const rows = buildRollups(s.source, bucketsOf(s));
        const shiftIds = filtered ? new Set(['s0', 's2']) : null;
        const range = { start: sec(0), end: sec(RANGE_S), shiftIds };
        const sum = sumRollups(rows, range);
        const want = direct(s, shiftIds);
        expect(efficiencyTotals(sum)).toEqual(want.totals);
        expect(efficiencyTotalsSorted(rows, range)).toEqual(want.totals);
        expect(efficiencyTotalsSeries(packRollups([...rows].reverse()), range)).toEqual(want.totals);
        const byReason = Object.fromEntries(
          Object.entries(sum.all.downtimeByReason).map(([k, v]) => [k, [v.plannedMs, v.unplannedMs]]),
        );
        expect(byReason).toEqual(want.byReason);
        // Decision 0804: the packed columns as a database sums them (SeriesRow), the state time and the
        // in-shift downtime by reason without the other sums.
        const packed = packRollups(rows);
        const asRows = packSeriesRows(
          rows.map((r, i) => [
            r.shiftId,
            r.start,
            r.end,
            packed.duration[i]!,
            packed.active[i]!,
            packed.known[i]!,
            packed.spindle[i]!,
            packed.inCut[i]!,
            packed.plannedDowntime[i]!,
            packed.ideal[i]!,
            packed.total[i]!,
            packed.rejected[i]!,
            r.minExpectedPartTime,
            packed.standardRun[i]!,
          ]),
        );
        expect(asRows).toEqual(packed);
        expect(knownStateMsSeries(packed, range)).toBe(
          Object.values(sum.all.stateMs).reduce((t, ms) => t + ms, 0),
        );
        expect(inShiftDowntimeByReason(rows, range)).toEqual(sum.inShift.downtimeByReason);
      }),
      { numRuns: 40 },
    );
  });

  it('summing is order independent and two bucketings give the same totals', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.uniqueArray(fc.integer({ min: 1, max: RANGE_S - 1 }), { maxLength: 20 }),
        (s, otherCuts) => {
          const a = buildRollups(s.source, bucketsOf(s));
          const b = buildRollups(s.source, bucketsOf({ ...s, cuts: otherCuts }));
          const range = { start: sec(0), end: sec(RANGE_S) };
          expect(sumRollups([...a].reverse(), range)).toEqual(sumRollups(a, range));
          expect(efficiencyTotals(sumRollups(b, range))).toEqual(efficiencyTotals(sumRollups(a, range)));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('calendar buckets: a week of rollups summed by day equals the week, in a DST week', () => {
    const chicago: CompanyCalendar = {
      timezone: 'America/Chicago',
      shifts: [
        {
          id: 'n',
          name: 'Night',
          versions: [
            {
              startoffsetminutes: 1320,
              endoffsetminutes: 360,
              byweekday: [0, 1, 2, 3, 4, 5, 6],
              effectivedate: '2024-01-01',
            },
          ],
        },
      ],
    };
    const week = { start: t('2024-03-04T06:00:00Z'), end: t('2024-03-11T05:00:00Z') };
    const intervals: StateInterval[] = [];
    for (let x: number = week.start, k = 0; x < week.end; x += 7 * MINUTE_MS, k++)
      intervals.push({
        start: x as EpochMs,
        end: Math.min(x + 7 * MINUTE_MS, week.end) as EpochMs,
        state: k % 3 ? 'ACTIVE' : 'INACTIVE',
        reason: null,
      });
    const rows: Rollup[] = buildRollups({ machineId: 'm', intervals }, rollupBuckets(chicago, week));
    const whole = efficiencyTotals(sumRollups(rows, week));
    expect(whole.allTimeMs).toBe(167 * HOUR_MS);
    const byDay = reportIntervals(chicago, week, 'day').map((d) => efficiencyTotals(sumRollups(rows, d)));
    expect(byDay.reduce((s, d) => s + d.runTimeMs, 0)).toBe(whole.runTimeMs);
    const nightTotal = shiftOccurrences(chicago, chicago.shifts, week.start, week.end).reduce(
      (s, o) => s + o.end - o.start,
      0,
    );
    expect(whole.shiftTimeMs).toBe(nightTotal);
  });
});
