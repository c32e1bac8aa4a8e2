import type { EpochMs } from '../brand';
import type { TimeRange } from '../calendar/intervals';
import { formatInCycleHours, formatPercent } from '../live/rules';
import type { EfficiencyTotals } from '../metrics/oee';
import { expectedPartsNow, productionRuntimeMs } from '../metrics/parts-goal';
import type { PartBehaviorFields } from '../metrics/production';
import { goodOf, partCountMultiplier } from '../metrics/production';
import type { Rollup, RollupSum } from '../rollup/rollup';
import { firstEndingAfter } from '../rollup/build';
import { sumRollups } from '../rollup/rollup';
import { formatDay } from '../time/civil';
import { toWall } from '../time/zone';

// The cells of the report calls (live-operations §7: partGoals, utilization, downtime), from rollups and job
// runs. Exact numbers; the display strings follow METRICS.md §6 (rounding only when formatting).

/** METRICS.md §3: good = total − rejected (never negative), total = parts counted by the machine + Σ adjustment count. */
export const goodParts = (sum: RollupSum): number =>
  goodOf(sum.all.parts + sum.all.adjustmentCount, sum.all.rejected);

/** Index of the first row starting at or after t (rows sorted by start). */
function firstStartingAt(rows: readonly Rollup[], t: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid] as Rollup).start < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The rows (sorted by start) that sumRollups would select for the range: those starting inside it. A slice,
 * found by binary search, so a year of hourly cells costs rows × log rows instead of rows².
 */
export function rollupsStartingIn(rows: readonly Rollup[], range: TimeRange): readonly Rollup[] {
  return rows.slice(firstStartingAt(rows, range.start), firstStartingAt(rows, range.end));
}

/** sumRollups over the rows (sorted by start) starting inside the range. */
export const sumSortedRollups = (rows: readonly Rollup[], range: TimeRange): RollupSum =>
  sumRollups(rollupsStartingIn(rows, range), range);

/** A job run as the parts goal needs it (METRICS.md §4). */
export interface GoalRun extends PartBehaviorFields {
  /** When it went into production (setup end); null while still in setup. */
  productionStart: number | null;
  /** null while the run is going on. */
  end: number | null;
  expectedCycleTime: number;
}

export interface PartsGoalCell {
  /** Good parts made in the interval. */
  parts: number;
  /** Expected parts of the interval; null when no run with a cycle-time standard produced in it. */
  goal: number | null;
}

/**
 * Parts and goal of one machine in one interval. The goal is METRICS.md §4's expected parts, per run, over
 * the part of the interval the run was in production up to `now`, less the planned downtime there:
 * ⌊ runtime / expectedCycleTime ⌋ × partCountMultiplier. `rows` are the machine's rollups, sorted by start.
 */
export function partsGoalCell(
  rows: readonly Rollup[],
  runs: readonly GoalRun[],
  interval: TimeRange,
  now: number,
): PartsGoalCell {
  const parts = goodParts(sumSortedRollups(rows, interval));
  let goal: number | null = null;
  for (const run of runs) {
    if (run.productionStart === null) continue;
    const from = Math.max(interval.start, run.productionStart);
    const to = Math.min(interval.end, run.end ?? now, now);
    if (to <= from) continue;
    const window = { start: from, end: to } as TimeRange;
    const planned = sumSortedRollups(rows, window).all.plannedDowntimeMs;
    const expected = expectedPartsNow(
      productionRuntimeMs(from, to, planned),
      run.expectedCycleTime,
      partCountMultiplier(run),
    );
    if (expected !== null) goal = (goal ?? 0) + expected;
  }
  return { parts, goal };
}

export type UtilizationUnit = 'hour' | 'percent';

export interface UtilizationCell {
  inCycleMs: number;
  durationMs: number;
  /** In-cycle share of the duration (METRICS.md §3 Utilization), null without time. */
  inCycle: number | null;
  /** The cell as shown: percent with 0 decimals, or in-cycle hours with 1 decimal (METRICS.md §6). */
  value: string;
}

export function utilizationCell(sum: RollupSum, unit: UtilizationUnit): UtilizationCell {
  return utilizationCellOf({ inCycleMs: sum.all.stateMs.ACTIVE, allTimeMs: sum.all.durationMs }, unit);
}

/** utilizationCell from a cell's EfficiencyTotals (in-cycle and all time are the same sums). */
export function utilizationCellOf(
  totals: Pick<EfficiencyTotals, 'inCycleMs' | 'allTimeMs'>,
  unit: UtilizationUnit,
): UtilizationCell {
  const inCycleMs = totals.inCycleMs;
  const durationMs = totals.allTimeMs;
  const inCycle = durationMs > 0 ? inCycleMs / durationMs : null;
  return {
    inCycleMs,
    durationMs,
    inCycle,
    value: unit === 'hour' ? formatInCycleHours(inCycleMs) : formatPercent(inCycle, 'utilization'),
  };
}

/** A piece of time [start, end) in epoch ms. */
export interface TimeSpan {
  start: number;
  end: number;
}

/**
 * The parts of `spans` inside `filter` (e.g. a downtime period inside the selected shifts, or inside job
 * runs for onlyScheduled). `filter` must not overlap itself; the result is in `spans` order.
 */
export function intersectSpans(spans: readonly TimeSpan[], filter: readonly TimeSpan[]): TimeSpan[] {
  const out: TimeSpan[] = [];
  // A filter in time order (the shift occurrences of a range, a machine's runs) is searched from the first span
  // ending after each span's start up to the first starting after its end, the same overlaps in the same order:
  // a month of periods each walked the month's ~60 shift occurrences (decision 1178).
  const ordered = inOrder(filter);
  for (const s of spans) {
    for (let i = ordered ? firstEndingAfter(filter, s.start) : 0; i < filter.length; i++) {
      const f = filter[i] as TimeSpan;
      if (ordered && f.start >= s.end) break;
      const start = Math.max(s.start, f.start);
      const end = Math.min(s.end, f.end);
      if (end > start) out.push({ start, end });
    }
  }
  return out;
}

/** Filters already judged (one filter serves every period of a report; filters are not changed once built). */
const ordering = new WeakMap<readonly TimeSpan[], boolean>();

/** Starts and ends both in ascending order (what a binary search on the ends needs). */
function inOrder(spans: readonly TimeSpan[]): boolean {
  const known = ordering.get(spans);
  if (known !== undefined) return known;
  let ordered = true;
  for (let i = 1; ordered && i < spans.length; i++) {
    const [a, b] = [spans[i - 1] as TimeSpan, spans[i] as TimeSpan];
    if (b.start < a.start || b.end < a.end) ordered = false;
  }
  ordering.set(spans, ordered);
  return ordered;
}

/** Total length of spans. */
export const spansMs = (spans: readonly TimeSpan[]): number => spans.reduce((t, s) => t + s.end - s.start, 0);

/** 'YYYY-MM-DD HH:mm:ss' on the company's wall clock: how report CSVs write a time (METRICS.md intro). */
export function formatWallTime(tz: string, t: number): string {
  const w = toWall(tz, t as EpochMs);
  const s = Math.floor(w.msOfDay / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${formatDay(w.day)} ${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}
