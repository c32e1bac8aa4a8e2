import { describe, expect, it } from 'vitest';
import type { DurationMs, EpochMs } from '../brand';
import { MINUTE_MS } from '../brand';
import type { Bucket, CompanyCalendar } from '../calendar/intervals';
import { rollupBuckets } from '../calendar/intervals';
import type { MachineCycle } from '../derive/outputs';
import type { RunStandards } from '../metrics/production';
import { applyStandards } from '../metrics/production';
import type { RollupSource } from '../rollup/rollup';
import { buildRollups } from '../rollup/rollup';
import type { BucketMemo, LiveGoalRun, LiveLimits } from './figures';
import { bucketMemo, liveFigures, liveGoal } from './figures';

// Hand-computed figures of one machine (METRICS.md §3, §4), as the tile and the card show them.

const t = (iso: string) => Date.parse(iso) as EpochMs;
const min = (m: number) => m * MINUTE_MS;

// A UTC company with one shift 06:00–14:00 every day; now is 10:00, so the window is 06:00–10:00 (4 h).
const calendar: CompanyCalendar = {
  timezone: 'UTC',
  shifts: [
    {
      id: 'day',
      name: 'Day',
      versions: [
        {
          startoffsetminutes: 360,
          endoffsetminutes: 840,
          byweekday: [0, 1, 2, 3, 4, 5, 6],
          effectivedate: '2024-01-01',
        },
      ],
    },
  ],
};
const S0 = t('2025-11-18T06:00:00Z');
const at = (m: number) => (S0 + min(m)) as EpochMs;
const NOW = at(240);
const limits: LiveLimits = {
  warningPercent: 85,
  failurePercent: 70,
  utilizationWarningPercent: 60,
  utilizationFailurePercent: 40,
};

// The run goes into production at 07:00: 10 min expected, 8 min ideal per cycle. In cycle 07:00–09:00 making
// 12 parts (10 min cycles), idle before and after; one part rejected and removed from good parts.
const run: RunStandards & LiveGoalRun = {
  id: 'run',
  jobId: 'job',
  start: at(60),
  end: null,
  productionStart: at(60),
  expectedCycleTime: min(10),
  idealCycleTime: min(8),
  partBehavior: 'one',
  startInSetup: 'none',
};
const cycles: MachineCycle[] = Array.from({ length: 12 }, (_, i) => ({
  start: at(60 + i * 10),
  end: at(70 + i * 10),
  duration: min(10) as DurationMs,
  count: 1,
  source: 'part_count',
  setup: false,
}));
const source: RollupSource = {
  machineId: 'm',
  intervals: [
    { start: S0, end: at(60), state: 'INACTIVE', reason: null },
    { start: at(60), end: at(180), state: 'ACTIVE', reason: null },
    { start: at(180), end: NOW, state: 'INACTIVE', reason: null },
  ],
  cycles: applyStandards(cycles, [run]),
  adjustments: [
    { adjustmenttime: at(100), count: 0, scrapcount: 1, rejectBehavior: 'scrap', categoryId: null },
  ],
  runs: [run],
};

