import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DurationMs, EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { Bucket, CompanyCalendar } from '../calendar/intervals';
import { reportIntervals, rollupBuckets } from '../calendar/intervals';
import { shiftOccurrences } from '../calendar/shifts';
import type { Span, StateInterval } from '../derive/outputs';
import type { MachineState } from '../machine-state';
import { MACHINE_STATES } from '../machine-state';
import type { EfficiencyTotals } from '../metrics/oee';
import type { PartAdjustmentFact, ProductionCycle } from '../metrics/production';
import type { DowntimeAnnotation, Rollup, RollupSource } from './rollup';
import {
  buildRollups,
  efficiencyTotals,
  efficiencyTotalsSeries,
  efficiencyTotalsSorted,
  inShiftDowntimeByReason,
  knownStateMsSeries,
  packRollups,
  NO_DATA_REASON,
  noDataSpans,
  packSeriesRows,
  SETUP_REASON,
  sumRollups,
  UNCATEGORIZED_REASON,
} from './rollup';

const t = (iso: string) => Date.parse(iso) as EpochMs;
// ---------------------------------------------------------------------------------------------------------
// Property: for any bucketing, the sum of rollups equals a direct computation.

const SECOND = 1000;
const RANGE_S = 4 * 3600; // a 4-hour range, whole seconds so a per-second reference is exact
const R0 = Date.UTC(2024, 0, 15, 4, 0, 0);
const sec = (s: number) => (R0 + s * SECOND) as EpochMs;

interface Scenario {
  source: RollupSource;
  shifts: { start: number; end: number; id: string }[];
  cuts: number[];
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    statePoints: fc.uniqueArray(fc.integer({ min: 1, max: RANGE_S - 1 }), { maxLength: 30 }),
    states: fc.array(fc.constantFrom(...MACHINE_STATES), { minLength: 31, maxLength: 31 }),
    ann: fc.array(
      fc.tuple(
        fc.integer({ min: -600, max: RANGE_S }),
        fc.integer({ min: 1, max: 3600 }),
        fc.constantFrom('a', 'b', null),
        fc.boolean(),
      ),
      { maxLength: 6 },
    ),
    spin: fc.array(fc.tuple(fc.integer({ min: 0, max: RANGE_S }), fc.integer({ min: 1, max: 1800 })), {
      maxLength: 5,
    }),
    cycles: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: RANGE_S + 100 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 90 }),
      ),
      { maxLength: 30 },
    ),
    adj: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: RANGE_S - 1 }),
        fc.integer({ min: -3, max: 5 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom<'scrap' | 'nonconform' | null>('scrap', 'nonconform', null),
      ),
      { maxLength: 8 },
    ),
    shiftPoints: fc.uniqueArray(fc.integer({ min: 0, max: RANGE_S }), { maxLength: 6 }),
    setupRun: fc.option(
      fc.tuple(fc.integer({ min: 0, max: RANGE_S }), fc.integer({ min: 1, max: RANGE_S })),
      { nil: null },
    ),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: RANGE_S - 1 }), { maxLength: 40 }),
    // METRICS.md §1: where monitored life starts (absent: before the range), and a stored interval missing.
    life: fc.option(fc.integer({ min: 0, max: RANGE_S }), { nil: null }),
    hole: fc.option(fc.nat(), { nil: null }),
  })
  .map((g): Scenario => {
    const points = [0, ...[...g.statePoints].sort((a, b) => a - b), RANGE_S];
    const intervals: StateInterval[] = [];
    for (let i = 0; i + 1 < points.length; i++)
      intervals.push({
        start: sec(points[i] as number),
        end: sec(points[i + 1] as number),
        state: g.states[i] ?? 'ACTIVE',
        reason: null,
      });
    if (g.hole !== null && intervals.length > 1) intervals.splice(g.hole % intervals.length, 1);
    const annotations: DowntimeAnnotation[] = [];
    let covered = -Infinity;
    for (const [s, len, reason, planned] of [...g.ann].sort((a, b) => a[0] - b[0])) {
      const start = Math.max(s, covered);
      if (s + len <= start) continue;
      annotations.push({ start: sec(start), end: sec(s + len), reasonId: reason, countsAsPlanned: planned });
      covered = s + len;
    }
    const spindle: Span[] = [];
    covered = -Infinity;
    for (const [s, len] of [...g.spin].sort((a, b) => a[0] - b[0])) {
      const start = Math.max(s, covered);
      if (s + len <= start) continue;
      spindle.push({ start: sec(start), end: sec(s + len) });
      covered = s + len;
    }
    const cycles: ProductionCycle[] = g.cycles.map(([end, parts, ideal]) => ({
      start: sec(end),
      end: sec(end),
      duration: 0 as DurationMs,
      count: 1,
      source: 'part_count',
      setup: false,
      runId: ideal === 0 ? null : 'r',
      jobId: null,
      parts,
      expectedCycleTime: ideal * SECOND,
      idealCycleTime: ideal * SECOND,
      idealMs: ideal * SECOND,
      expectedMs: ideal * SECOND,
    }));
    const adjustments: PartAdjustmentFact[] = g.adj.map(([s, count, scrap, behavior]) => ({
      adjustmenttime: sec(s),
      count,
      scrapcount: behavior ? scrap : 0,
      rejectBehavior: behavior,
      categoryId: behavior === 'scrap' ? 'x' : null,
    }));
    const sp = [...g.shiftPoints].sort((a, b) => a - b);
    const shifts: Scenario['shifts'] = [];
    for (let i = 0; i + 1 < sp.length; i += 2)
      shifts.push({ start: sp[i] as number, end: sp[i + 1] as number, id: `s${i % 4}` });
    const runs = g.setupRun
      ? [
          {
            start: sec(g.setupRun[0]),
            end: sec(g.setupRun[0] + g.setupRun[1]),
            startInSetup: 'planned' as const,
            expectedCycleTime: 5,
            // Decision 1002: half the runs have no ideal cycle time (their run time is out of P).
            idealCycleTime: g.setupRun[1] % 2 === 0 ? 0 : 5,
          },
        ]
      : [];
    return {
      source: {
        machineId: 'm',
        ...(g.life === null ? {} : { monitoredFrom: sec(g.life) }),
        intervals,
        annotations,
        spindle,
        inCut: spindle.slice(0, 1),
        cycles,
        adjustments,
        runs,
      },
      shifts,
      cuts: g.cuts,
    };
  });

