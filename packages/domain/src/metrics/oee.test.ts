import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MINUTE_MS } from '../brand';
import type { EfficiencyTotals } from './oee';
import {
  addTotals,
  availability,
  efficiency,
  emptyTotals,
  MISSING_STANDARDS_WARNING,
  performance,
  quality,
  showsMissingStandardsWarning,
} from './oee';
import { plannedLabel, plannedValue } from './planned';
import { expectedPartsNow, partsAheadBehind, percentOfGoal, productionRuntimeMs } from './parts-goal';
import { applyStandards, partCountMultiplier, partsAfterCycles, qualityCounts } from './production';
import type { RunStandards } from './production';
import type { MachineCycle } from '../derive/outputs';
import type { DurationMs, EpochMs } from '../brand';

const min = (m: number) => m * MINUTE_MS;
const totals = (t: Partial<EfficiencyTotals>): EfficiencyTotals => ({ ...emptyTotals(), ...t });

/** Within 0.01 percentage points. */
const pct = (x: number | null) => (x === null ? null : x * 100);
function expectPct(actual: number | null, expected: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs((pct(actual) as number) - expected)).toBeLessThan(0.01);
}

describe('METRICS.md §7 worked example (oee.com)', () => {
  // 480-minute shift, 60 min planned breaks, 47 min unplanned downtime, ideal 1.0 s, 19,271 parts, 423 rejects.
  const shift = totals({
    allTimeMs: min(480),
    shiftTimeMs: min(480),
    plannedDowntimeMs: min(60),
    runTimeMs: min(373),
    idealTimeMs: 19_271 * 1000,
    standardRunTimeMs: min(373),
    totalParts: 19_271,
    rejectedParts: 423,
    inCycleMs: min(373),
  });

  it('reproduces A, P, Q and OEE to 0.01 %', () => {
    const e = efficiency(shift, { shiftFiltered: false });
    expect(min(480) - min(60)).toBe(min(420)); // planned production time
    expectPct(e.availability, 88.81);
    expectPct(e.performance, 86.11);
    expectPct(e.quality, 97.8);
    expectPct(e.oee, 74.79);
    expect(e.performance).toBeCloseTo(19_271 / 22_380, 12);
    expect(e.quality).toBeCloseTo(18_848 / 19_271, 12);
  });

  it('the day holding only that shift: OOE = 373/480 × P × Q, TEEP = 373/1440 × P × Q', () => {
    const day = { ...shift, allTimeMs: min(1440) };
    const e = efficiency(day, { shiftFiltered: false });
    const pq = (19_271 / 22_380) * (18_848 / 19_271);
    expect(e.ooe).toBeCloseTo((373 / 480) * pq, 12);
    expect(e.teep).toBeCloseTo((373 / 1440) * pq, 12);
    expectPct(e.ooe, (373 / 480) * pq * 100);
    expectPct(e.oee, 74.79); // OEE does not depend on non-shift time
  });
});

