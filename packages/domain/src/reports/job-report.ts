import type { TimeRange } from '../calendar/intervals';
import type { EfficiencyTotals } from '../metrics/oee';
import { addTotals, efficiency, emptyTotals, sumFields } from '../metrics/oee';
import { percentOfGoal } from '../metrics/parts-goal';
import type { Rollup } from '../rollup/rollup';
import { efficiencyTotals } from '../rollup/rollup';
import type { GoalRun } from './report-cells';
import { goodParts, partsGoalCell, sumSortedRollups } from './report-cells';

// reports-admin §2 Jobs report and §3 Job report: the figures of a job run over the part of a range it
// covers, and of a job (or a job on one machine) as the sum of its runs (decision 0813). Sums stay exact;
// the factors and the percent of goal come from METRICS.md §3–§4 at the end.

/** A job run's time inside a report range, as the rollups built over exactly that time sum it. */
export interface JobTally {
  /** METRICS.md §2–§3 totals of the run's time (OEE factors). */
  totals: EfficiencyTotals;
  /** METRICS.md §4 expected parts of the run's production time; null without a cycle-time standard. */
  expectedParts: number | null;
  /** Parts of all the run's time (not only shift time), as the parts goal counts them. */
  goodParts: number;
  rejectedParts: number;
  /** METRICS.md §3 total parts of all the run's time (counted + Σ adjustment count; decision 1020). */
  totalParts: number;
  /** Time in SETUP, ACTIVE, and in any other state (production downtime). */
  setupMs: number;
  inCycleMs: number;
  downtimeMs: number;
  /** Σ duration and number of the run's production (non-setup) cycles ending in the time. */
  cycleMs: number;
  cycles: number;
}

export const emptyJobTally = (): JobTally => ({
  totals: emptyTotals(),
  expectedParts: null,
  goodParts: 0,
  rejectedParts: 0,
  totalParts: 0,
  setupMs: 0,
  inCycleMs: 0,
  downtimeMs: 0,
  cycleMs: 0,
  cycles: 0,
});

/**
 * One run's tally over `span` (the run's time inside the range, up to now). `rows` are the machine's rollups
 * built over exactly that span (sorted by start); `cycles` the run's production cycles ending in it.
 */
export function jobRunTally(
  rows: readonly Rollup[],
  run: GoalRun,
  span: TimeRange,
  now: number,
  cycles: ReadonlyArray<{ duration: number }>,
): JobTally {
  const sum = sumSortedRollups(rows, span);
  const s = sum.all.stateMs;
  const setupMs = s.SETUP;
  const inCycleMs = s.ACTIVE;
  return {
    totals: efficiencyTotals(sum),
    expectedParts: partsGoalCell(rows, [run], span, now).goal,
    goodParts: goodParts(sum),
    rejectedParts: sum.all.rejected,
    totalParts: sum.all.parts + sum.all.adjustmentCount,
    setupMs,
    inCycleMs,
    downtimeMs: sum.all.durationMs - setupMs - inCycleMs,
    cycleMs: cycles.reduce((t, c) => t + c.duration, 0),
    cycles: cycles.length,
  };
}

/** The tally fields that add up plainly. */
const SUMMED_TALLY = [
  'goodParts',
  'rejectedParts',
  'totalParts',
  'setupMs',
  'inCycleMs',
  'downtimeMs',
  'cycleMs',
  'cycles',
] as const;

/** Sum of two tallies (a commutative monoid, as EfficiencyTotals are; expected parts null only if both are). */
export function addJobTallies(a: JobTally, b: JobTally): JobTally {
  return {
    totals: addTotals(a.totals, b.totals),
    expectedParts:
      a.expectedParts === null && b.expectedParts === null
        ? null
        : (a.expectedParts ?? 0) + (b.expectedParts ?? 0),
    ...sumFields(a, b, SUMMED_TALLY),
  };
}

/** reports-admin §3 Job report figures (factors as fractions, percent of goal in percent, times in ms). */
export interface JobFigures {
  percentage_of_parts_goal: number | null;
  expected_parts: number | null;
  good_parts: number;
  rejected_parts: number;
  oee: number | null;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  /**
   * Some of the run time has no standard (no ideal cycle time), so P and OEE leave it out or are null: screens
   * show MISSING_STANDARDS_WARNING (METRICS.md §3, decision 1002; issue 27 point 4).
   */
  missing_standards: boolean;
  setup_ms: number;
  production_in_cycle_ms: number;
  production_downtime_ms: number;
}

/** The Job report figures of a tally: METRICS.md §3 factors (no shift filter) and §4 percent of goal. */
export function jobFigures(t: JobTally): JobFigures {
  const e = efficiency(t.totals, { shiftFiltered: false });
  return {
    percentage_of_parts_goal: percentOfGoal(t.goodParts, t.expectedParts),
    expected_parts: t.expectedParts,
    good_parts: t.goodParts,
    rejected_parts: t.rejectedParts,
    oee: e.oee,
    availability: e.availability,
    performance: e.performance,
    quality: e.quality,
    missing_standards: e.missingStandards,
    setup_ms: t.setupMs,
    production_in_cycle_ms: t.inCycleMs,
    production_downtime_ms: t.downtimeMs,
  };
}

/** Mean duration of the production cycles of a tally; null without any. */
export const averageCycleMs = (t: Pick<JobTally, 'cycleMs' | 'cycles'>): number | null =>
  t.cycles === 0 ? null : t.cycleMs / t.cycles;

/**
 * A job's own range from its runs: the earliest start and the latest end (null while one still runs), or
 * null without runs.
 */
export function jobSpan(
  runs: ReadonlyArray<{ start: number; end: number | null }>,
): { start_at: number; end_at: number | null } | null {
  if (runs.length === 0) return null;
  let start = Infinity;
  let end: number | null = -Infinity;
  for (const r of runs) {
    start = Math.min(start, r.start);
    end = end === null || r.end === null ? null : Math.max(end, r.end);
  }
  return { start_at: start, end_at: end };
}