function bucketsOf(s: Scenario): Bucket[] {
  const edges = new Set<number>([0, RANGE_S, ...s.cuts]);
  for (const x of s.shifts) edges.add(x.start).add(x.end);
  const sorted = [...edges].sort((a, b) => a - b);
  const out: Bucket[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i] as number;
    const b = sorted[i + 1] as number;
    if (b <= a) continue;
    const shift = s.shifts.find((x) => x.start <= a && b <= x.end);
    out.push({ start: sec(a), end: sec(b), shiftId: shift ? shift.id : null });
  }
  return out;
}

/** Reference: second by second, straight from the definitions (METRICS.md §2–§3). */
function direct(
  s: Scenario,
  shiftIds: ReadonlySet<string> | null,
): { totals: EfficiencyTotals; byReason: Record<string, [number, number]> } {
  const within = <T extends { start: number; end: number }>(spans: readonly T[], at: number): T | undefined =>
    spans.find((x) => x.start <= at && at < x.end);
  const totals: EfficiencyTotals = {
    allTimeMs: 0,
    shiftTimeMs: 0,
    plannedDowntimeMs: 0,
    runTimeMs: 0,
    idealTimeMs: 0,
    standardRunTimeMs: 0,
    totalParts: 0,
    rejectedParts: 0,
    inCycleMs: 0,
    spindleMs: 0,
    inCutMs: 0,
    minExpectedPartTime: null,
  };
  const byReason: Record<string, [number, number]> = {};
  const shiftAt = (x: number) => s.shifts.find((sh) => sh.start <= x && x < sh.end);
  const selected = (x: number) => {
    const sh = shiftAt(x);
    return shiftIds === null || (sh !== undefined && shiftIds.has(sh.id));
  };
  const life = s.source.monitoredFrom ?? -Infinity;
  for (let x = 0; x < RANGE_S; x++) {
    if (!selected(x)) continue;
    const at = sec(x);
    // METRICS.md §1: before its monitored life a machine is in no time base; inside it, no data is UNAVAILABLE.
    if (at < life) continue;
    const inShift = shiftAt(x) !== undefined;
    const state: MachineState = within(s.source.intervals, at)?.state ?? 'UNAVAILABLE';
    totals.allTimeMs += SECOND;
    if (state === 'ACTIVE') totals.inCycleMs += SECOND;
    if (within(s.source.spindle ?? [], at)) totals.spindleMs += SECOND;
    if (within(s.source.inCut ?? [], at)) totals.inCutMs += SECOND;
    if (inShift) {
      totals.shiftTimeMs += SECOND;
      if (state === 'ACTIVE') totals.runTimeMs += SECOND;
      const standard = (s.source.runs ?? [])
        .filter((r) => r.idealCycleTime > 0)
        .map((r) => ({ start: r.start, end: r.end ?? Infinity }));
      if (state === 'ACTIVE' && within(standard, at)) totals.standardRunTimeMs += SECOND;
    }
    if (state === 'ACTIVE') continue;
    let reason: string;
    let planned: boolean;
    if (state === 'SETUP') {
      reason = SETUP_REASON;
      planned =
        within(
          (s.source.runs ?? []).map((r) => ({ start: r.start, end: r.end ?? Infinity })),
          at,
        ) !== undefined;
    } else {
      const a = within(s.source.annotations ?? [], at);
      const none = state === 'UNAVAILABLE' ? NO_DATA_REASON : UNCATEGORIZED_REASON;
      reason = a?.reasonId ?? none;
      planned = a ? a.countsAsPlanned : false;
    }
    const r = (byReason[reason] ??= [0, 0]);
    r[planned ? 0 : 1] += SECOND;
    if (planned && inShift) totals.plannedDowntimeMs += SECOND;
  }
  for (const c of s.source.cycles ?? []) {
    const x = (c.end - R0) / SECOND;
    if (x >= RANGE_S || !selected(x)) continue;
    totals.minExpectedPartTime = Math.min(
      totals.minExpectedPartTime ?? Infinity,
      c.runId === null ? 0 : c.expectedCycleTime,
    );
    if (shiftAt(x)) {
      totals.idealTimeMs += c.idealMs;
      totals.totalParts += c.parts;
    }
  }
  for (const r of s.source.runs ?? []) {
    for (let x = (r.start - R0) / SECOND; x < Math.min(RANGE_S, ((r.end ?? Infinity) - R0) / SECOND); x++) {
      if (selected(x)) {
        totals.minExpectedPartTime = Math.min(totals.minExpectedPartTime ?? Infinity, r.expectedCycleTime);
        break;
      }
    }
  }
  for (const a of s.source.adjustments ?? []) {
    const x = (a.adjustmenttime - R0) / SECOND;
    if (!selected(x) || !shiftAt(x)) continue;
    totals.totalParts += a.count;
    if (a.rejectBehavior) totals.rejectedParts += a.scrapcount;
  }
  return { totals, byReason };
}