describe('factors (METRICS.md §3)', () => {
  it.each([
    { name: 'no planned production time → A null', t: { shiftTimeMs: 100, plannedDowntimeMs: 100 }, a: null },
    {
      name: 'A = T_run / (T_shift − T_pdt)',
      t: { shiftTimeMs: 100, plannedDowntimeMs: 20, runTimeMs: 40 },
      a: 0.5,
    },
  ])('$name', ({ t, a }) => {
    expect(availability(totals(t))).toBe(a);
  });

  it.each([
    { name: 'no run time → P null', t: { idealTimeMs: 5 }, p: null, warn: false },
    {
      name: 'P above 1 is shown, never clamped',
      t: { idealTimeMs: 150, runTimeMs: 100, standardRunTimeMs: 100 },
      p: 1.5,
      warn: false,
    },
    // METRICS.md §3 (decision 1002): run time with no standard is out of both sides of P, with the warning.
    {
      name: 'no run time with a standard → P null, not 0 %',
      t: { runTimeMs: 100, standardRunTimeMs: 0 },
      p: null,
      warn: true,
    },
    {
      name: 'a mix → P from the run time with a standard only',
      t: { idealTimeMs: 30, runTimeMs: 100, standardRunTimeMs: 40 },
      p: 0.75,
      warn: true,
    },
    {
      name: 'a run without standard and no run time: the warning (minExpectedPartTime 0), P null',
      t: { minExpectedPartTime: 0 },
      p: null,
      warn: true,
    },
  ])('$name', ({ t, p, warn }) => {
    expect(performance(totals(t))).toBe(p);
    expect(efficiency(totals(t), { shiftFiltered: false }).missingStandards).toBe(warn);
  });

  it('no run time with a standard: P, OEE, OOE and TEEP are null, A and Q still shown', () => {
    const e = efficiency(
      totals({ allTimeMs: 200, shiftTimeMs: 100, runTimeMs: 50, totalParts: 4, rejectedParts: 1 }),
      { shiftFiltered: false },
    );
    expect([e.performance, e.oee, e.ooe, e.teep]).toEqual([null, null, null, null]);
    expect([e.availability, e.quality, e.missingStandards]).toEqual([0.5, 0.75, true]);
  });

  it.each([
    { name: 'no parts → Q null', t: {}, q: null },
    { name: 'good / total', t: { totalParts: 10, rejectedParts: 1 }, q: 0.9 },
  ])('$name', ({ t, q }) => {
    expect(quality(totals(t))).toBe(q);
  });

  it('OOE and TEEP are hidden with a shift filter; OEE and factors are not', () => {
    const e = efficiency(
      totals({
        allTimeMs: 100,
        shiftTimeMs: 100,
        runTimeMs: 50,
        idealTimeMs: 50,
        standardRunTimeMs: 50,
        totalParts: 1,
      }),
      { shiftFiltered: true },
    );
    expect([e.ooe, e.teep]).toEqual([null, null]);
    expect(e.oee).toBe(0.5);
  });

  it('utilization (in-cycle, spindle, in-cut) is a share of all time', () => {
    const e = efficiency(totals({ allTimeMs: 200, inCycleMs: 100, spindleMs: 50, inCutMs: 20 }), {
      shiftFiltered: false,
    });
    expect([e.inCycle, e.utilization, e.spindleRotating, e.inCut, e.totalDuration]).toEqual([
      0.5, 0.5, 0.25, 0.1, 200,
    ]);
    expect(efficiency(emptyTotals(), { shiftFiltered: false }).inCycle).toBeNull();
  });

  it('the missing-standards warning shows only when minExpectedPartTime is 0', () => {
    expect(showsMissingStandardsWarning(0)).toBe(true);
    expect(showsMissingStandardsWarning(30_000)).toBe(false);
    expect(showsMissingStandardsWarning(null)).toBe(false);
    expect(MISSING_STANDARDS_WARNING).toBe(
      'One or more operations associated with this metric do not have operation standards applied. This metric may not be accurate.',
    );
  });

  const totalsArb = fc
    .record({
      allTimeMs: fc.integer({ min: 0, max: 1e9 }),
      shiftTimeMs: fc.integer({ min: 0, max: 1e9 }),
      plannedDowntimeMs: fc.integer({ min: 0, max: 1e8 }),
      runTimeMs: fc.integer({ min: 0, max: 1e9 }),
      idealTimeMs: fc.integer({ min: 0, max: 1e9 }),
      standardShare: fc.constantFrom(0, 0.5, 1),
      totalParts: fc.integer({ min: 0, max: 1e6 }),
      rejectedParts: fc.integer({ min: 0, max: 1e6 }),
    })
    .map(({ standardShare, ...t }) =>
      totals({ ...t, standardRunTimeMs: Math.floor(t.runTimeMs * standardShare) }),
    );

  it('OEE = A × P × Q (null when any factor is null)', () => {
    fc.assert(
      fc.property(totalsArb, (t) => {
        const e = efficiency(t, { shiftFiltered: false });
        if (e.availability === null || e.performance === null || e.quality === null) expect(e.oee).toBeNull();
        else expect(e.oee).toBe(e.availability * e.performance * e.quality);
      }),
      { numRuns: 200 },
    );
  });

  it('totals add associatively and commutatively, with min for minExpectedPartTime', () => {
    const a = totals({ runTimeMs: 5, minExpectedPartTime: 30 });
    const b = totals({ runTimeMs: 7, minExpectedPartTime: null });
    const c = totals({ runTimeMs: 1, minExpectedPartTime: 0 });
    expect(addTotals(addTotals(a, b), c)).toEqual(addTotals(a, addTotals(c, b)));
    expect(addTotals(a, b).minExpectedPartTime).toBe(30);
    expect(addTotals(a, c).minExpectedPartTime).toBe(0);
  });
});

