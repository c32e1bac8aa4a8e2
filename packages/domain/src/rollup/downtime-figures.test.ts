import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EpochMs } from '../brand';
import type { Bucket } from '../calendar/intervals';
import type { DowntimeFigures, DowntimeReasonFigures, FigurePeriod } from './downtime-figures';
import { downtimeBucketFigures, mergeDowntimeFigures, selectDowntimeFigures } from './downtime-figures';

// Decision 1188: the report's figures of a selection (ms and period counts by reason) from per-bucket figures
// summed into day and week rows must equal what the report computes from the periods themselves: each period
// clipped to the selected buckets, counted once when anything is left. Random machines, shifts and selections.

// Small units: an hour is 10, a day 4 hours, a week 3 days.
const HOUR = 10;
const DAY = 4 * HOUR;
const WEEK = 3 * DAY;
const WEEKS = 3;
const END = WEEKS * WEEK;
const SHIFTS = [null, 'a', 'b'] as const;

/** Buckets as rollupBuckets makes them: every hour, cut once where the shift changes inside it. */
const bucketsArb = fc
  .array(
    fc.tuple(fc.integer({ min: 0, max: HOUR - 1 }), fc.constantFrom(...SHIFTS), fc.constantFrom(...SHIFTS)),
    {
      minLength: END / HOUR,
      maxLength: END / HOUR,
    },
  )
  .map((hours) =>
    hours.flatMap(([cut, s1, s2], h): Bucket[] => {
      const start = h * HOUR;
      const b = (from: number, to: number, shiftId: string | null): Bucket => ({
        start: from as EpochMs,
        end: to as EpochMs,
        shiftId,
      });
      return cut === 0 || s1 === s2
        ? [b(start, start + HOUR, s1)]
        : [b(start, start + cut, s1), b(start + cut, start + HOUR, s2)];
    }),
  );

/** Disjoint periods (touching allowed), some starting before the buckets. */
const periodsArb = fc.uniqueArray(fc.integer({ min: -30, max: END + 5 }), { maxLength: 40 }).chain((xs) => {
  const points = [...xs].sort((a, b) => a - b);
  const n = Math.floor(points.length / 2);
  return fc
    .array(fc.tuple(fc.constantFrom('x', 'y', 'uncategorized', 'nodata'), fc.boolean(), fc.boolean()), {
      minLength: n,
      maxLength: n,
    })
    .map((meta) =>
      meta.flatMap(([reason, planned, skipGap], i): FigurePeriod[] => {
        const start = points[2 * i]!;
        // Touching periods: end where the next one starts now and then.
        const end = skipGap && points[2 * i + 2] !== undefined ? points[2 * i + 2]! : points[2 * i + 1]!;
        return [{ start, end, reason, planned }];
      }),
    );
});

const selectionArb = fc.record({
  from: fc.integer({ min: 0, max: END / HOUR }),
  length: fc.integer({ min: 1, max: END / HOUR }),
  shifts: fc.option(fc.subarray([...SHIFTS], { minLength: 1 }), { nil: undefined }),
  /** Whole days and weeks read from the summed rows, or every bucket alone. */
  summed: fc.boolean(),
});

interface Row {
  start: number;
  end: number;
  shiftId: string | null;
  downtime: DowntimeFigures;
}

/** Rows of one shift summed per group (a day, a week), each group's parts in time order. */
function summed(rows: readonly Row[], size: number): Row[] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${Math.floor(r.start / size)}|${r.shiftId}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()].map((parts) => ({
    // As rollupDays and rollupWeeks keep them: from the first part's start to the last part's end.
    start: parts[0]!.start,
    end: Math.max(...parts.map((p) => p.end)),
    shiftId: parts[0]!.shiftId,
    downtime: mergeDowntimeFigures(parts),
  }));
}

/** What the report does: each period clipped to the selected buckets, counted when anything is left. */
function direct(periods: readonly FigurePeriod[], selectedBuckets: readonly Bucket[]) {
  const out: Record<string, DowntimeReasonFigures> = {};
  for (const p of periods) {
    let ms = 0;
    for (const b of selectedBuckets) ms += Math.max(0, Math.min(b.end, p.end) - Math.max(b.start, p.start));
    if (ms <= 0) continue;
    const r = (out[p.reason] ??= { plannedMs: 0, unplannedMs: 0, planned: 0, unplanned: 0 });
    if (p.planned) {
      r.plannedMs += ms;
      r.planned += 1;
    } else {
      r.unplannedMs += ms;
      r.unplanned += 1;
    }
  }
  return out;
}

