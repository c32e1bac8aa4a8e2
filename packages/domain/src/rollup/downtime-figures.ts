import type { Bucket } from '../calendar/intervals';
import { firstEndingAfter } from './build';

// Decision 1188: the downtime report's figures (reports-admin §7: summary, Pareto by reason, byMachine, each with
// its duration and its `count` of periods) as sums of per-bucket figures, so that they can be kept with the rollup
// rows (hour buckets summed into day and week rows) instead of being recomputed from every state of the range.
//
// A report period counts once in a selection of buckets (a range, a shift selection) when any of its time lies
// in the selection (the report clips it to the selected shifts and keeps it when the clipped duration is above
// zero). Per bucket, by reason, each row keeps the downtime ms and the number of periods that BEGIN in it; and, at
// the start of each contiguous run of its time, the period in progress there (its start, the shift of the bucket
// it began in, its reason). A selection then counts the periods beginning inside it plus those in progress at a
// selected run's start that began outside the selection, each once (by its start: a machine's periods are
// disjoint, so no two share a start).

/** A downtime period as the report counts it: its whole extent, its reason key and its planned value. */
export interface FigurePeriod {
  start: number;
  /** Its end (an open period: the instant it is counted to, `now`). */
  end: number;
  /** Annotation type id, UNCATEGORIZED_REASON or NO_DATA_REASON: the report's reasonId. */
  reason: string;
  /** METRICS.md §5: only true counts as planned (the report's 'planned' kind). */
  planned: boolean;
}

/** One reason's figures: downtime ms and periods, planned and not (a type's periods may be both, §5 limits). */
export interface DowntimeReasonFigures {
  plannedMs: number;
  unplannedMs: number;
  /** In a row: the planned periods beginning in it. In a selection: the planned periods counted in it. */
  planned: number;
  unplanned: number;
}

/** The period in progress where a row's contiguous time starts. */
export interface DowntimeInProgress {
  /** The instant it is in progress at (a run of the row's time starts there). */
  at: number;
  /** The period's start (before `at`). */
  start: number;
  /** The shift of the bucket the period began in (null: outside shift time). */
  startShift: string | null;
  reason: string;
  planned: boolean;
}

/** What a rollup row keeps of the report's downtime. */
export interface DowntimeFigures {
  byReason: Record<string, DowntimeReasonFigures>;
  inProgress: DowntimeInProgress[];
}

export const emptyDowntimeFigures = (): DowntimeFigures => ({ byReason: {}, inProgress: [] });

const reasonOf = (f: DowntimeFigures, reason: string): DowntimeReasonFigures =>
  (f.byReason[reason] ??= { plannedMs: 0, unplannedMs: 0, planned: 0, unplanned: 0 });

/**
 * Each bucket's figures from one machine's periods (sorted by start, disjoint) over `buckets` (sorted,
 * contiguous, as rollupBuckets gives them). `shiftAt` names the shift of the bucket an instant before the
 * first bucket lies in (a period in progress at the buckets' start began there).
 */
export function downtimeBucketFigures(
  periods: readonly FigurePeriod[],
  buckets: readonly Bucket[],
  shiftAt: (t: number) => string | null,
): DowntimeFigures[] {
  const rows = buckets.map(emptyDowntimeFigures);
  if (buckets.length === 0) return rows;
  const first = (buckets[0] as Bucket).start as number;
  for (const p of periods) {
    if (!(p.end > p.start)) continue;
    let startShift: string | null | undefined;
    for (let i = firstEndingAfter(buckets, p.start); i < buckets.length; i++) {
      const b = buckets[i] as Bucket;
      if (b.start >= p.end) break;
      const row = rows[i] as DowntimeFigures;
      const r = reasonOf(row, p.reason);
      const ms = Math.min(b.end, p.end) - Math.max(b.start, p.start);
      if (p.planned) r.plannedMs += ms;
      else r.unplannedMs += ms;
      if (p.start >= b.start) {
        if (p.planned) r.planned += 1;
        else r.unplanned += 1;
        startShift = b.shiftId;
      } else {
        startShift ??= p.start < first ? shiftAt(p.start) : null;
        row.inProgress.push({
          at: b.start,
          start: p.start,
          startShift,
          reason: p.reason,
          planned: p.planned,
        });
      }
    }
  }
  return rows;
}

/**
 * One row's figures from its constituent rows' (an hour's into a day row, days' into a week row: one machine and
 * shift), sorted by start. A constituent's in-progress entry at the instant another constituent ends is dropped:
 * the row's time runs on there, so the period was in progress at the run's start or began inside it.
 */
export function mergeDowntimeFigures(
  parts: readonly { end: number; downtime: DowntimeFigures }[],
): DowntimeFigures {
  const out = emptyDowntimeFigures();
  const ends = new Set(parts.map((p) => p.end));
  for (const { downtime } of parts) {
    for (const [reason, f] of Object.entries(downtime.byReason)) {
      const r = reasonOf(out, reason);
      r.plannedMs += f.plannedMs;
      r.unplannedMs += f.unplannedMs;
      r.planned += f.planned;
      r.unplanned += f.unplanned;
    }
    for (const e of downtime.inProgress) if (!ends.has(e.at)) out.inProgress.push(e);
  }
  return out;
}

/**
 * The figures of a selection of one machine's rows (any mix of hour, day and week rows, no two overlapping): by
 * reason, the ms summed and the periods counted (those beginning in a selected row plus those in progress at a
 * selected run's start that began outside the selection, each once). `selected(t, shift)` tells whether the
 * instant t, in a bucket of that shift, lies in the selection. Added into `into` when given (a company's sums).
 */
export function selectDowntimeFigures(
  rows: Iterable<DowntimeFigures>,
  selected: (t: number, shift: string | null) => boolean,
  into: Record<string, DowntimeReasonFigures> = {},
): Record<string, DowntimeReasonFigures> {
  const counted = new Set<number>();
  const add = (reason: string) =>
    (into[reason] ??= { plannedMs: 0, unplannedMs: 0, planned: 0, unplanned: 0 });
  for (const row of rows) {
    for (const reason in row.byReason) {
      const f = row.byReason[reason] as DowntimeReasonFigures;
      const r = add(reason);
      r.plannedMs += f.plannedMs;
      r.unplannedMs += f.unplannedMs;
      r.planned += f.planned;
      r.unplanned += f.unplanned;
    }
    for (const e of row.inProgress) {
      if (counted.has(e.start) || selected(e.start, e.startShift)) continue;
      counted.add(e.start);
      const r = add(e.reason);
      if (e.planned) r.planned += 1;
      else r.unplanned += 1;
    }
  }
  return into;
}
