import type { EpochMs } from '../brand';
import type { Bucket, TimeRange } from '../calendar/intervals';
import type { Span, StateInterval } from '../derive/outputs';
import type { MachineState } from '../machine-state';
import { MACHINE_STATES } from '../machine-state';
import type { EfficiencyTotals } from '../metrics/oee';
import { emptyTotals, minNullable } from '../metrics/oee';
import type { PartAdjustmentFact, ProductionCycle, RunStandards } from '../metrics/production';

// A mergeable aggregate per machine per bucket. Buckets never straddle an hour or a shift
// boundary (calendar/intervals.ts rollupBuckets), so every report — hour, shift, day, week, month, quarter,
// shift-filtered or not, per machine, group or all — is a plain sum of rollups. Times are whole ms, so the
// sums are exact. Decision 0105.

/** Reason keys for downtime without an annotation type. Annotation type ids are used as they are. */
export const UNCATEGORIZED_REASON = 'uncategorized';
export const SETUP_REASON = 'setup';
/** Rejects without a reason. */
export const UNCATEGORIZED_REJECT = 'uncategorized';

export type StateMs = Record<MachineState, number>;

export interface DowntimeMs {
  plannedMs: number;
  unplannedMs: number;
}

/** The additive measures of a piece of time. */
export interface RollupMeasures {
  durationMs: number;
  stateMs: StateMs;
  spindleMs: number;
  inCutMs: number;
  /** Downtime (every non-ACTIVE instant) split by planned value (METRICS.md §2, §5). */
  plannedDowntimeMs: number;
  unplannedDowntimeMs: number;
  /** By annotation type id, or 'setup' / 'uncategorized'. */
  downtimeByReason: Record<string, DowntimeMs>;
  /** Machine cycles ending here. */
  cycles: number;
  idealMs: number;
  /**
   * ACTIVE time covered by a job run with an ideal cycle time: Performance's denominator (METRICS.md §3: run
   * time with no standard is left out of both sides of P, decision 1002).
   */
  standardRunMs: number;
  expectedMs: number;
  /** Parts counted by the machine (after part behaviors). */
  parts: number;
  /** Σ part adjustment count (corrections, rejects not counted by the machine, setup removals). */
  adjustmentCount: number;
  /** Σ scrapcount of scrap and non-conforming rejects. */
  rejected: number;
  /** Rejected parts by reject reason id. */
  rejectsByType: Record<string, number>;
  /** min expected part time of the runs and cycles here (0 = without standards), null = none. */
  minExpectedPartTime: number | null;
}

/** One rollup row: a machine × bucket. */
export interface Rollup extends RollupMeasures {
  machineId: string;
  start: EpochMs;
  end: EpochMs;
  /** The shift this bucket belongs to, or null outside shift time. */
  shiftId: string | null;
}

/** A downtime annotation with its planned value already resolved (metrics/planned.ts plannedValue). */
export interface DowntimeAnnotation {
  start: EpochMs;
  end: EpochMs;
  /** Annotation type (downtime reason) id; null = uncategorized. */
  reasonId: string | null;
  /** METRICS.md §5: only true counts as planned; null (Exceeded Limit) and false are unplanned. */
  countsAsPlanned: boolean;
}

/** Everything a machine's rollups are built from, for a range of buckets. */
export interface RollupSource {
  machineId: string;
  intervals: readonly StateInterval[];
  spindle?: readonly Span[];
  inCut?: readonly Span[];
  cycles?: readonly ProductionCycle[];
  adjustments?: readonly PartAdjustmentFact[];
  annotations?: readonly DowntimeAnnotation[];
  /** Job runs: setup of a run started in 'planned' setup mode is planned downtime (METRICS.md §2). */
  runs?: readonly Pick<
    RunStandards,
    'start' | 'end' | 'startInSetup' | 'expectedCycleTime' | 'idealCycleTime'
  >[];
}

export const emptyStateMs = (): StateMs => ({ ACTIVE: 0, SETUP: 0, INACTIVE: 0, FAULT: 0, UNAVAILABLE: 0 });

export function emptyMeasures(): RollupMeasures {
  return {
    durationMs: 0,
    stateMs: emptyStateMs(),
    spindleMs: 0,
    inCutMs: 0,
    plannedDowntimeMs: 0,
    unplannedDowntimeMs: 0,
    downtimeByReason: {},
    cycles: 0,
    idealMs: 0,
    standardRunMs: 0,
    expectedMs: 0,
    parts: 0,
    adjustmentCount: 0,
    rejected: 0,
    rejectsByType: {},
    minExpectedPartTime: null,
  };
}

/**
 * A zeroed rollup row. Written as one literal with every field in a fixed order (no spread), so all rows
 * share one hidden class and summing a year of them stays a tight loop (bench/domain-rollups.ts).
 */
