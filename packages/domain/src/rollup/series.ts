import type { EfficiencyTotals } from '../metrics/oee';
import { emptyTotals } from '../metrics/oee';
import type { Rollup } from './measures';
import type { RollupFilter } from './sum';

// ---------------------------------------------------------------------------------------------------------
// Packed series: one machine's rows as columns, for reports summed many times (dashboards, year reports).

/**
 * One machine's rollups sorted by start, packed into typed-array columns. Summing a year by week from it
 * touches a few contiguous arrays instead of ~9,000 objects (bench/domain-rollups.ts). Build once per load.
 */
export interface RollupSeries {
  readonly length: number;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Index into `shiftIds`, or -1 outside shift time. */
  readonly shift: Int32Array;
  readonly shiftIds: readonly string[];
  readonly duration: Float64Array;
  readonly active: Float64Array;
  /** Σ time in any machine state. */
  readonly known: Float64Array;
  readonly spindle: Float64Array;
  readonly inCut: Float64Array;
  readonly plannedDowntime: Float64Array;
  readonly ideal: Float64Array;
  /** parts + adjustment count */
  readonly total: Float64Array;
  readonly rejected: Float64Array;
  /** NaN when null. */
  readonly minExpected: Float64Array;
  /** ACTIVE time of runs with a standard (RollupMeasures.standardRunMs). */
  readonly standardRun: Float64Array;
}

/**
 * One row of a series with only the measures the packed columns keep (what a database reads or sums per
 * report cell, decision 0804), as a tuple in this order: a database hands these out as JSON arrays, one
 * array per machine, cheaper to read than an object per row. `known` is Σ time in any machine state,
 * `total` parts + adjustment count; null shift: outside shift time.
 */
export type SeriesRow = readonly [
  shiftId: string | null,
  start: number,
  end: number,
  duration: number,
  active: number,
  known: number,
  spindle: number,
  inCut: number,
  plannedDowntime: number,
  ideal: number,
  total: number,
  rejected: number,
  minExpected: number | null,
  standardRun: number,
];

/** A series being packed: its shift ids still grow. */
export type SeriesBeingPacked = Omit<RollupSeries, 'shiftIds'> & { shiftIds: string[] };

/** The Float64Array columns of a series. */
export const SERIES_COLUMNS = [
  'start',
  'end',
  'duration',
  'active',
  'known',
  'spindle',
  'inCut',
  'plannedDowntime',
  'ideal',
  'total',
  'rejected',
  'minExpected',
  'standardRun',
] as const;

/**
 * An empty series of n rows, every column zero, no shifts known yet. Its columns are views of one buffer:
 * a typed array with its own backing store costs several times a view to allocate (and its external memory
 * brings the collector sooner), and a report packs a few series per machine (decision 1157).
 */
export function newSeries(n: number): SeriesBeingPacked {
  const buffer = new ArrayBuffer(n * (SERIES_COLUMNS.length * 8 + 4));
  let at = 0;
  const col = () => {
    const c = new Float64Array(buffer, at, n);
    at += n * 8;
    return c;
  };
  return {
    length: n,
    start: col(),
    end: col(),
    shift: new Int32Array(buffer, SERIES_COLUMNS.length * 8 * n, n),
    shiftIds: [],
    duration: col(),
    active: col(),
    known: col(),
    spindle: col(),
    inCut: col(),
    plannedDowntime: col(),
    ideal: col(),
    total: col(),
    rejected: col(),
    minExpected: col(),
    standardRun: col(),
  };
}

/** The series' index of a shift id (-1 for time outside shifts), numbering new shifts as they come. */
function shiftSlot(s: SeriesBeingPacked, index: Map<string, number>, shiftId: string | null): number {
  if (shiftId === null) return -1;
  let k = index.get(shiftId);
  if (k === undefined) {
    k = s.shiftIds.length;
    s.shiftIds.push(shiftId);
    index.set(shiftId, k);
  }
  return k;
}

