import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { Rollup } from '../rollup/rollup';
import { emptyMeasures } from '../rollup/rollup';
import { addJobTallies, averageCycleMs, emptyJobTally, jobFigures, jobRunTally, jobSpan } from './job-report';
import type { GoalRun } from './report-cells';

// reports-admin §3 Job report figures from a run's rollups (decision 0813), computed by hand.

const T = Date.parse('2025-11-17T06:00:00Z');
const span = (start: number, end: number) => ({ start: start as EpochMs, end: end as EpochMs });

/** An hour bucket in shift time with some measures. */
function hour(
  i: number,
  over: {
    active?: number;
    setup?: number;
    planned?: number;
    ideal?: number;
    parts?: number;
    rejected?: number;
  },
): Rollup {
  const m = emptyMeasures();
  m.durationMs = HOUR_MS;
  m.stateMs.ACTIVE = over.active ?? 0;
  m.stateMs.SETUP = over.setup ?? 0;
  m.stateMs.INACTIVE = HOUR_MS - m.stateMs.ACTIVE - m.stateMs.SETUP;
  m.plannedDowntimeMs = over.planned ?? 0;
  m.idealMs = over.ideal ?? 0;
  m.standardRunMs = m.idealMs > 0 ? m.stateMs.ACTIVE : 0; // the run has an ideal cycle time (decision 1002)
  m.parts = over.parts ?? 0;
  m.rejected = over.rejected ?? 0;
  return {
    ...m,
    machineId: 'm',
    start: (T + i * HOUR_MS) as EpochMs,
    end: (T + (i + 1) * HOUR_MS) as EpochMs,
    shiftId: 'day',
  };
}

const run: GoalRun = {
  productionStart: T + 30 * MINUTE_MS,
  end: T + 2 * HOUR_MS,
  expectedCycleTime: 10 * MINUTE_MS,
  partBehavior: 'one',
};

// Two hours: 06:00–06:30 planned setup, then in cycle 30 + 40 min; 10 parts of 8 min ideal, 1 rejected.
const rows = [
  hour(0, {
    setup: 30 * MINUTE_MS,
    planned: 30 * MINUTE_MS,
    active: 30 * MINUTE_MS,
    ideal: 24 * MINUTE_MS,
    parts: 3,
  }),
  hour(1, { active: 40 * MINUTE_MS, ideal: 56 * MINUTE_MS, parts: 7, rejected: 1 }),
];

describe('jobRunTally and jobFigures (reports-admin §3 Job report)', () => {
  const t = jobRunTally(rows, run, span(T, T + 2 * HOUR_MS), T + 3 * HOUR_MS, [
    { duration: 9 * MINUTE_MS },
    { duration: 11 * MINUTE_MS },
  ]);

  it('sums the run time: setup, in cycle, the rest downtime; parts; expected parts', () => {
    expect(t).toMatchObject({
      setupMs: 30 * MINUTE_MS,
      inCycleMs: 70 * MINUTE_MS,
      downtimeMs: 20 * MINUTE_MS, // 120 − 30 − 70
      goodParts: 9, // 10 − 1
      rejectedParts: 1,
      // production 06:30–08:00 = 90 min; the planned downtime counted is that of the rows from 06:30 on
      // (sumRollups selects rows by start: hour 1 only, 0) → ⌊90 / 10⌋ = 9
      expectedParts: 9,
    });
    expect(averageCycleMs(t)).toBe(10 * MINUTE_MS); // (9 + 11) / 2
  });

  it('computes METRICS.md §3 factors and §4 percent of goal', () => {
    const f = jobFigures(t);
    // T_ppt = 120 − 30 = 90; A = 70/90; P = 80/70; Q = 9/10
    expect(f.availability).toBeCloseTo(70 / 90, 12);
    expect(f.performance).toBeCloseTo(80 / 70, 12);
    expect(f.quality).toBeCloseTo(9 / 10, 12);
    expect(f.oee).toBeCloseTo((80 / 90) * (9 / 10), 12);
    expect(f.percentage_of_parts_goal).toBeCloseTo(100, 12); // 9 / 9
    expect(f).toMatchObject({ setup_ms: 30 * MINUTE_MS, production_in_cycle_ms: 70 * MINUTE_MS });
  });

  it('adds tallies; the sum of nothing has null factors and no expected parts', () => {
    const twice = addJobTallies(t, t);
    expect(twice).toMatchObject({ goodParts: 18, expectedParts: 18, cycles: 4, setupMs: 60 * MINUTE_MS });
    expect(jobFigures(twice).oee).toBeCloseTo(jobFigures(t).oee!, 12);
    expect(addJobTallies(emptyJobTally(), t)).toEqual(t);
    const none = jobFigures(emptyJobTally());
    expect(none).toMatchObject({
      oee: null,
      availability: null,
      expected_parts: null,
      percentage_of_parts_goal: null,
    });
    expect(averageCycleMs(emptyJobTally())).toBeNull();
  });

  it('flags run time without a standard: P and OEE null with none, the warning with some (issue 27 point 4)', () => {
    expect(jobFigures(t).missing_standards).toBe(false);
    // The same hours, no ideal cycle time: the run time is not slow, it has no standard.
    const bare = rows.map((r) => ({ ...r, idealMs: 0, standardRunMs: 0 }));
    const none = jobFigures(jobRunTally(bare, run, span(T, T + 2 * HOUR_MS), T + 3 * HOUR_MS, []));
    expect(none).toMatchObject({ performance: null, oee: null, missing_standards: true });
    expect(none.availability).toBeCloseTo(70 / 90, 12);
    // One run with a standard and one without: P over the standard run time only, with the warning.
    const mixed = jobFigures(
      addJobTallies(t, jobRunTally(bare, run, span(T, T + 2 * HOUR_MS), T + 3 * HOUR_MS, [])),
    );
    expect(mixed.performance).toBeCloseTo(80 / 70, 12);
    expect(mixed.missing_standards).toBe(true);
  });
});

describe('jobSpan', () => {
  it('is the earliest start and the latest end, open while a run is', () => {
    expect(jobSpan([])).toBeNull();
    expect(
      jobSpan([
        { start: 5, end: 9 },
        { start: 2, end: 7 },
      ]),
    ).toEqual({ start_at: 2, end_at: 9 });
    expect(
      jobSpan([
        { start: 5, end: null },
        { start: 2, end: 7 },
      ]),
    ).toEqual({ start_at: 2, end_at: null });
  });
});