function newRollup(machineId: string, b: Bucket): Rollup {
  return {
    machineId,
    start: b.start,
    end: b.end,
    shiftId: b.shiftId,
    durationMs: b.end - b.start,
    stateMs: emptyStateMs(),
    spindleMs: 0,
    inCutMs: 0,
    plannedDowntimeMs: 0,
    unplannedDowntimeMs: 0,
    downtimeByReason: {},
    cycles: 0,
    idealMs: 0,
    standardRunMs: 0,
    expectedMs: 0,
    parts: 0,
    adjustmentCount: 0,
    rejected: 0,
    rejectsByType: {},
    minExpectedPartTime: null,
  };
}

/** Mutates `into`: adds `m`. Measures form a commutative monoid (sum, and min for minExpectedPartTime). */
export function addMeasuresInto(into: RollupMeasures, m: RollupMeasures): RollupMeasures {
  into.durationMs += m.durationMs;
  for (const s of MACHINE_STATES) into.stateMs[s] += m.stateMs[s];
  into.spindleMs += m.spindleMs;
  into.inCutMs += m.inCutMs;
  into.plannedDowntimeMs += m.plannedDowntimeMs;
  into.unplannedDowntimeMs += m.unplannedDowntimeMs;
  addDowntimeByReasonInto(into.downtimeByReason, m.downtimeByReason);
  into.cycles += m.cycles;
  into.idealMs += m.idealMs;
  into.standardRunMs += m.standardRunMs;
  into.expectedMs += m.expectedMs;
  into.parts += m.parts;
  into.adjustmentCount += m.adjustmentCount;
  into.rejected += m.rejected;
  for (const [k, v] of Object.entries(m.rejectsByType))
    into.rejectsByType[k] = (into.rejectsByType[k] ?? 0) + v;
  into.minExpectedPartTime = minNullable(into.minExpectedPartTime, m.minExpectedPartTime);
  return into;
}

// ---------------------------------------------------------------------------------------------------------
// Building