describe('liveFigures: one machine, hand-computed', () => {
  const f = liveFigures({ calendar, source, windowStart: S0, run, now: NOW, limits });

  it('utilization and OEE over the window, as fractions and as percents', () => {
    // A = 2 h / 4 h; P = 12 × 8 min / 120 min; Q = 11 / 12.
    expect(f.efficiency?.utilization).toBeCloseTo(0.5, 12);
    expect(f.efficiency?.availability).toBeCloseTo(0.5, 12);
    expect(f.efficiency?.performance).toBeCloseTo(0.8, 12);
    expect(f.efficiency?.quality).toBeCloseTo(11 / 12, 12);
    expect(f.efficiency?.oee).toBeCloseTo(0.5 * 0.8 * (11 / 12), 12);
    expect(f.percents.utilization).toBeCloseTo(50, 10);
    expect(f.percents.oee).toBeCloseTo(50 * 0.8 * (11 / 12), 10);
    expect(f.utilizationStatus).toBe('warning');
    expect([f.activeMs, f.durationMs, f.downtimeMs]).toEqual([min(120), min(240), min(120)]);
  });

  it('parts against goal since production began', () => {
    // 180 min of production / 10 min = 18 expected; 12 made, 1 rejected.
    expect(f.goal).toMatchObject({
      scheduled: true,
      inSetup: false,
      productionRuntimeMs: min(180),
      totalParts: 12,
      rejectedParts: 1,
      goodParts: 11,
      expectedParts: 18,
      aheadBehind: -7,
      status: 'danger',
    });
    expect(f.goal.percent).toBeCloseTo((11 / 18) * 100, 10);
  });

  it.each([
    ['unscheduled', null, { scheduled: false, inSetup: false, expectedParts: null, status: 'unavailable' }],
    [
      'in setup: nothing expected yet',
      { ...run, productionStart: null },
      {
        scheduled: true,
        inSetup: true,
        expectedParts: null,
        percent: null,
        aheadBehind: null,
        status: 'success',
      },
    ],
    [
      'without a cycle-time standard',
      { ...run, expectedCycleTime: 0 },
      { expectedParts: null, percent: null, status: 'noJobStandards' },
    ],
  ] as const)('%s', (_, r, goal) => {
    expect(liveFigures({ calendar, source, windowStart: S0, run: r, now: NOW, limits }).goal).toMatchObject(
      goal,
    );
  });

  it.each([
    ['a job with standards: the goal status', run, 'danger'],
    ['unscheduled: unavailable', null, 'unavailable'],
    ['a job without ideal cycle time: noJobStandards', { ...run, idealCycleTime: 0 }, 'noJobStandards'],
    ['a job without expected cycle time: noJobStandards', { ...run, expectedCycleTime: 0 }, 'noJobStandards'],
  ] as const)('OEE tile status, %s (decision 1003)', (_, r, status) => {
    expect(liveFigures({ calendar, source, windowStart: S0, run: r, now: NOW, limits }).oeeStatus).toBe(
      status,
    );
  });

  it("OEE tile status follows the company's OEE percents, not the parts goal's (decision 1087)", () => {
    const withOee = (oeeWarningPercent: number, oeeFailurePercent: number) =>
      liveFigures({
        calendar,
        source,
        windowStart: S0,
        run,
        now: NOW,
        limits: { ...limits, oeeWarningPercent, oeeFailurePercent },
      });
    const pct = withOee(85, 70).goal.percent ?? NaN;
    expect(withOee(85, 70).goal.status).toBe('danger');
    expect(withOee(Math.floor(pct), 0).oeeStatus).toBe('success');
    expect(withOee(100, Math.floor(pct)).oeeStatus).toBe('warning');
    expect(withOee(100, Math.floor(pct) + 1).oeeStatus).toBe('danger');
    // The parts goal keeps its own cut-offs whatever the OEE ones are.
    expect(withOee(0, 0).goal.status).toBe('danger');
  });

  it('run time of a job without ideal cycle time is out of P: P and OEE null, never 0 % (decision 1002)', () => {
    const noIdeal = { ...run, idealCycleTime: 0 };
    const f0 = liveFigures({
      calendar,
      source: { ...source, cycles: applyStandards(cycles, [noIdeal]), runs: [noIdeal] },
      windowStart: S0,
      run: noIdeal,
      now: NOW,
      limits,
    });
    expect(f0.percents).toMatchObject({ availability: 50, performance: null, oee: null });
    expect(f0.efficiency?.missingStandards).toBe(true);
    expect(f.efficiency?.missingStandards).toBe(false);
  });

  it('an empty window has no figures', () => {
    const empty = liveFigures({ calendar, source, windowStart: NOW, run: null, now: NOW, limits });
    expect(empty.efficiency).toBeNull();
    expect(empty.percents.utilization).toBeNull();
    expect(empty.utilizationStatus).toBe('unavailable');
  });
});

describe('liveGoal with held rows and a bucket memo (decisions 1155, 1191)', () => {
  // The run started in setup at 06:30; held: the stored rows of 07:00–09:00, the tail's facts from 09:00.
  const inSetup = { ...run, startAt: at(30) };
  const span = { start: at(60), end: at(180) };
  const held = {
    rows: buildRollups(source, rollupBuckets(calendar, span)),
    from: span.start as number,
    to: span.end as number,
    tail: source,
  };
  const alone = liveGoal({ calendar, source, run: inSetup, now: NOW, limits });
  /** A memo whose every range has no buckets: used, it would lose the head's and the tail's facts. */
  const poisoned = (of: CompanyCalendar): BucketMemo => ({
    calendar: of,
    byRange: new (class extends Map<string, readonly Bucket[]> {
      override get = () => [];
    })(),
  });

  it.each([
    ['without a memo', undefined],
    ['with a fresh memo', bucketMemo(calendar)],
    ["with another calendar's memo (not consulted)", poisoned({ ...calendar, timezone: 'Asia/Kolkata' })],
  ] as const)('the same goal as the facts alone, %s', (_, memo) => {
    expect(liveGoal({ calendar, source, run: inSetup, now: NOW, limits, held, memo })).toEqual(alone);
  });

  it("a memo is shared by machines' goals at one now: the second goal cuts no range again", () => {
    const memo = bucketMemo(calendar);
    liveGoal({ calendar, source, run: inSetup, now: NOW, limits, held, memo });
    const cut = memo.byRange.size;
    expect(liveGoal({ calendar, source, run: inSetup, now: NOW, limits, held, memo })).toEqual(alone);
    expect(memo.byRange.size).toBe(cut);
    // The poisoned memo of this calendar is consulted (so the case above shows that another calendar's is not).
    expect(
      liveGoal({ calendar, source, run: inSetup, now: NOW, limits, held, memo: poisoned(calendar) }),
    ).not.toEqual(alone);
  });
});
