import type { EpochMs } from '../brand';
import { HOUR_MS } from '../brand';
import type { Bucket, CompanyCalendar, TimeRange } from '../calendar/intervals';
import { rollupBuckets } from '../calendar/intervals';
import type { Rollup } from './rollup';
import type { RollupSeries } from './series';
import { newSeries, SERIES_COLUMNS } from './series';

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
 * `from` (decision 1201): where the rows must start covering, lifeCoverFrom of the machine's monitored life; the
 * span's time before it is outside the machine's life, with nothing to sum (METRICS.md §1), so no rows there is
 * no gap. Rows that are there are still of the span's grid.
 */
export function coversWhole(
  split: RangeSplit,
  rows: readonly Rollup[],
  from: number = Number.NEGATIVE_INFINITY,
): boolean {
  const whole = split.whole;
  if (!whole || from >= whole.end) return true;
  let at: number = Math.max(whole.start, from);
  for (const r of rows) {
    if (r.end <= whole.start || r.start >= whole.end) continue;
    // A row across the span's edge is of another bucket grid (rows stored under an older calendar): the
    // rows would not add up to the range, so it is no cover either.
    if (r.start < whole.start || r.end > whole.end || r.start > at) return false;
    if (r.end > at) at = r.end;
  }
  return at >= whole.end;
}

/**
 * Where a machine's rows must start covering a range (coversWhole's `from`, decision 1201): the start of the bucket
 * holding its monitored start (`monitoredFrom`, METRICS.md §1), as that bucket's row holds its first monitored time;
 * Infinity when it is not monitored yet (null), so no time of any range is in its life.
 */
export function lifeCoverFrom(calendar: CompanyCalendar, monitoredFrom: number | null): number {
  return monitoredFrom === null ? Number.POSITIVE_INFINITY : bucketAt(calendar, monitoredFrom).start;
}

/**
 * Where a machine's stored rows stop being good for a range ending at `end` (decision 1067): at the first
 * instant they do not hold — its pending dirty mark (`dirty`, late data or an edit from then on) or the time
 * its rows were computed up to (`computedAt`, rows stop there), whichever is first — taken back to the start
 * of the bucket it falls in, as that bucket's stored row is stale or cut short. `end` when the rows hold to
 * the end; -Infinity with no rows at all. The range's stored prefix is [start, storedUntil), built like any
 * range (splitRange, rollupsOfRange); its tail [storedUntil, end) is built from the facts on the rollupBuckets
 * grid, so together they are exactly the rows built from the facts over the whole range.
 */
export function storedUntil(
  calendar: CompanyCalendar,
  end: number,
  dirty: number | undefined,
  computedAt: number | undefined,
): number {
  const until = Math.min(dirty ?? Number.POSITIVE_INFINITY, computedAt ?? Number.NEGATIVE_INFINITY);
  if (until >= end) return end;
  if (!Number.isFinite(until)) return Number.NEGATIVE_INFINITY;
  return bucketAt(calendar, until).start;
}

/** Series `a` followed by series `b` (every row of `b` starting at or after the last row of `a` ends). */
export function joinSeries(a: RollupSeries, b: RollupSeries): RollupSeries {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = newSeries(a.length + b.length);
  const shiftIds = out.shiftIds;
  shiftIds.push(...a.shiftIds);
  const slot = b.shiftIds.map((id) => {
    const i = shiftIds.indexOf(id);
    return i >= 0 ? i : shiftIds.push(id) - 1;
  });
  for (const c of SERIES_COLUMNS) {
    out[c].set(a[c]);
    out[c].set(b[c], a.length);
  }
  out.shift.set(a.shift);
  for (let i = 0; i < b.length; i++) out.shift[a.length + i] = b.shift[i]! < 0 ? -1 : slot[b.shift[i]!]!;
  return out;
}
