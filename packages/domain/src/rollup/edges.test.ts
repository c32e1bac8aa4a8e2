import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DurationMs, EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { CompanyCalendar, TimeRange } from '../calendar/intervals';
import { rollupBuckets } from '../calendar/intervals';
import type { Span, StateInterval } from '../derive/outputs';
import { MACHINE_STATES } from '../machine-state';
import type { ProductionCycle } from '../metrics/production';
import {
  bucketAt,
  coversWhole,
  joinSeries,
  lifeCoverFrom,
  rollupsOfRange,
  splitRange,
  storedUntil,
} from './edges';
import type { DowntimeAnnotation, Rollup, RollupMeasures, RollupSource } from './rollup';
import {
  addMeasuresInto,
  buildRollups,
  efficiencyTotalsSeries,
  emptyMeasures,
  packRollups,
  sumRollups,
} from './rollup';

// Issue 27 point 3: figures for [a, c) are those of [a, b) and [b, c) added, for any b — mid-hour,
// mid-minute, on a shift edge — whether a range's rows are built from the facts or read as whole stored
// buckets plus its edge pieces (decision 1015).

const t = (iso: string) => Date.parse(iso) as EpochMs;

// A company on Kolkata time (+05:30) whose day starts at 06:30 wall time, with a shift from 07:10 to 15:25 and
// one from 15:25 to 23:40: hour edges fall at :00 UTC, shift edges mid-hour, and a gap between shifts.
const calendar: CompanyCalendar = {
  timezone: 'Asia/Kolkata',
  currentTimeContext: { offset_millis: 6.5 * HOUR_MS },
  shifts: [
    {
      id: 'day',
      name: 'Day',
      versions: [
        {
          startoffsetminutes: 430,
          endoffsetminutes: 925,
          byweekday: [0, 1, 2, 3, 4, 5, 6],
          effectivedate: '2024-01-01',
        },
      ],
    },
    {
      id: 'late',
      name: 'Late',
      versions: [
        {
          startoffsetminutes: 925,
          endoffsetminutes: 1420,
          byweekday: [0, 1, 2, 3, 4, 5, 6],
          effectivedate: '2024-01-01',
        },
      ],
    },
  ],
};
// A company in Berlin (day from midnight) with a Night shift 22:00–06:00 across midnight and an Early shift
// 06:00–14:30, over the night summer time starts (2024-03-31 02:00 CET → 03:00 CEST: a 23-hour day).
const berlin: CompanyCalendar = {
  timezone: 'Europe/Berlin',
  shifts: [
    {
      id: 'night',
      name: 'Night',
      versions: [
        {
          startoffsetminutes: 1320,
          endoffsetminutes: 360,
          byweekday: [0, 1, 2, 3, 4, 5, 6],
          effectivedate: '2024-01-01',
        },
      ],
    },
    {
      id: 'early',
      name: 'Early',
      versions: [
        {
          startoffsetminutes: 360,
          endoffsetminutes: 870,
          byweekday: [0, 1, 2, 3, 4, 5, 6],
          effectivedate: '2024-01-01',
        },
      ],
    },
  ],
};

/** The generated facts live in [W0, W1): 8 hours from 01:00 Berlin time (06:30 Kolkata) on 2024-03-31. */
const W0 = t('2024-03-31T00:00:00Z');
const W1 = W0 + 8 * HOUR_MS;
/** The stored grid: the whole company days around the window. */
const GRID = { start: (W0 - 24 * HOUR_MS) as EpochMs, end: (W1 + 24 * HOUR_MS) as EpochMs };

const instant = fc.oneof(
  fc.integer({ min: W0, max: W1 }),
  // on a minute, an hour or a shift edge as often as anywhere
  fc.integer({ min: 0, max: 8 * 60 }).map((m) => W0 + m * MINUTE_MS),
  fc.integer({ min: 0, max: 8 }).map((h) => W0 + h * HOUR_MS),
);

/** Sorted distinct cut points of [W0, W1) into pieces. */
const cuts = (n: number) =>
  fc
    .uniqueArray(fc.integer({ min: W0 + 1, max: W1 - 1 }), { maxLength: n })
    .map((xs) => [W0, ...xs.sort((a, b) => a - b), W1]);

const spans = (n: number): fc.Arbitrary<Span[]> =>
  fc.uniqueArray(fc.integer({ min: W0, max: W1 }), { maxLength: 2 * n }).map((xs) => {
    const s = xs.sort((a, b) => a - b);
    const out: Span[] = [];
    for (let i = 0; i + 1 < s.length; i += 2) out.push({ start: s[i] as EpochMs, end: s[i + 1] as EpochMs });
    return out;
  });