/** Packs series rows sorted by start (as packRollups packs rollups). */
export function packSeriesRows(rows: readonly SeriesRow[]): RollupSeries {
  const s = newSeries(rows.length);
  const shiftIndex = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as SeriesRow;
    s.shift[i] = shiftSlot(s, shiftIndex, r[0]);
    s.start[i] = r[1];
    s.end[i] = r[2];
    s.duration[i] = r[3];
    s.active[i] = r[4];
    s.known[i] = r[5];
    s.spindle[i] = r[6];
    s.inCut[i] = r[7];
    s.plannedDowntime[i] = r[8];
    s.ideal[i] = r[9];
    s.total[i] = r[10];
    s.rejected[i] = r[11];
    s.minExpected[i] = r[12] ?? Number.NaN;
    s.standardRun[i] = r[13];
  }
  return s;
}

export function packRollups(rows: readonly Rollup[]): RollupSeries {
  const sorted = rows.every((r, i) => i === 0 || (rows[i - 1] as Rollup).start <= r.start)
    ? rows
    : [...rows].sort((a, b) => a.start - b.start);
  const s = newSeries(sorted.length);
  const shiftIndex = new Map<string, number>();
  sorted.forEach((r, i) => {
    s.start[i] = r.start;
    s.end[i] = r.end;
    s.shift[i] = shiftSlot(s, shiftIndex, r.shiftId);
    s.duration[i] = r.durationMs;
    s.active[i] = r.stateMs.ACTIVE;
    s.known[i] =
      r.stateMs.ACTIVE + r.stateMs.SETUP + r.stateMs.INACTIVE + r.stateMs.FAULT + r.stateMs.UNAVAILABLE;
    s.spindle[i] = r.spindleMs;
    s.inCut[i] = r.inCutMs;
    s.plannedDowntime[i] = r.plannedDowntimeMs;
    s.ideal[i] = r.idealMs;
    s.total[i] = r.parts + r.adjustmentCount;
    s.rejected[i] = r.rejected;
    s.minExpected[i] = r.minExpectedPartTime ?? Number.NaN;
    s.standardRun[i] = r.standardRunMs;
  });
  return s;
}

/** Σ time in any machine state of the series rows `filter` selects (Σ sumRollups(rows, filter).all.stateMs of the rows packed). */
export function knownStateMsSeries(s: RollupSeries, filter: RollupFilter): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s.start[mid] as number) < filter.start) lo = mid + 1;
    else hi = mid;
  }
  const selected = filter.shiftIds ? s.shiftIds.map((id) => filter.shiftIds?.has(id) ?? false) : null;
  let ms = 0;
  for (let i = lo; i < s.length; i++) {
    if ((s.start[i] as number) >= filter.end) break;
    const k = s.shift[i] as number;
    if (selected && (k < 0 || !selected[k])) continue;
    ms += s.known[i] as number;
  }
  return ms;
}

/** Same result as efficiencyTotalsSorted over the rows the series was packed from. */
export function efficiencyTotalsSeries(s: RollupSeries, filter: RollupFilter): EfficiencyTotals {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s.start[mid] as number) < filter.start) lo = mid + 1;
    else hi = mid;
  }
  const selected = filter.shiftIds ? s.shiftIds.map((id) => filter.shiftIds?.has(id) ?? false) : null;
  const t = emptyTotals();
  let minExpected = Number.NaN;
  for (let i = lo; i < s.length; i++) {
    if ((s.start[i] as number) >= filter.end) break;
    const k = s.shift[i] as number;
    if (selected && (k < 0 || !selected[k])) continue;
    const active = s.active[i] as number;
    t.allTimeMs += s.duration[i] as number;
    t.inCycleMs += active;
    t.spindleMs += s.spindle[i] as number;
    t.inCutMs += s.inCut[i] as number;
    const m = s.minExpected[i] as number;
    if (m === m && !(m >= minExpected)) minExpected = m; // m is not NaN and below the current minimum
    if (k < 0) continue;
    t.shiftTimeMs += s.duration[i] as number;
    t.plannedDowntimeMs += s.plannedDowntime[i] as number;
    t.runTimeMs += active;
    t.idealTimeMs += s.ideal[i] as number;
    t.standardRunTimeMs += s.standardRun[i] as number;
    t.totalParts += s.total[i] as number;
    t.rejectedParts += s.rejected[i] as number;
  }
  t.minExpectedPartTime = Number.isNaN(minExpected) ? null : minExpected;
  return t;
}
