import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import type { EfficiencyTotals } from './oee';
import { efficiency, emptyTotals, quality } from './oee';
import { partsAheadBehind, percentOfGoal } from './parts-goal';
import type { PartAdjustmentFact } from './production';
import { goodOf, qualityCounts } from './production';
import { emptyJobTally, jobFigures } from '../reports/job-report';
import { oeeWaterfall } from './waterfall';

// METRICS.md §3: good parts are never negative. New rejects beyond the good parts are refused when written
// (decision 0997); these are the figures of rows stored before that rule (issue 26 finding 8: good parts −9
// and OEE −0.33 in the jobs report).

const reject = (scrapcount: number, count = 0): PartAdjustmentFact => ({
  adjustmenttime: 0 as EpochMs,
  count,
  scrapcount,
  rejectBehavior: 'scrap',
  categoryId: null,
});
const correction = (count: number): PartAdjustmentFact => ({
  adjustmenttime: 0 as EpochMs,
  count,
  scrapcount: 0,
  rejectBehavior: null,
  categoryId: null,
});
const totals = (t: Partial<EfficiencyTotals>): EfficiencyTotals => ({ ...emptyTotals(), ...t });

describe('good parts are never negative (METRICS.md §3)', () => {
  it.each([
    // total, rejected → good
    [10, 0, 10],
    [10, 10, 0],
    [10, 19, 0],
    [0, 3, 0],
    [-4, 0, 0],
  ])('goodOf(%i, %i) = %i', (total, rejected, good) => {
    expect(goodOf(total, rejected)).toBe(good);
  });

  it.each<
    [
      string,
      number,
      PartAdjustmentFact[],
      { total: number; rejected: number; good: number; shortfall: number },
    ]
  >([
    ['nothing rejected', 10, [], { total: 10, rejected: 0, good: 10, shortfall: 0 }],
    ['all rejected', 10, [reject(10)], { total: 10, rejected: 10, good: 0, shortfall: 0 }],
    ['the probe: N + 9 of N', 10, [reject(19)], { total: 10, rejected: 19, good: 0, shortfall: 9 }],
    [
      'kept in the count (count = scrap)',
      10,
      [reject(19, 19)],
      { total: 29, rejected: 19, good: 10, shortfall: 0 },
    ],
    ['a correction below zero', 2, [correction(-5)], { total: -3, rejected: 0, good: 0, shortfall: 3 }],
  ])('qualityCounts: %s', (_name, parts, adjustments, expected) => {
    expect(qualityCounts(parts, adjustments)).toEqual(expected);
  });

  it.each([
    // totalParts, rejectedParts → quality
    [10, 2, 0.8],
    [10, 19, 0],
    [0, 0, null],
    [0, 5, null],
    [-3, 0, null],
  ])('quality with total %i and %i rejected is %s', (totalParts, rejectedParts, q) => {
    expect(quality(totals({ totalParts, rejectedParts }))).toBe(q);
  });

  it('OEE, OOE and TEEP of an over-rejected range are 0, not negative', () => {
    const e = efficiency(
      totals({
        allTimeMs: 3_600_000,
        shiftTimeMs: 3_600_000,
        runTimeMs: 1_800_000,
        idealTimeMs: 600_000,
        standardRunTimeMs: 1_800_000,
        totalParts: 10,
        rejectedParts: 19,
      }),
      { shiftFiltered: false },
    );
    expect(e).toMatchObject({ quality: 0, oee: 0, ooe: 0, teep: 0 });
  });

  it.each<[number, number | null, number | null]>([
    // actual good, expected → percent of goal
    [5, 10, 50],
    [-9, 10, 0],
    [5, 0, null],
    [5, -2, null],
    [5, null, null],
  ])('percent of goal of %i good for %s expected is %s', (actual, expected, pct) => {
    expect(percentOfGoal(actual, expected)).toBe(pct);
  });

  it.each([
    // actual good, expected → ahead (+) or behind (−)
    [12, 10, 2],
    [-9, 10, -10],
    [0, 0, 0],
  ])('%i good of %i expected is %i ahead', (actual, expected, ahead) => {
    expect(partsAheadBehind(actual, expected)).toBe(ahead);
  });

  it('the job figures of a run whose rollups summed −9 good parts show 0 %, never below', () => {
    const f = jobFigures({
      ...emptyJobTally(),
      totals: totals({
        shiftTimeMs: 3_600_000,
        runTimeMs: 3_600_000,
        idealTimeMs: 3_600_000,
        standardRunTimeMs: 3_600_000,
        totalParts: 10,
        rejectedParts: 19,
      }),
      expectedParts: 12,
      goodParts: -9,
    });
    expect(f.quality).toBe(0);
    expect(f.oee).toBe(0);
    expect(f.percentage_of_parts_goal).toBe(0);
  });

  it('the OEE waterfall loses at most what was produced to quality, so fully productive time stays at 0', () => {
    const steps = oeeWaterfall({
      totals: totals({
        allTimeMs: 3_600_000,
        shiftTimeMs: 3_600_000,
        runTimeMs: 3_600_000,
        idealTimeMs: 3_600_000,
        standardRunTimeMs: 3_600_000,
        totalParts: 10,
        rejectedParts: 19,
      }),
      downtimeByReason: {},
    });
    const of = (key: string) => steps.find((s) => s.key === key)?.ms;
    expect(of('qualityLoss')).toBe(3_600_000);
    expect(of('fullyProductiveTime')).toBe(0);
  });
});
