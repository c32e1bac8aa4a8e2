import type { EpochMs } from '../brand';
import type { Bucket } from '../calendar/intervals';
import type { Span, StateInterval } from '../derive/outputs';
import { minNullable } from '../metrics/oee';
import type { PartAdjustmentFact, ProductionCycle, RunStandards } from '../metrics/production';
import type { Rollup, RollupMeasures } from './measures';
import {
  emptyStateMs,
  NO_DATA_REASON,
  SETUP_REASON,
  UNCATEGORIZED_REASON,
  UNCATEGORIZED_REJECT,
} from './measures';

// Building one machine's rollup rows from its stored facts (measures.ts says what a row holds).

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
  /**
   * METRICS.md §1: where the machine's monitored life starts (its first stored observation, or its first
   * manual count for a manual work center); null: not monitored yet. Time before it is in no time base of
   * §2 (a bucket's durationMs is its part inside life). Absent: the whole range is inside its life.
   */
  monitoredFrom?: EpochMs | null;
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

/**
 * A zeroed rollup row. Written as one literal with every field in a fixed order (no spread), so all rows
 * share one hidden class and summing a year of them stays a tight loop (bench/domain-rollups.ts).
 */
function newRollup(machineId: string, b: Bucket, lifeStart: number): Rollup {
  return {
    machineId,
    start: b.start,
    end: b.end,
    shiftId: b.shiftId,
    durationMs: Math.max(0, b.end - Math.max(b.start, lifeStart)),
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

// ---------------------------------------------------------------------------------------------------------
/** Index of the first span with end > t in spans sorted by start and not overlapping (a binary search). */
export function firstEndingAfter(spans: readonly { end: number }[], t: number): number {
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

/** The instant the source's monitored life starts (-Infinity: the whole range, Infinity: never). */
function lifeStartOf(source: RollupSource): number {
  if (source.monitoredFrom === undefined) return Number.NEGATIVE_INFINITY;
  return source.monitoredFrom === null ? Number.POSITIVE_INFINITY : source.monitoredFrom;
}

/**
 * The state intervals (sorted, disjoint) clipped to [from, to), with the time no interval covers filled as
 * UNAVAILABLE: inside its monitored life every instant of a machine is in exactly one state, and time
 * without data is no data (METRICS.md §1; derive/downtime-pieces.ts segmentsOf reads gaps the same way).
 */
function statesInLife(intervals: readonly StateInterval[], from: number, to: number): StateInterval[] {
  const out: StateInterval[] = [];
  const gap = (start: number, end: number) => {
    if (end > start)
      out.push({ start: start as EpochMs, end: end as EpochMs, state: 'UNAVAILABLE', reason: null });
  };
  let cursor = from;
  for (const iv of intervals) {
    if (iv.end <= cursor) continue;
    if (iv.start >= to) break;
    gap(cursor, iv.start);
    const start = Math.max(iv.start, cursor);
    const end = Math.min(iv.end, to);
    out.push(
      start === iv.start && end === iv.end ? iv : { ...iv, start: start as EpochMs, end: end as EpochMs },
    );
    cursor = end;
  }
  gap(cursor, to);
  return out;
}

/**
 * The machine's states over [from, to) inside its monitored life, every instant in exactly one state (time
 * without a stored state is UNAVAILABLE): what its rollups count (sorted, disjoint).
 */
export function statesOfLife(source: RollupSource, from: number, to: number): StateInterval[] {
  return statesInLife(normalized(source.intervals), Math.max(from, lifeStartOf(source)), to);
}

/**
 * Builds the rollups of one machine for `buckets` (sorted, contiguous; from rollupBuckets). Source records
 * may extend beyond the buckets; they are clipped. Recomputing a range after annotations, rejects or late
 * data changed it is calling this again for that range's buckets and replacing the rows.
 */
export function buildRollups(source: RollupSource, buckets: readonly Bucket[]): Rollup[] {
  const lifeStart = lifeStartOf(source);
  const rows: Rollup[] = buckets.map((b) => newRollup(source.machineId, b, lifeStart));
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

  // State time and downtime classification, inside the machine's monitored life only.
  const first = (buckets[0] as Bucket).start as number;
  const last = (buckets[buckets.length - 1] as Bucket).end as number;
  for (const iv of statesOfLife(source, first, last)) {
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
      // METRICS.md §1: UNAVAILABLE time is No data unless an operator gave it a reason (decision 1010: the
      // operator's reason wins, as for any downtime; a split without a reason is no reason).
      const unreasoned = iv.state === 'UNAVAILABLE' ? NO_DATA_REASON : UNCATEGORIZED_REASON;
      let categorized = 0;
      eachOverlap(annotations, from, to, (a, x, y) => {
        categorized += y - x;
        addDowntime(row, a.reasonId ?? unreasoned, a.countsAsPlanned, y - x);
      });
      if (to - from - categorized > 0) addDowntime(row, unreasoned, false, to - from - categorized);
    });
  }

  for (const s of normalized(source.spindle ?? [])) {
    eachOverlap(buckets, Math.max(s.start, lifeStart), s.end, (_b, from, to, i) => {
      (rows[i] as Rollup).spindleMs += to - from;
    });
  }
  for (const s of normalized(source.inCut ?? [])) {
    eachOverlap(buckets, Math.max(s.start, lifeStart), s.end, (_b, from, to, i) => {
      (rows[i] as Rollup).inCutMs += to - from;
    });
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
