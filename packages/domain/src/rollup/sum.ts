import type { TimeRange } from '../calendar/intervals';
import type { EfficiencyTotals } from '../metrics/oee';
import type { Rollup, RollupMeasures, DowntimeMs } from './measures';
import { addDowntimeByReasonInto, addMeasuresInto, emptyMeasures } from './measures';

// ---------------------------------------------------------------------------------------------------------
// Summing into reports

export interface RollupFilter extends TimeRange {
  /** Only these shifts (a shift-filtered report); null/undefined = all time. */
  shiftIds?: ReadonlySet<string> | null;
}

/** A report cell: the measures over all selected time and over the shift time within it. */
export interface RollupSum {
  all: RollupMeasures;
  inShift: RollupMeasures;
  /** Whether the range was an exact union of buckets (else edge buckets were included by their start). */
  aligned: boolean;
  shiftFiltered: boolean;
}

const selected = (r: Rollup, f: RollupFilter): boolean =>
  r.start >= f.start && r.start < f.end && (!f.shiftIds || (r.shiftId !== null && f.shiftIds.has(r.shiftId)));

/**
 * Sums rollups (any machines, any order) into a report cell for `filter`. A rollup belongs to the report
 * when its bucket starts inside the range (and is in a selected shift when filtered).
 */
export function sumRollups(rollups: Iterable<Rollup>, filter: RollupFilter): RollupSum {
  const all = emptyMeasures();
  const inShift = emptyMeasures();
  let aligned = true;
  for (const r of rollups) {
    if (!selected(r, filter)) continue;
    if (r.end > filter.end) aligned = false;
    addMeasuresInto(all, r);
    if (r.shiftId !== null) addMeasuresInto(inShift, r);
  }
  return { all, inShift, aligned, shiftFiltered: !!filter.shiftIds };
}

/**
 * The downtime by reason in shift time of the rows `filter` selects: `sumRollups(rows, filter).inShift
 * .downtimeByReason` without summing the other measures (the OEE waterfall's reasons).
 */
export function inShiftDowntimeByReason(
  rows: Iterable<Rollup>,
  filter: RollupFilter,
): Record<string, DowntimeMs> {
  const out: Record<string, DowntimeMs> = {};
  for (const r of rows)
    if (r.shiftId !== null && selected(r, filter)) addDowntimeByReasonInto(out, r.downtimeByReason);
  return out;
}

/** METRICS.md §2–§3 totals of a report cell. */
export function efficiencyTotals(sum: RollupSum): EfficiencyTotals {
  const { all, inShift } = sum;
  return {
    allTimeMs: all.durationMs,
    shiftTimeMs: inShift.durationMs,
    plannedDowntimeMs: inShift.plannedDowntimeMs,
    runTimeMs: inShift.stateMs.ACTIVE,
    idealTimeMs: inShift.idealMs,
    standardRunTimeMs: inShift.standardRunMs,
    totalParts: inShift.parts + inShift.adjustmentCount,
    rejectedParts: inShift.rejected,
    inCycleMs: all.stateMs.ACTIVE,
    spindleMs: all.spindleMs,
    inCutMs: all.inCutMs,
    minExpectedPartTime: all.minExpectedPartTime,
  };
}

/**
 * Fast path for OEE/utilization reports: EfficiencyTotals straight from rollups sorted by start (one
 * machine's rows, as stored), for [from, to), without building the per-reason maps. Binary-searches the
 * first row, so summing a year by week is proportional to the rows summed.
 */
export function efficiencyTotalsSorted(rows: readonly Rollup[], filter: RollupFilter): EfficiencyTotals {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid] as Rollup).start < filter.start) lo = mid + 1;
    else hi = mid;
  }
  let allTimeMs = 0;
  let shiftTimeMs = 0;
  let plannedDowntimeMs = 0;
  let runTimeMs = 0;
  let idealTimeMs = 0;
  let standardRunTimeMs = 0;
  let totalParts = 0;
  let rejectedParts = 0;
  let inCycleMs = 0;
  let spindleMs = 0;
  let inCutMs = 0;
  let minExpectedPartTime: number | null = null;
  const shifts = filter.shiftIds;
  for (let i = lo; i < rows.length; i++) {
    const r = rows[i] as Rollup;
    if (r.start >= filter.end) break;
    if (shifts && (r.shiftId === null || !shifts.has(r.shiftId))) continue;
    allTimeMs += r.durationMs;
    inCycleMs += r.stateMs.ACTIVE;
    spindleMs += r.spindleMs;
    inCutMs += r.inCutMs;
    if (
      r.minExpectedPartTime !== null &&
      (minExpectedPartTime === null || r.minExpectedPartTime < minExpectedPartTime)
    )
      minExpectedPartTime = r.minExpectedPartTime;
    if (r.shiftId === null) continue;
    shiftTimeMs += r.durationMs;
    plannedDowntimeMs += r.plannedDowntimeMs;
    runTimeMs += r.stateMs.ACTIVE;
    idealTimeMs += r.idealMs;
    standardRunTimeMs += r.standardRunMs;
    totalParts += r.parts + r.adjustmentCount;
    rejectedParts += r.rejected;
  }
  return {
    allTimeMs,
    shiftTimeMs,
    plannedDowntimeMs,
    runTimeMs,
    idealTimeMs,
    standardRunTimeMs,
    totalParts,
    rejectedParts,
    inCycleMs,
    spindleMs,
    inCutMs,
    minExpectedPartTime,
  };
}
