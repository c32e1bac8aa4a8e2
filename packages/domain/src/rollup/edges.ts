import type { EpochMs } from '../brand';
import { HOUR_MS } from '../brand';
import type { Bucket, CompanyCalendar, TimeRange } from '../calendar/intervals';
import { rollupBuckets } from '../calendar/intervals';
import type { Rollup } from './rollup';

// Any range, any boundary (issue 27 point 3, decision 1015). A range's figures are its whole rollup buckets
// plus, at each edge it cuts a bucket (mid-hour, mid-minute, "now"), that bucket's part inside the range,
// built from the facts with the same buildRollups. Rows then never straddle the range's edges, so a report
// cell selects exactly its rows by start and the figures of [a, c) are those of [a, b) and [b, c) added.

/** A range as whole rollup buckets and the pieces of the (at most two) buckets its edges cut. */
export interface RangeSplit {
  /** The span of the buckets wholly inside the range, null when there is none. Its edges are bucket edges. */
  whole: TimeRange | null;
  /** The cut buckets clipped to the range, in time order (0, 1 or 2): build their rows from the facts. */
  edges: Bucket[];
}

/** The rollup bucket containing `t` (rollupBuckets' grid: hour and shift edges, each bucket within an hour). */
export function bucketAt(calendar: CompanyCalendar, t: number): Bucket {
  // A bucket lies inside one hour of the company day, so the hour either side of t holds it whole.
  const around = rollupBuckets(calendar, { start: (t - HOUR_MS) as EpochMs, end: (t + HOUR_MS) as EpochMs });
  const b = around.find((x) => x.start <= t && t < x.end);
  if (!b) throw new Error(`no rollup bucket at ${t}`);
  return b;
}

/**
 * Splits [range) into the span of its whole buckets and its edge pieces (decision 1015). A range on bucket
 * edges (the common, aligned case) has no edge pieces; one inside a single bucket is one edge piece.
 */
export function splitRange(calendar: CompanyCalendar, range: TimeRange): RangeSplit {
  if (range.end <= range.start) return { whole: null, edges: [] };
  const first = bucketAt(calendar, range.start);
  if (first.end >= range.end) {
    return first.start === range.start && first.end === range.end
      ? { whole: { start: range.start, end: range.end }, edges: [] }
      : { whole: null, edges: [{ start: range.start, end: range.end, shiftId: first.shiftId }] };
  }
  const last = bucketAt(calendar, range.end - 1);
  const edges: Bucket[] = [];
  if (first.start < range.start) edges.push({ start: range.start, end: first.end, shiftId: first.shiftId });
  if (last.end > range.end) edges.push({ start: last.start, end: range.end, shiftId: last.shiftId });
  const start = first.start < range.start ? first.end : range.start;
  const end = last.end > range.end ? last.start : range.end;
  return { whole: start < end ? { start, end } : null, edges };
}

/**
 * One machine's rows of exactly [range): its whole rows (`rows`: rows of the bucket grid, e.g. as stored;
 * those not wholly inside `split.whole` are dropped) and the rows `buildEdges` builds for the edge pieces
 * (buildRollups over the machine's facts), sorted by start.
 */
export function rollupsOfRange(
  split: RangeSplit,
  rows: readonly Rollup[],
  buildEdges: (edges: readonly Bucket[]) => readonly Rollup[],
): Rollup[] {
  const whole = split.whole;
  const out = whole ? rows.filter((r) => r.start >= whole.start && r.end <= whole.end) : [];
  if (split.edges.length === 0) return out;
  out.push(...buildEdges(split.edges));
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Whether one machine's rows (sorted by start) cover the split's whole span exactly, without a gap: rows
 * are stored for every bucket up to their recompute, so a gap is time whose rows were never written (a day
 * left partly computed, decision 1016), which a sum would take for no time at all. No whole span: true.
 */
export function coversWhole(split: RangeSplit, rows: readonly Rollup[]): boolean {
  const whole = split.whole;
  if (!whole) return true;
  let at: number = whole.start;
  for (const r of rows) {
    if (r.end <= whole.start || r.start >= whole.end) continue;
    // A row across the span's edge is of another bucket grid (rows stored under an older calendar): the
    // rows would not add up to the range, so it is no cover either.
    if (r.start < whole.start || r.end > whole.end || r.start > at) return false;
    if (r.end > at) at = r.end;
  }
  return at >= whole.end;
}
