import type { Bucket } from '../calendar/intervals';
import type { DowntimePiece, PieceAnnotation } from '../derive/downtime-pieces';
import { piecePlannedValue } from '../derive/downtime-pieces';
import { SETUP_REASON_NAME } from '../live/rules';
import type { AnnotationTypeLike } from '../metrics/planned';
import type { TimeSpan } from '../reports/report-cells';
import { firstEndingAfter } from './build';
import { NO_DATA_REASON, UNCATEGORIZED_REASON } from './measures';
import { cutAtNoData } from './no-data';

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

/**
 * The downtime report's periods of one machine, whole (not clipped to a range), as it lists them: its downtime
 * pieces (piecesOf, setup left out) of an annotation type under that type, planned when METRICS.md §5 judges
 * the piece planned at `now`; the rest uncategorized, cut at its No data (decision 1060); and each No data span
 * (domain noDataSpans over at least the pieces' extent) a period of its own. An open piece lasts until `now`.
 * Sorted by start; disjoint.
 */
export function figurePeriodsOf<
  A extends PieceAnnotation & { category_id: string | null; planned: boolean | null },
>(
  pieces: readonly DowntimePiece<A>[],
  types: ReadonlyMap<string, AnnotationTypeLike & { id: string; name: string }>,
  noData: readonly TimeSpan[],
  now: number,
): FigurePeriod[] {
  const out: FigurePeriod[] = [];
  for (const p of pieces) {
    if (p.setup) continue;
    const end = p.end ?? now;
    const type = p.annotation?.category_id ? (types.get(p.annotation.category_id) ?? null) : null;
    if (type && p.annotation) {
      // The list leaves out a period whose reason reads "Setup" (domain downtimeListItems).
      if (type.name === SETUP_REASON_NAME) continue;
      const planned = piecePlannedValue(type, p.annotation, p, now).planned === true;
      out.push({ start: p.start, end, reason: type.id, planned });
      continue;
    }
    for (const c of cutAtNoData(p.start, end, noData))
      if (!c.noData) out.push({ start: c.start, end: c.end, reason: UNCATEGORIZED_REASON, planned: false });
  }
  for (const s of noData) out.push({ start: s.start, end: s.end, reason: NO_DATA_REASON, planned: false });
  return out.sort((a, b) => a.start - b.start);
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

// ---------------------------------------------------------------------------------------------------------
// Day and week rows, and the stored text

/** A row's figures with where it lies (null figures: the row was stored without them). */
export interface DowntimeRow {
  start: number;
  end: number;
  shiftId: string | null;
  downtime: DowntimeFigures | null;
}

/**
 * Rows (one machine's, sorted by start) summed per period × shift as domain rollupDays / rollupWeeks sum their
 * measures: by the start of each sum's first row (its key in the stored table). A sum with a row stored without
 * figures has none (null).
 */
export function sumDowntimePerPeriod(
  rows: readonly DowntimeRow[],
  periodEnd: (t: number) => number,
): Map<number, DowntimeFigures | null> {
  const out = new Map<number, DowntimeFigures | null>();
  let end = Number.NEGATIVE_INFINITY;
  let period = new Map<string | null, DowntimeRow[]>();
  const flush = () => {
    for (const parts of period.values()) {
      const known = parts.every((p) => p.downtime !== null);
      out.set(
        (parts[0] as DowntimeRow).start,
        known
          ? mergeDowntimeFigures(parts.map((p) => ({ end: p.end, downtime: p.downtime as DowntimeFigures })))
          : null,
      );
    }
    period = new Map();
  };
  for (const r of rows) {
    if (r.start >= end) {
      flush();
      end = periodEnd(r.start);
    }
    const parts = period.get(r.shiftId);
    if (parts) parts.push(r);
    else period.set(r.shiftId, [r]);
  }
  flush();
  return out;
}

type StoredReason = [plannedMs: number, unplannedMs: number, planned: number, unplanned: number];
type StoredInProgress = [
  at: number,
  start: number,
  startShift: string | null,
  reason: string,
  planned: 0 | 1,
];

/** The stored text of a row's figures (compact: a year of week rows is read at once). */
export function encodeDowntimeFigures(f: DowntimeFigures): string {
  const r: Record<string, StoredReason> = {};
  for (const [reason, x] of Object.entries(f.byReason))
    r[reason] = [x.plannedMs, x.unplannedMs, x.planned, x.unplanned];
  const p = f.inProgress.map((e): StoredInProgress => [
    e.at,
    e.start,
    e.startShift,
    e.reason,
    e.planned ? 1 : 0,
  ]);
  return JSON.stringify(p.length > 0 ? { r, p } : { r });
}

/** encodeDowntimeFigures' text read back; null or absent text: stored without figures. */
export function decodeDowntimeFigures(text: string | null | undefined): DowntimeFigures | null {
  if (text == null) return null;
  const { r, p } = JSON.parse(text) as { r: Record<string, StoredReason>; p?: StoredInProgress[] };
  const byReason: Record<string, DowntimeReasonFigures> = {};
  for (const [reason, [plannedMs, unplannedMs, planned, unplanned]] of Object.entries(r))
    byReason[reason] = { plannedMs, unplannedMs, planned, unplanned };
  return {
    byReason,
    inProgress: (p ?? []).map(([at, start, startShift, reason, planned]) => ({
      at,
      start,
      startShift,
      reason,
      planned: planned === 1,
    })),
  };
}