describe('planned value of a downtime (METRICS.md §5)', () => {
  it.each([
    { type: { plannedBehavior: 'planned' as const }, d: 1e9, op: undefined, want: [true, 'Planned', true] },
    { type: { plannedBehavior: 'unplanned' as const }, d: 1, op: true, want: [false, 'Unplanned', false] },
    {
      type: { plannedBehavior: 'plannedWithLimit' as const, plannedLimitMs: 600_000 },
      d: 600_000,
      op: undefined,
      want: [true, 'Planned', true],
    },
    {
      type: { plannedBehavior: 'plannedWithLimit' as const, plannedLimitMs: 600_000 },
      d: 600_001,
      op: undefined,
      want: [null, 'Exceeded Limit', false],
    },
    {
      type: { plannedBehavior: 'plannedWithLimit' as const },
      d: 300_000,
      op: undefined,
      want: [true, 'Planned', true],
    }, // default 5 min
    {
      type: { plannedBehavior: 'plannedWithLimit' as const },
      d: 300_001,
      op: undefined,
      want: [null, 'Exceeded Limit', false],
    },
    { type: { plannedBehavior: 'operator' as const }, d: 1, op: true, want: [true, 'Planned', true] },
    { type: { plannedBehavior: 'operator' as const }, d: 1, op: false, want: [false, 'Unplanned', false] },
    { type: { plannedBehavior: 'operator' as const }, d: 1, op: null, want: [false, 'Unplanned', false] }, // unset → false
    { type: null, d: 1, op: true, want: [null, '', false] }, // no type → cleared, unplanned
  ])('$type.plannedBehavior for $d ms, operator $op', ({ type, d, op, want }) => {
    const v = plannedValue(type, d, op);
    expect([v.planned, v.label, v.countsAsPlanned]).toEqual(want);
  });

  it('labels stored values', () => {
    expect([plannedLabel(true), plannedLabel(false), plannedLabel(null)]).toEqual([
      'Planned',
      'Unplanned',
      'Exceeded Limit',
    ]);
  });
});

describe('parts goal (METRICS.md §4)', () => {
  it.each([
    { runtime: 0, ect: 60_000, mult: 1, want: 0 },
    { runtime: 59_999, ect: 60_000, mult: 1, want: 0 },
    { runtime: 60_000, ect: 60_000, mult: 1, want: 1 },
    { runtime: 3_599_999, ect: 60_000, mult: 4, want: 59 * 4 },
    { runtime: 600_000, ect: 60_000, mult: 2 / 3, want: 6 }, // manycycles 2 parts per 3 cycles: ⌊10 × 2/3⌋
    { runtime: 600_000, ect: 0, mult: 1, want: null },
  ])(
    'expected parts now for runtime $runtime ms, cycle $ect ms, multiplier $mult',
    ({ runtime, ect, mult, want }) => {
      expect(expectedPartsNow(runtime, ect, mult)).toBe(want);
    },
  );

  it('production runtime excludes setup (starts at production) and planned downtime', () => {
    expect(productionRuntimeMs(1000, 61_000, 0)).toBe(60_000);
    expect(productionRuntimeMs(1000, 61_000, 20_000)).toBe(40_000);
    expect(productionRuntimeMs(null, 61_000, 0)).toBe(0);
    expect(productionRuntimeMs(70_000, 61_000, 0)).toBe(0);
  });

  it('ahead/behind and percent of goal', () => {
    expect(partsAheadBehind(12, 10)).toBe(2);
    expect(partsAheadBehind(8, 10)).toBe(-2);
    expect(percentOfGoal(8, 10)).toBe(80);
    expect(percentOfGoal(8, 0)).toBeNull();
    expect(percentOfGoal(8, null)).toBeNull();
  });
});