describe('rollup properties', () => {
  it('rollup sums equal the direct computation for any bucketing, with or without a shift filter', () => {
    fc.assert(
      fc.property(scenarioArb, fc.boolean(), (s, filtered) => {
        const rows = buildRollups(s.source, bucketsOf(s));
        const shiftIds = filtered ? new Set(['s0', 's2']) : null;
        const range = { start: sec(0), end: sec(RANGE_S), shiftIds };
        const sum = sumRollups(rows, range);
        const want = direct(s, shiftIds);
        expect(efficiencyTotals(sum)).toEqual(want.totals);
        expect(efficiencyTotalsSorted(rows, range)).toEqual(want.totals);
        expect(efficiencyTotalsSeries(packRollups([...rows].reverse()), range)).toEqual(want.totals);
        const byReason = Object.fromEntries(
          Object.entries(sum.all.downtimeByReason).map(([k, v]) => [k, [v.plannedMs, v.unplannedMs]]),
        );
        expect(byReason).toEqual(want.byReason);
        // METRICS.md §1: the No data spans the screens list add up to the rollups' No data.
        if (!filtered) {
          const spans = noDataSpans(s.source, sec(0), sec(RANGE_S));
          const nodata = want.byReason[NO_DATA_REASON] ?? [0, 0];
          expect(spans.reduce((t, x) => t + x.end - x.start, 0)).toBe(nodata[0] + nodata[1]);
        }
        // Decision 0804: the packed columns as a database sums them (SeriesRow), the state time and the
        // in-shift downtime by reason without the other sums.
        const packed = packRollups(rows);
        const asRows = packSeriesRows(
          rows.map((r, i) => [
            r.shiftId,
            r.start,
            r.end,
            packed.duration[i]!,
            packed.active[i]!,
            packed.known[i]!,
            packed.spindle[i]!,
            packed.inCut[i]!,
            packed.plannedDowntime[i]!,
            packed.ideal[i]!,
            packed.total[i]!,
            packed.rejected[i]!,
            r.minExpectedPartTime,
            packed.standardRun[i]!,
          ]),
        );
        expect(asRows).toEqual(packed);
        expect(knownStateMsSeries(packed, range)).toBe(
          Object.values(sum.all.stateMs).reduce((t, ms) => t + ms, 0),
        );
        expect(inShiftDowntimeByReason(rows, range)).toEqual(sum.inShift.downtimeByReason);
      }),
      { numRuns: 40 },
    );
  });

  it('summing is order independent and two bucketings give the same totals', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.uniqueArray(fc.integer({ min: 1, max: RANGE_S - 1 }), { maxLength: 20 }),
        (s, otherCuts) => {
          const a = buildRollups(s.source, bucketsOf(s));
          const b = buildRollups(s.source, bucketsOf({ ...s, cuts: otherCuts }));
          const range = { start: sec(0), end: sec(RANGE_S) };
          expect(sumRollups([...a].reverse(), range)).toEqual(sumRollups(a, range));
          expect(efficiencyTotals(sumRollups(b, range))).toEqual(efficiencyTotals(sumRollups(a, range)));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('calendar buckets: a week of rollups summed by day equals the week, in a DST week', () => {
    const chicago: CompanyCalendar = {
      timezone: 'America/Chicago',
      shifts: [
        {
          id: 'n',
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
      ],
    };
    const week = { start: t('2024-03-04T06:00:00Z'), end: t('2024-03-11T05:00:00Z') };
    const intervals: StateInterval[] = [];
    for (let x: number = week.start, k = 0; x < week.end; x += 7 * MINUTE_MS, k++)
      intervals.push({
        start: x as EpochMs,
        end: Math.min(x + 7 * MINUTE_MS, week.end) as EpochMs,
        state: k % 3 ? 'ACTIVE' : 'INACTIVE',
        reason: null,
      });
    const rows: Rollup[] = buildRollups({ machineId: 'm', intervals }, rollupBuckets(chicago, week));
    const whole = efficiencyTotals(sumRollups(rows, week));
    expect(whole.allTimeMs).toBe(167 * HOUR_MS);
    const byDay = reportIntervals(chicago, week, 'day').map((d) => efficiencyTotals(sumRollups(rows, d)));
    expect(byDay.reduce((s, d) => s + d.runTimeMs, 0)).toBe(whole.runTimeMs);
    const nightTotal = shiftOccurrences(chicago, chicago.shifts, week.start, week.end).reduce(
      (s, o) => s + o.end - o.start,
      0,
    );
    expect(whole.shiftTimeMs).toBe(nightTotal);
  });
});
