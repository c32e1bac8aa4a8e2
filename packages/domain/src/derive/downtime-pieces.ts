import type { AnnotationTypeLike, PlannedValue } from '../metrics/planned';
import { plannedValue } from '../metrics/planned';

// METRICS.md §1 downtime periods split by annotations (live-operations §4, §5). The one definition of which
// annotation covers which downtime, shared by the downtime list (GET /api/downtime, the downtime report) and
// the rollups behind OEE, so a period is never planned on one screen and uncategorized on another.

/** A stored machine state row (open while `end` is null). */
export interface StateRow {
  start: number;
  /** null while the state is still current. */
  end: number | null;
  state: string;
}

export type SegmentKind = 'active' | 'setup' | 'down';

export interface DowntimeSegment {
  start: number;
  end: number | null;
  kind: SegmentKind;
}

/** What the period engine needs of an annotation. */
export interface PieceAnnotation {
  start: number;
  /** null when not explicitly set: the annotation follows its downtime period. */
  end: number | null;
  setup: boolean;
}

export interface DowntimePiece<A extends PieceAnnotation = PieceAnnotation> {
  start: number;
  /** null while the downtime is still going on. */
  end: number | null;
  /** The state was SETUP, or the covering annotation is a setup annotation. */
  setup: boolean;
  /** The annotation that covers this piece; an uncategorized split marker has no reason. */
  annotation: A | null;
}

const kindOf = (state: string): SegmentKind =>
  state === 'ACTIVE' ? 'active' : state === 'SETUP' ? 'setup' : 'down';

/**
 * Machine states → segments. Time with no data between or after known rows is UNAVAILABLE (METRICS.md §1
 * "no data"), so it is downtime; time before the first row is unknown and left out. Neighbouring segments
 * of the same kind merge: a downtime period is a maximal run of non-ACTIVE time, cut where SETUP starts or
 * ends so setup can be left out of the list (live-operations §5).
 */
export function segmentsOf(intervals: readonly StateRow[]): DowntimeSegment[] {
  const out: DowntimeSegment[] = [];
  // A segment object only when one begins (a month of 100 machines is ~200,000 rows, decision 1172).
  const push = (start: number, end: number | null, kind: SegmentKind) => {
    const last = out[out.length - 1];
    if (last && last.kind === kind && last.end === start) last.end = end;
    else out.push({ start, end, kind });
  };
  let cursor: number | null = null;
  // Stored rows come sorted: sorted (stably) only when they are not, which gives the same order.
  let sorted = true;
  for (let i = 1; sorted && i < intervals.length; i++)
    if ((intervals[i] as StateRow).start < (intervals[i - 1] as StateRow).start) sorted = false;
  for (const iv of sorted ? intervals : [...intervals].sort((a, b) => a.start - b.start)) {
    if (cursor !== null && iv.start > cursor) push(cursor, iv.start, 'down');
    const start = cursor === null ? iv.start : Math.max(iv.start, cursor);
    if (iv.end !== null && iv.end <= start) continue;
    push(start, iv.end, kindOf(iv.state));
    if (iv.end === null) return out;
    cursor = iv.end;
  }
  if (cursor !== null) push(cursor, null, 'down');
  return out;
}

/**
 * Each downtime segment partitioned by the annotations that touch it. An annotation with an explicit end
 * covers [start, end); one without covers from its start to the end of its segment (the first ACTIVE, or
 * a SETUP boundary, after it; still going while the segment is). A later annotation cuts an earlier one
 * short. What no annotation covers is uncategorized; a segment ended by an annotation's end goes on
 * uncategorized from there (live-operations §4 "the downtime restarts from that end").
 */
export function piecesOf<A extends PieceAnnotation>(
  segments: readonly DowntimeSegment[],
  annotations: readonly A[],
): DowntimePiece<A>[] {
  const out: DowntimePiece<A>[] = [];
  const INF = Number.POSITIVE_INFINITY;
  // The annotations sorted once by start (stable: ties keep their order, as sorting each segment's did), and the
  // furthest any of the first i reaches (its end, or an open one's start), so each segment looks only at those that
  // may touch it: from the first whose prefix reaches its start to the last starting before its end. A filter of
  // every annotation per segment was segments × annotations a machine (decision 1186).
  const sorted = [...annotations].sort((a, b) => a.start - b.start);
  const reach: number[] = [];
  for (const a of sorted) reach.push(Math.max(reach[reach.length - 1] ?? -INF, a.end ?? a.start));
  const firstIndex = (n: number, ok: (i: number) => boolean) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ok(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  for (const seg of segments) {
    if (seg.kind === 'active') continue;
    const segEnd = seg.end ?? INF;
    const from = firstIndex(sorted.length, (i) => (reach[i] as number) >= seg.start);
    const to = firstIndex(sorted.length, (i) => (sorted[i] as A).start >= segEnd);
    const touching: A[] = [];
    for (let i = from; i < to; i++) {
      const a = sorted[i] as A;
      if (a.end === null ? a.start >= seg.start && a.start < segEnd : a.start < segEnd && a.end > seg.start)
        touching.push(a);
    }
    let cursor = seg.start;
    const piece = (start: number, end: number, annotation: A | null) => {
      if (end <= start) return;
      out.push({
        start,
        end: end === INF ? null : end,
        setup: seg.kind === 'setup' || !!annotation?.setup,
        annotation,
      });
      cursor = end;
    };
    touching.forEach((a, i) => {
      const next = touching[i + 1];
      const from = Math.max(a.start, seg.start, cursor);
      const to = Math.min(a.end ?? INF, next ? Math.max(next.start, seg.start) : INF, segEnd);
      if (to <= from) return;
      if (from > cursor) piece(cursor, from, null);
      piece(from, to, a);
    });
    if (cursor < segEnd) piece(cursor, segEnd, null);
  }
  return out;
}

/**
 * The duration a covering annotation's planned value is judged on (decision 0106): its own when it has an
 * explicit end; without one, that of the piece it covers, measured to `now` while the downtime goes on.
 */
export function annotationDurationMs(
  a: PieceAnnotation,
  piece: Pick<DowntimePiece, 'start' | 'end'> | undefined,
  now: number,
): number {
  return a.end !== null ? a.end - a.start : (piece?.end ?? now) - (piece?.start ?? a.start);
}

/**
 * METRICS.md §5 planned value of a piece covered by annotation `a` of type `type`, judged on the period's
 * actual duration at `now` (so a live `plannedWithLimit` period turns "Exceeded Limit" once it passes the
 * limit, on every screen at once). The operator's choice is the annotation's stored `planned`.
 */
export function piecePlannedValue(
  type: AnnotationTypeLike | null | undefined,
  a: PieceAnnotation & { planned: boolean | null },
  piece: Pick<DowntimePiece, 'start' | 'end'> | undefined,
  now: number,
): PlannedValue {
  return plannedValue(type, annotationDurationMs(a, piece, now), a.planned === true);
}