const nonZero = (figures: Record<string, DowntimeReasonFigures>) =>
  Object.fromEntries(
    Object.entries(figures).filter(([, f]) => f.plannedMs + f.unplannedMs + f.planned + f.unplanned > 0),
  );

describe('downtime figures kept per bucket (decision 1188)', () => {
  it('a selection of hour, day and week rows gives the periods clipped to it, each counted once', () => {
    fc.assert(
      fc.property(bucketsArb, periodsArb, selectionArb, (buckets, periods, sel) => {
        const shiftAt = (t: number) => (t < 0 ? 'b' : null);
        const figures = downtimeBucketFigures(periods, buckets, shiftAt);
        const hourRows: Row[] = buckets.map((b, i) => ({ ...b, downtime: figures[i]! }));
        const dayRows = summed(hourRows, DAY);
        const weekRows = summed(dayRows, WEEK);
        const from = sel.from * HOUR;
        const to = Math.min(END, from + sel.length * HOUR);
        const shiftOk = (s: string | null) => sel.shifts === undefined || sel.shifts.includes(s as never);
        const within = (r: { start: number; end: number; shiftId: string | null }) =>
          r.start >= from && r.end <= to && shiftOk(r.shiftId);
        // The rows a report reads: whole weeks from week rows, whole days from day rows, the rest by bucket.
        // The rows a report reads: whole weeks from week rows, whole days from day rows, the rest by bucket (each
        // summed row chosen by the day or week it sums).
        const whole = (r: Row, size: number) =>
          shiftOk(r.shiftId) && floor(r.start, size) >= from && floor(r.start, size) + size <= to;
        const rows: Row[] = sel.summed
          ? [
              ...weekRows.filter((w) => whole(w, WEEK)),
              ...dayRows.filter((d) => whole(d, DAY) && !whole(d, WEEK)),
              ...hourRows.filter((h) => within(h) && !whole(h, DAY)),
            ].sort((a, b) => a.start - b.start)
          : hourRows.filter(within);
        const got = selectDowntimeFigures(
          rows.map((r) => r.downtime),
          (t, s) => t >= from && t < to && shiftOk(s),
        );
        const want = direct(
          periods.filter((p) => p.end > p.start),
          buckets.filter(within),
        );
        expect(nonZero(got)).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('a period across bucket, day and week boundaries counts once, in progress or begun inside', () => {
    const buckets: Bucket[] = [];
    for (let t = 0; t < END; t += HOUR)
      buckets.push({ start: t as EpochMs, end: (t + HOUR) as EpochMs, shiftId: (t / HOUR) % 2 ? 'a' : null });
    // From inside the first week's last day to inside the second week, and one before the buckets.
    const periods: FigurePeriod[] = [
      { start: -5, end: 3, reason: 'x', planned: true },
      { start: WEEK - 15, end: WEEK + DAY + 5, reason: 'x', planned: false },
    ];
    const figures = downtimeBucketFigures(periods, buckets, () => 'a');
    const rows = buckets.map((b, i) => ({ ...b, downtime: figures[i]! }));
    const weeks = summed(summed(rows, DAY), WEEK);
    const all = selectDowntimeFigures(
      weeks.map((w) => w.downtime),
      (t) => t >= 0 && t < END,
    );
    expect(all).toEqual({ x: { plannedMs: 3, unplannedMs: 15 + DAY + 5, planned: 1, unplanned: 1 } });
    // Shift 'a' alone: the long period is in progress at several of its hours, counted once.
    const aOnly = selectDowntimeFigures(
      weeks.filter((w) => w.shiftId === 'a').map((w) => w.downtime),
      (t, s) => t >= 0 && t < END && s === 'a',
    );
    expect(aOnly.x).toEqual({ plannedMs: 0, unplannedMs: 30, planned: 0, unplanned: 1 });
    // The second week alone: the period began in the first, in progress at the week's start.
    const second = selectDowntimeFigures(
      [weeks.find((w) => w.start === WEEK && w.shiftId === null)!.downtime],
      (t, s) => t >= WEEK && t < 2 * WEEK && s === null,
    );
    expect(second.x).toEqual({ plannedMs: 0, unplannedMs: 25, planned: 0, unplanned: 1 });
  });
});

const floor = (t: number, size: number) => Math.floor(t / size) * size;