/** Index of the first span with end > t in spans sorted by start and not overlapping. */
function firstEndingAfter(spans: readonly { end: number }[], t: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((spans[mid] as { end: number }).end <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the bucket containing t, or -1. Buckets are sorted and contiguous. */
function bucketIndexAt(buckets: readonly Bucket[], t: number): number {
  const i = firstEndingAfter(buckets, t);
  const b = buckets[i];
  return b && b.start <= t ? i : -1;
}

/** Calls f for every non-empty intersection of [s, e) with spans (sorted, non-overlapping). */
function eachOverlap<T extends { start: number; end: number }>(
  spans: readonly T[],
  s: number,
  e: number,
  f: (span: T, from: number, to: number, index: number) => void,
): void {
  for (let i = firstEndingAfter(spans, s); i < spans.length; i++) {
    const x = spans[i] as T;
    if (x.start >= e) break;
    const from = Math.max(s, x.start);
    const to = Math.min(e, x.end);
    if (to > from) f(x, from, to, i);
  }
}

/** Sorted, non-overlapping copy: where two overlap, the earlier-starting one keeps the overlap. */
function normalized<T extends { start: number; end: number }>(spans: readonly T[]): readonly T[] {
  let clean = true;
  for (let i = 0; clean && i < spans.length; i++) {
    const x = spans[i] as T;
    if (x.end <= x.start || (i > 0 && x.start < (spans[i - 1] as T).end)) clean = false;
  }
  if (clean) return spans; // the usual case: deriver output is already sorted and disjoint
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: T[] = [];
  let covered = -Infinity;
  for (const x of sorted) {
    const start = Math.max(x.start, covered);
    if (x.end <= start) continue;
    out.push(start === x.start ? x : { ...x, start });
    covered = x.end;
  }
  return out;
}

function addDowntime(r: RollupMeasures, reason: string, planned: boolean, ms: number): void {
  const d = (r.downtimeByReason[reason] ??= { plannedMs: 0, unplannedMs: 0 });
  if (planned) {
    d.plannedMs += ms;
    r.plannedDowntimeMs += ms;
  } else {
    d.unplannedMs += ms;
    r.unplannedDowntimeMs += ms;
  }
}

/**
 * Builds the rollups of one machine for `buckets` (sorted, contiguous; from rollupBuckets). Source records
 * may extend beyond the buckets; they are clipped. Recomputing a range after annotations, rejects or late
 * data changed it is calling this again for that range's buckets and replacing the rows.
 */
export function buildRollups(source: RollupSource, buckets: readonly Bucket[]): Rollup[] {
  const rows: Rollup[] = buckets.map((b) => newRollup(source.machineId, b));
  if (rows.length === 0) return rows;
  const annotations = normalized(source.annotations ?? []);
  const plannedSetup = normalized(
    (source.runs ?? [])
      .filter((r) => r.startInSetup === 'planned')
      .map((r) => ({ start: r.start as number, end: (r.end ?? Infinity) as number })),
  );
  // METRICS.md §3 (decision 1002): the run time Performance is measured on, ACTIVE time of runs with a standard.
  const standardRuns = normalized(
    (source.runs ?? [])
      .filter((r) => r.idealCycleTime > 0)
      .map((r) => ({ start: r.start as number, end: (r.end ?? Infinity) as number })),
  );

  // State time and downtime classification.
  for (const iv of normalized(source.intervals)) {
    eachOverlap(buckets, iv.start, iv.end, (_b, from, to, i) => {
      const row = rows[i] as Rollup;
      row.stateMs[iv.state] += to - from;
      if (iv.state === 'ACTIVE') {
        eachOverlap(standardRuns, from, to, (_s, a, b) => (row.standardRunMs += b - a));
        return;
      }
      if (iv.state === 'SETUP') {
        // METRICS.md §2: setup of a run started in 'planned' setup mode is planned downtime.
        let planned = 0;
        eachOverlap(plannedSetup, from, to, (_s, a, b) => (planned += b - a));
        if (planned > 0) addDowntime(row, SETUP_REASON, true, planned);
        if (to - from - planned > 0) addDowntime(row, SETUP_REASON, false, to - from - planned);
        return;
      }
      let categorized = 0;
      eachOverlap(annotations, from, to, (a, x, y) => {
        categorized += y - x;
        addDowntime(row, a.reasonId ?? UNCATEGORIZED_REASON, a.countsAsPlanned, y - x);
      });
      if (to - from - categorized > 0) addDowntime(row, UNCATEGORIZED_REASON, false, to - from - categorized);
    });
  }

  for (const s of normalized(source.spindle ?? [])) {
    eachOverlap(buckets, s.start, s.end, (_b, from, to, i) => ((rows[i] as Rollup).spindleMs += to - from));
  }
  for (const s of normalized(source.inCut ?? [])) {
    eachOverlap(buckets, s.start, s.end, (_b, from, to, i) => ((rows[i] as Rollup).inCutMs += to - from));
  }

  // Cycles count in the bucket of their end timestamp.
  for (const c of source.cycles ?? []) {
    const row = rows[bucketIndexAt(buckets, c.end)];
    if (!row) continue;
    row.cycles += 1;
    row.idealMs += c.idealMs;
    row.expectedMs += c.expectedMs;
    row.parts += c.parts;
    // Decision 0101: a cycle with no run has no standard (0) and triggers the missing-standards warning.
    row.minExpectedPartTime = minNullable(
      row.minExpectedPartTime,
      c.runId === null ? 0 : c.expectedCycleTime,
    );
  }
  // METRICS.md §3: the warning concerns any run in the range, with or without cycles.
  for (const r of source.runs ?? []) {
    eachOverlap(buckets, r.start, r.end ?? Infinity, (_b, _from, _to, i) => {
      const row = rows[i] as Rollup;
      row.minExpectedPartTime = minNullable(row.minExpectedPartTime, r.expectedCycleTime);
    });
  }

  for (const a of source.adjustments ?? []) {
    const row = rows[bucketIndexAt(buckets, a.adjustmenttime)];
    if (!row) continue;
    row.adjustmentCount += a.count;
    if (a.rejectBehavior !== null) {
      row.rejected += a.scrapcount;
      const key = a.categoryId ?? UNCATEGORIZED_REJECT;
      row.rejectsByType[key] = (row.rejectsByType[key] ?? 0) + a.scrapcount;
    }
  }
  return rows;
}

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

/** Mutates `into`: adds the downtime of `byReason` reason by reason (as addMeasuresInto does). */
export function addDowntimeByReasonInto(
  into: Record<string, DowntimeMs>,
  byReason: Readonly<Record<string, DowntimeMs>>,
): Record<string, DowntimeMs> {
  for (const [k, v] of Object.entries(byReason)) {
    const d = (into[k] ??= { plannedMs: 0, unplannedMs: 0 });
    d.plannedMs += v.plannedMs;
    d.unplannedMs += v.unplannedMs;
  }
  return into;
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
type SeriesBeingPacked = Omit<RollupSeries, 'shiftIds'> & { shiftIds: string[] };

/** An empty series of n rows, every column zero, no shifts known yet. */
function newSeries(n: number): SeriesBeingPacked {
  const col = () => new Float64Array(n);
  return {
    length: n,
    start: col(),
    end: col(),
    shift: new Int32Array(n),
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