describe('part behaviors and standards', () => {
  it.each([
    { b: { partBehavior: 'one' as const, actualParts: 5 }, mult: 1, after10: 10 },
    { b: { partBehavior: 'manyparts' as const, actualParts: 4 }, mult: 4, after10: 40 },
    {
      b: { partBehavior: 'manycycles' as const, reportedParts: 1, requiredCycles: 3 },
      mult: 1 / 3,
      after10: 3,
    },
    {
      b: { partBehavior: 'manycycles' as const, reportedParts: 2, requiredCycles: 3 },
      mult: 2 / 3,
      after10: 6,
    }, // 3 complete sets × 2
  ])('$b.partBehavior', ({ b, mult, after10 }) => {
    expect(partCountMultiplier(b)).toBeCloseTo(mult, 12);
    expect(partsAfterCycles(b, 10)).toBe(after10);
  });

  const cycle = (endS: number, over: Partial<MachineCycle> = {}): MachineCycle => ({
    start: ((endS - 60) * 1000) as EpochMs,
    end: (endS * 1000) as EpochMs,
    duration: 60_000 as DurationMs,
    count: 1,
    source: 'part_count',
    setup: false,
    ...over,
  });
  const run = (over: Partial<RunStandards>): RunStandards => ({
    id: 'r1',
    jobId: 'j1',
    start: 0 as EpochMs,
    end: null,
    productionStart: 0 as EpochMs,
    expectedCycleTime: 60_000,
    idealCycleTime: 50_000,
    partBehavior: 'one',
    startInSetup: 'none',
    ...over,
  });

  it('manycycles credits whole parts on every requiredCycles-th cycle of the run', () => {
    const cycles = [1, 2, 3, 4, 5, 6, 7].map((i) => cycle(i * 60));
    const out = applyStandards(cycles, [
      run({ partBehavior: 'manycycles', reportedParts: 2, requiredCycles: 3 }),
    ]);
    expect(out.map((c) => c.parts)).toEqual([0, 0, 2, 0, 0, 2, 0]);
    expect(out.every((c) => c.idealMs === 50_000)).toBe(true);
  });

  it('manycycles keeps its place in the run when the cycles start mid-run (decision 1022)', () => {
    const standards = [run({ partBehavior: 'manycycles', reportedParts: 2, requiredCycles: 3 })];
    const all = applyStandards(
      [1, 2, 3, 4, 5, 6, 7].map((i) => cycle(i * 60)),
      standards,
    );
    // A range from the 3rd cycle on: 2 of the run's cycles came before it.
    const tail = applyStandards(
      [3, 4, 5, 6, 7].map((i) => cycle(i * 60)),
      standards,
      new Map([['r1', 2]]),
    );
    expect(tail.map((c) => c.parts)).toEqual(all.slice(2).map((c) => c.parts));
    expect(tail.map((c) => c.parts)).toEqual([2, 0, 0, 2, 0]);
  });

  it('cycles outside runs have no standards; setup cycles add parts but no ideal time', () => {
    const out = applyStandards(
      [cycle(60), cycle(200, { setup: true }), cycle(300, { count: 2 })],
      [run({ start: (100 * 1000) as EpochMs, partBehavior: 'manyparts', actualParts: 3 })],
    );
    expect(out.map((c) => [c.runId, c.parts, c.idealMs, c.expectedCycleTime])).toEqual([
      [null, 1, 0, 0],
      ['r1', 3, 0, 60_000],
      ['r1', 6, 100_000, 60_000],
    ]);
  });

  it('a cycle belongs to the run covering its end; when runs touch the later one owns its start instant', () => {
    const a = run({ id: 'a', start: 0 as EpochMs, end: (120 * 1000) as EpochMs, idealCycleTime: 1 });
    const b = run({ id: 'b', start: (120 * 1000) as EpochMs, end: null, idealCycleTime: 2 });
    const out = applyStandards([cycle(180), cycle(120), cycle(60)], [b, a]);
    expect(out.map((c) => [c.end / 1000, c.runId, c.idealMs])).toEqual([
      [60, 'a', 1],
      [120, 'b', 2],
      [180, 'b', 2],
    ]);
  });

  it('quality counts: rejects removed from good parts (count 0) vs not counted by the machine (count = scrap)', () => {
    const removed = {
      adjustmenttime: 0 as EpochMs,
      count: 0,
      scrapcount: 3,
      rejectBehavior: 'scrap' as const,
      categoryId: 'a',
    };
    const extra = {
      adjustmenttime: 0 as EpochMs,
      count: 2,
      scrapcount: 2,
      rejectBehavior: 'nonconform' as const,
      categoryId: 'b',
    };
    const correction = {
      adjustmenttime: 0 as EpochMs,
      count: -1,
      scrapcount: 0,
      rejectBehavior: null,
      categoryId: null,
    };
    expect(qualityCounts(100, [removed, extra, correction])).toEqual({
      total: 101,
      rejected: 5,
      good: 96,
      shortfall: 0,
    });
  });
});