const source: fc.Arbitrary<RollupSource> = fc
  .record({
    cuts: cuts(40),
    states: fc.array(fc.constantFrom(...MACHINE_STATES), { minLength: 41, maxLength: 41 }),
    spindle: spans(10),
    inCut: spans(10),
    cycles: fc.array(
      fc.record({
        end: instant,
        parts: fc.integer({ min: 0, max: 5 }),
        idealMs: fc.integer({ min: 0, max: 90_000 }),
        expectedMs: fc.integer({ min: 0, max: 120_000 }),
        run: fc.boolean(),
      }),
      { maxLength: 60 },
    ),
    adjustments: fc.array(
      fc.record({
        at: instant,
        count: fc.integer({ min: -3, max: 5 }),
        scrap: fc.integer({ min: 0, max: 3 }),
        reject: fc.constantFrom('scrap' as const, 'nonconform' as const, null),
        category: fc.constantFrom('burr', 'crack', null),
      }),
      { maxLength: 20 },
    ),
    annotations: fc.array(
      fc.record({
        a: instant,
        b: instant,
        reason: fc.constantFrom('break', 'jam', null),
        planned: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    // METRICS.md §1: the monitored life starts at the first observation (absent: the whole range).
    monitoredFrom: fc.option(instant, { nil: undefined }),
    runs: fc.array(
      fc.record({
        a: instant,
        b: fc.option(instant),
        setup: fc.constantFrom('planned' as const, 'unplanned' as const),
        ideal: fc.constantFrom(0, 30_000),
        expected: fc.constantFrom(0, 45_000),
      }),
      { maxLength: 3 },
    ),
  })
  .map((g): RollupSource => {
    const intervals: StateInterval[] = [];
    for (let i = 0; i + 1 < g.cuts.length; i++)
      intervals.push({
        start: g.cuts[i] as EpochMs,
        end: g.cuts[i + 1] as EpochMs,
        state: g.states[i]!,
        reason: null,
      });
    const cycles: ProductionCycle[] = g.cycles.map((c, i): ProductionCycle => ({
      start: (c.end - 60_000) as EpochMs,
      end: c.end as EpochMs,
      duration: 60_000 as DurationMs,
      count: 1,
      source: 'part_count',
      setup: false,
      runId: c.run ? `run${i % 3}` : null,
      jobId: null,
      parts: c.parts,
      expectedCycleTime: c.run ? 45_000 : 0,
      idealCycleTime: c.run ? 30_000 : 0,
      idealMs: c.idealMs,
      expectedMs: c.expectedMs,
    }));
    const annotations: DowntimeAnnotation[] = g.annotations
      .filter((x) => x.a !== x.b)
      .map((x) => ({
        start: Math.min(x.a, x.b) as EpochMs,
        end: Math.max(x.a, x.b) as EpochMs,
        reasonId: x.reason,
        countsAsPlanned: x.planned,
      }))
      .sort((x, y) => x.start - y.start);
    return {
      machineId: 'm1',
      ...(g.monitoredFrom !== undefined ? { monitoredFrom: g.monitoredFrom as EpochMs } : {}),
      intervals,
      spindle: g.spindle,
      inCut: g.inCut,
      cycles,
      adjustments: g.adjustments.map((x) => ({
        adjustmenttime: x.at as EpochMs,
        count: x.count,
        scrapcount: x.reject ? x.scrap : 0,
        rejectBehavior: x.reject,
        categoryId: x.category,
      })),
      annotations,
      runs: g.runs.map((r) => ({
        start: Math.min(r.a, r.b ?? r.a) as EpochMs,
        end: r.b === null ? null : (Math.max(r.a, r.b) as EpochMs),
        startInSetup: r.setup,
        expectedCycleTime: r.expected,
        idealCycleTime: r.ideal,
      })),
    };
  });

/** a < b < c inside the window. */
const triple = fc
  .tuple(instant, instant, instant)
  .filter(([x, y, z]) => new Set([x, y, z]).size === 3)
  .map((xs) => xs.sort((p, q) => p - q) as [number, number, number]);

const range = (start: number, end: number): TimeRange => ({ start: start as EpochMs, end: end as EpochMs });

/** Rows built from the facts over exactly the range's buckets (a machine without stored rows). */
const builtRows = (cal: CompanyCalendar, src: RollupSource, r: TimeRange) =>
  buildRollups(src, rollupBuckets(cal, r));

/** Rows as reportRollups reads a stored machine: the whole stored buckets inside, edges from the facts. */
const storedRows = (cal: CompanyCalendar, src: RollupSource, stored: readonly Rollup[], r: TimeRange) =>
  rollupsOfRange(splitRange(cal, r), stored, (edges) => buildRollups(src, edges));

const added = (x: RollupMeasures, y: RollupMeasures) =>
  addMeasuresInto(addMeasuresInto(emptyMeasures(), x), y);

/** Both sums of a range's rows: over all time and over shift time. */
const sums = (rows: readonly Rollup[], r: TimeRange) => {
  const s = sumRollups(rows, r);
  return { all: s.all, inShift: s.inShift };
};

describe('splitRange', () => {
  it('leaves a range on bucket edges whole and cuts a mid-hour one into its edge pieces', () => {
    const h = t('2024-03-12T13:00:00Z'); // 18:30 Kolkata, in the late shift
    expect(splitRange(calendar, range(h, h + 2 * HOUR_MS))).toEqual({
      whole: range(h, h + 2 * HOUR_MS),
      edges: [],
    });
    // 19:05–19:20 wall time: inside one bucket, one edge piece.
    const a = h + 35 * MINUTE_MS;
    expect(splitRange(calendar, range(a, a + 15 * MINUTE_MS))).toEqual({
      whole: null,
      edges: [{ start: a, end: a + 15 * MINUTE_MS, shiftId: 'late' }],
    });
    // 19:05 to 21:20:10.5: two edge pieces around two whole hours.
    const c = h + 3 * HOUR_MS + 50 * MINUTE_MS + 10_500;
    expect(splitRange(calendar, range(a, c))).toEqual({
      whole: range(h + HOUR_MS, h + 3 * HOUR_MS),
      edges: [
        { start: a, end: h + HOUR_MS, shiftId: 'late' },
        { start: h + 3 * HOUR_MS, end: c, shiftId: 'late' },
      ],
    });
  });

  it('cuts at shift edges too (a shift starting mid-hour)', () => {
    // The late shift starts 15:25 Kolkata = 09:55 UTC.
    const edge = t('2024-03-12T09:55:00Z');
    expect(bucketAt(calendar, edge - 1)).toEqual({
      start: t('2024-03-12T09:00:00Z'),
      end: edge,
      shiftId: 'day',
    });
    expect(bucketAt(calendar, edge)).toEqual({
      start: edge,
      end: t('2024-03-12T10:00:00Z'),
      shiftId: 'late',
    });
    expect(splitRange(calendar, range(edge, edge + HOUR_MS))).toEqual({
      whole: range(edge, t('2024-03-12T10:00:00Z')),
      edges: [{ start: t('2024-03-12T10:00:00Z'), end: edge + HOUR_MS, shiftId: 'late' }],
    });
  });
});

describe('coversWhole', () => {
  const h = t('2024-03-12T13:00:00Z');
  const row = (start: number, end: number) => ({ start, end }) as Rollup;
  const split = splitRange(calendar, range(h - 30 * MINUTE_MS, h + 3 * HOUR_MS));
  it('is true when the rows leave no gap in the whole span, false when an hour has no row', () => {
    expect(split.whole).toEqual(range(h, h + 3 * HOUR_MS));
    const rows = [0, 1, 2].map((i) => row(h + i * HOUR_MS, h + (i + 1) * HOUR_MS));
    expect(coversWhole(split, rows)).toBe(true);
    expect(coversWhole(split, [rows[0]!, rows[2]!])).toBe(false);
    expect(coversWhole(split, rows.slice(1))).toBe(false);
    expect(coversWhole(split, rows.slice(0, 2))).toBe(false);
    expect(coversWhole({ whole: null, edges: [] }, [])).toBe(true);
    // A row across the span's edge (another bucket grid) is no cover.
    expect(coversWhole(split, [row(h - 30 * MINUTE_MS, h + 30 * MINUTE_MS), ...rows])).toBe(false);
  });

  it('from the bucket of the monitored start on (decision 1201): no rows before it is no gap, after it still is', () => {
    const rows = [0, 1, 2].map((i) => row(h + i * HOUR_MS, h + (i + 1) * HOUR_MS));
    // Life starting mid-hour in the second hour: its bucket's row is the first one needed.
    const life = h + HOUR_MS + 17 * MINUTE_MS;
    expect(lifeCoverFrom(calendar, life)).toBe(h + HOUR_MS);
    expect(coversWhole(split, rows.slice(1), lifeCoverFrom(calendar, life))).toBe(true);
    expect(coversWhole(split, rows.slice(2), lifeCoverFrom(calendar, life))).toBe(false);
    expect(coversWhole(split, [rows[1]!], lifeCoverFrom(calendar, life))).toBe(false);
    expect(coversWhole(split, [rows[0]!, rows[2]!], lifeCoverFrom(calendar, h))).toBe(false);
    // Life after the span, or never: nothing to cover.
    expect(coversWhole(split, [], lifeCoverFrom(calendar, h + 3 * HOUR_MS))).toBe(true);
    expect(coversWhole(split, [], lifeCoverFrom(calendar, null))).toBe(true);
    // Life before the span: the whole span, as without it.
    expect(coversWhole(split, rows.slice(1), lifeCoverFrom(calendar, h - 2 * HOUR_MS))).toBe(false);
    // A row of another grid is no cover, before the life too.
    expect(
      coversWhole(split, [row(h - 30 * MINUTE_MS, h + 30 * MINUTE_MS), ...rows.slice(1)], h + HOUR_MS),
    ).toBe(false);
  });
});

describe.each([
  ['Kolkata (mid-hour shift edges)', calendar],
  ['Berlin (summer time starts, a night shift)', berlin],
])('any range, any boundary in %s (property)', (_name, cal) => {
  it('[a, c) = [a, b) + [b, c) for every additive measure, built from facts or from stored buckets and edges', () => {
    fc.assert(
      fc.property(source, triple, (src, [a, b, c]) => {
        const stored = buildRollups(src, rollupBuckets(cal, GRID));
        const ac = range(a, c);
        const ab = range(a, b);
        const bc = range(b, c);
        for (const rowsOf of [
          (r: TimeRange) => builtRows(cal, src, r),
          (r: TimeRange) => storedRows(cal, src, stored, r),
        ]) {
          const whole = sums(rowsOf(ac), ac);
          const left = sums(rowsOf(ab), ab);
          const right = sums(rowsOf(bc), bc);
          expect(whole.all).toEqual(added(left.all, right.all));
          expect(whole.inShift).toEqual(added(left.inShift, right.inShift));
          // Every row of [a, c) falls in exactly one of two cells cut at b.
          expect(added(sums(rowsOf(ac), ab).all, sums(rowsOf(ac), bc).all)).toEqual(whole.all);
        }
        // Stored buckets plus edges give what the facts give.
        expect(sums(storedRows(cal, src, stored, ac), ac)).toEqual(sums(builtRows(cal, src, ac), ac));
        // The packed series (rollupTotals) adds up too.
        const totals = (r: TimeRange) =>
          efficiencyTotalsSeries(packRollups(storedRows(cal, src, stored, r)), r);
        const [x, y, z] = [totals(ac), totals(ab), totals(bc)];
        for (const k of Object.keys(x) as (keyof typeof x)[]) {
          if (k === 'minExpectedPartTime') continue;
          expect(x[k]).toBe((y[k] as number) + (z[k] as number));
        }
        const mins = [y.minExpectedPartTime, z.minExpectedPartTime].filter((m) => m !== null);
        expect(x.minExpectedPartTime).toBe(mins.length ? Math.min(...mins) : null);
      }),
      { numRuns: 100 },
    );
  });
});

describe.each([
  ['Kolkata (mid-hour shift edges)', calendar],
  ['Berlin (summer time starts, a night shift)', berlin],
])('stored prefix and fresh tail in %s (decision 1067, property)', (_name, cal) => {
  it('stored rows up to storedUntil plus the tail built from the facts are the rows built from the facts', () => {
    fc.assert(
      fc.property(
        source,
        triple,
        fc.option(instant, { nil: undefined }),
        fc.option(instant, { nil: undefined }),
        (src, [a, , c], mark, computedAt) => {
          const stored = buildRollups(src, rollupBuckets(cal, GRID));
          const u = storedUntil(cal, c, mark, computedAt);
          // Never past the mark or the computed-at, and on a bucket edge unless the rows hold to the end.
          expect(u).toBeLessThanOrEqual(Math.min(c, mark ?? c, computedAt ?? Number.NEGATIVE_INFINITY));
          if (u < c && Number.isFinite(u)) expect(bucketAt(cal, u).start).toBe(u);
          const built = builtRows(cal, src, range(a, c));
          if (u <= a) return; // built wholly from the facts
          const prefix = storedRows(cal, src, stored, range(a, u));
          const tail = u < c ? builtRows(cal, src, range(u, c)) : [];
          expect([...prefix, ...tail]).toEqual(built);
          const all = efficiencyTotalsSeries(packRollups(built), range(a, c));
          expect(
            efficiencyTotalsSeries(joinSeries(packRollups(prefix), packRollups(tail)), range(a, c)),
          ).toEqual(all);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('storedUntil: the end when nothing is pending before it, the start of the bucket a mark falls in', () => {
    const h = t('2024-03-31T03:00:00Z');
    expect(storedUntil(cal, h, undefined, h + HOUR_MS)).toBe(h);
    expect(storedUntil(cal, h, h + 1, h)).toBe(h);
    expect(storedUntil(cal, h, undefined, undefined)).toBe(Number.NEGATIVE_INFINITY);
    const mid = h - 20 * MINUTE_MS;
    expect(storedUntil(cal, h, mid, h)).toBe(bucketAt(cal, mid).start);
    expect(storedUntil(cal, h, h, mid)).toBe(bucketAt(cal, mid).start);
  });
});
