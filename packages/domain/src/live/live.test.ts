import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../brand';
import type { TileInput } from '../tile-status';
import { formatElapsed, tileView } from '../tile-status';
import { goalStatus, performanceRingText, ringDegrees, utilizationStatus } from './status';
import {
  annotationToSave,
  canMergeInto,
  canSplitInHalf,
  cycleTimeFromInput,
  cycleTimeMs,
  downtimeListItems,
  formatDowntimeMinutes,
  formatInCycleHours,
  formatPartTime,
  formatParts,
  formatPartsPerHour,
  formatPercent,
  isSlowCycle,
  liveDowntimeStart,
  multiSelection,
  rejectAdjustmentCount,
  rejectBehaviorFor,
  rejectTypeEditable,
  removeFromGoodPartsShown,
  setupRemoval,
  showFastParts,
  showProgram,
  showSlowParts,
  splitInHalf,
  subprogramWindow,
  validRejectCount,
} from './rules';

const NOW = 1_700_000_000_000 as EpochMs;
const tile = (over: Partial<TileInput>): TileInput => ({
  status: 'INACTIVE',
  statusSince: NOW - 2 * MINUTE_MS,
  scheduled: true,
  stale: false,
  faultSince: null,
  faultMessage: null,
  lastHeartbeat: NOW,
  downtimefailuredelay: 5,
  downtime_reason: null,
  ...over,
});

describe('tile status (live-operations §4)', () => {
  it.each([
    {
      name: 'setup wins over everything',
      m: { status: 'SETUP' as const, stale: true, faultSince: NOW },
      want: ['setup', 'Setup'],
    },
    {
      name: 'stale → Disconnected',
      m: { stale: true, faultSince: NOW },
      want: ['unavailable', 'Disconnected'],
    },
    {
      name: 'stale and never heard from → Never Reported',
      m: { stale: true, lastHeartbeat: null, statusSince: null },
      want: ['unavailable', 'Never Reported'],
    },
    {
      name: 'fault beats extended unavailable and status',
      m: { status: 'FAULT' as const, faultMessage: 'Spindle overload' },
      want: ['fault', 'Spindle overload'],
    },
    { name: 'fault without message', m: { status: 'FAULT' as const }, want: ['fault', 'Fault'] },
    {
      name: 'extended unavailable → Not Reported',
      m: { status: 'UNAVAILABLE' as const },
      want: ['unavailable', 'Not Reported'],
    },
    {
      name: 'unscheduled without statusSince → unavailable',
      m: { scheduled: false, statusSince: null },
      want: ['unavailable', 'Never Reported'],
    },
    {
      name: 'success stays success',
      m: { status: 'ACTIVE' as const, statusSince: NOW - DAY_MS },
      want: ['success', 'Active'],
    },
    {
      name: 'idle below downtimefailuredelay → warning',
      m: { statusSince: NOW - 4 * MINUTE_MS },
      want: ['warning', 'Idle'],
    },
    {
      name: 'idle at downtimefailuredelay → danger',
      m: { statusSince: NOW - 5 * MINUTE_MS },
      want: ['danger', 'Idle'],
    },
    {
      name: 'idle reason in the description',
      m: { downtime_reason: 'Waiting for material' },
      want: ['warning', 'Idle - Waiting for material'],
    },
  ])('$name', ({ m, want }) => {
    const v = tileView(tile(m), 'utilization', NOW);
    expect([v.status, v.description]).toEqual(want);
  });

  it('on the Downtime dashboard an unscheduled machine follows the status rule', () => {
    expect(tileView(tile({ scheduled: false, statusSince: null }), 'downtime', NOW).status).toBe('danger');
    expect(tileView(tile({ scheduled: false }), 'downtime', NOW).status).toBe('warning');
  });

  it('formats time in state', () => {
    expect(formatElapsed(null, NOW)).toBe('-');
    expect(formatElapsed(NOW - 65_000, NOW)).toBe('0:01:05');
    expect(formatElapsed(NOW - DAY_MS - HOUR_MS, NOW)).toBe('1d 1:00:00');
  });
});

describe('goal, utilization and ring (live-operations §4, §2)', () => {
  const base = {
    scheduled: true,
    hasJobStandards: true,
    productionRuntimeMs: HOUR_MS,
    warningPercent: 85,
    failurePercent: 70,
  };
  it.each([
    { over: { scheduled: false }, want: 'unavailable' },
    { over: { hasJobStandards: false }, want: 'noJobStandards' },
    { over: { productionRuntimeMs: 0, percentOfGoal: 10 }, want: 'success' },
    { over: { percentOfGoal: 85 }, want: 'success' },
    { over: { percentOfGoal: 84.9 }, want: 'warning' },
    { over: { percentOfGoal: 70 }, want: 'warning' },
    { over: { percentOfGoal: 69.9 }, want: 'danger' },
  ])('goal status $over → $want', ({ over, want }) => {
    expect(goalStatus({ percentOfGoal: 100, ...base, ...over })).toBe(want);
  });

  it.each([
    [49.9, 'danger'],
    [50, 'warning'],
    [74.9, 'warning'],
    [75, 'success'],
  ])('utilization %d %% → %s', (p, want) => {
    expect(utilizationStatus(p as number, { warningPercent: 75, failurePercent: 50 })).toBe(want);
  });

  it.each([
    { i: { inSetup: true, actualParts: 3, expectedParts: 5 }, want: { main: 'In Setup', sub: null } },
    {
      i: { inSetup: false, actualParts: 5, expectedParts: 5 },
      want: { main: 'At Goal', sub: 'of 5 expected' },
    },
    {
      i: { inSetup: false, actualParts: 6, expectedParts: 5 },
      want: { main: '1 Part Ahead', sub: 'of 5 expected' },
    },
    {
      i: { inSetup: false, actualParts: 2, expectedParts: 5 },
      want: { main: '3 Parts Behind', sub: 'of 5 expected' },
    },
  ])('ring text $want.main', ({ i, want }) => {
    expect(performanceRingText(i)).toEqual(want);
  });

  it('the ring caps at 405°', () => {
    expect([
      ringDegrees(50),
      ringDegrees(100),
      ringDegrees(112.5),
      ringDegrees(200),
      ringDegrees(-5),
      ringDegrees(null),
    ]).toEqual([180, 360, 405, 405, 0, 0]);
  });
});

describe('live-operations rules', () => {
  it.each([
    { made: 10, kept: 4, want: { kept: 4, removed: 6, adjustment: { count: -6 } } },
    { made: 10, kept: 10, want: { kept: 10, removed: 0, adjustment: null } },
    { made: 10, kept: 15, want: { kept: 10, removed: 0, adjustment: null } }, // clamped to setup parts
    { made: 10, kept: -3, want: { kept: 0, removed: 10, adjustment: { count: -10 } } }, // clamped to 0
    { made: 0, kept: 2, want: { kept: 0, removed: 0, adjustment: null } },
  ])('kept parts $kept of $made', ({ made, kept, want }) => {
    expect(setupRemoval(made, kept)).toEqual(want);
  });

  it('reject count: remove from good parts → 0, else the scrap count; manual → 0', () => {
    expect(rejectAdjustmentCount({ scrapcount: 3, removeFromGoodParts: true })).toBe(0);
    expect(rejectAdjustmentCount({ scrapcount: 3, removeFromGoodParts: false })).toBe(3);
    expect(rejectAdjustmentCount({ scrapcount: 3, removeFromGoodParts: false, manual: true })).toBe(0);
    expect([
      validRejectCount(1),
      validRejectCount(0),
      validRejectCount(Number.NaN),
      validRejectCount('2'),
    ]).toEqual([true, false, false, false]);
    expect([
      rejectBehaviorFor('operator', 'nonconform'),
      rejectBehaviorFor('scrap', 'nonconform'),
      rejectBehaviorFor('nonconform', null),
    ]).toEqual(['nonconform', 'scrap', 'nonconform']);
    expect([
      rejectTypeEditable('operator', true),
      rejectTypeEditable('operator', false),
      rejectTypeEditable('scrap', true),
    ]).toEqual([true, false, false]);
    expect(removeFromGoodPartsShown({ hideFlag: false, allowed: true, manual: false })).toBe(true);
    expect(removeFromGoodPartsShown({ hideFlag: true, allowed: true, manual: false })).toBe(false);
    expect(removeFromGoodPartsShown({ hideFlag: false, allowed: true, manual: true })).toBe(false);
  });

  const p = (startMin: number, lenMin: number | null, reason: string | null = null, setup = false) => ({
    start: startMin * MINUTE_MS,
    end: lenMin === null ? null : (startMin + lenMin) * MINUTE_MS,
    reason,
    setup,
  });

  it('downtime list: Setup excluded, short periods by the filter duration, categorized not selectable', () => {
    const periods = [
      p(0, 1),
      p(10, 2),
      p(20, 5, 'Coffee'),
      p(30, 10, 'Setup'),
      p(50, 3, null, true),
      p(60, null),
    ];
    const now = 70 * MINUTE_MS;
    const opts = { filterDurationMs: 2 * MINUTE_MS, showShort: false, showCategorized: true };
    expect(
      downtimeListItems(periods, now, opts).map((i) => [i.period.start / MINUTE_MS, i.selectable]),
    ).toEqual([
      [20, false],
      [60, true], // live period: 10 minutes so far
    ]);
    expect(
      downtimeListItems(periods, now, { ...opts, showShort: true }).map((i) => i.period.start / MINUTE_MS),
    ).toEqual([0, 10, 20, 60]);
    expect(
      downtimeListItems(periods, now, { ...opts, showShort: true, onlyUncategorized: true }).map(
        (i) => i.period.start / MINUTE_MS,
      ),
    ).toEqual([0, 10, 60]);
    expect(
      downtimeListItems(periods, now, { ...opts, showShort: true, onlyLong: true }).map(
        (i) => i.period.start / MINUTE_MS,
      ),
    ).toEqual([20, 60]);
    // The company's long-downtime threshold of 6 min (decision 1087): the 5-min period is not long.
    const longOnly = { ...opts, showShort: true, onlyLong: true, longDowntimeMs: 6 * MINUTE_MS };
    expect(downtimeListItems(periods, now, longOnly).map((i) => i.period.start / MINUTE_MS)).toEqual([60]);
  });

  it('multi-select needs at least one uncategorized period and shows "Multiple"', () => {
    expect(multiSelection([])).toMatchObject({ ok: false });
    expect(multiSelection([p(0, 5), p(10, 5)])).toEqual({ ok: true, label: 'Multiple' });
    expect(multiSelection([p(0, 5), p(10, 5, 'Coffee')])).toMatchObject({ ok: false });
    expect(liveDowntimeStart(100, 160)).toBe(160);
    expect(liveDowntimeStart(100, null)).toBe(100);
  });

  it.each([
    [20_000, false],
    [20_001, true],
  ])('split in half of %i ms → %s (half must exceed 10 s)', (d, ok) => {
    expect(canSplitInHalf(d as number)).toBe(ok);
    expect(splitInHalf(0, d as number) !== null).toBe(ok);
  });

  it('a setup annotation is never a merge target; save rules', () => {
    expect([canMergeInto({ setup: true }), canMergeInto({ setup: false }), canMergeInto(null)]).toEqual([
      false,
      true,
      false,
    ]);
    const draft = {
      start: 0,
      end: 10,
      endExplicit: false,
      category_id: 'c',
      setup: false,
      activesetup: false,
    };
    expect(annotationToSave(draft)).toMatchObject({ end: null, category_id: 'c' });
    expect(annotationToSave({ ...draft, endExplicit: true })).toMatchObject({ end: 10 });
    expect(annotationToSave({ ...draft, category_id: null })).toBeNull();
    expect(annotationToSave({ ...draft, setup: true })).toMatchObject({ category_id: null, setup: true });
    expect(annotationToSave({ ...draft, setup: true, activesetup: true })).toBeNull();
  });

  it.each([
    [59_999, '0:59'],
    [61_000, '1:01'],
    [HOUR_MS - 1000, '59:59'],
    [HOUR_MS, '1:00:00'],
    [DAY_MS - 1000, '23:59:59'],
    [DAY_MS, '1 day'],
    [29 * DAY_MS, '29 days'],
    [30 * DAY_MS, '1 month'],
    [95 * DAY_MS, '3 months'],
  ])('part time %i ms → %s', (ms, want) => {
    expect(formatPartTime(ms as number)).toBe(want);
  });

  it('rounding only when formatting (§9)', () => {
    expect(formatParts(12.5)).toBe('13');
    expect(formatDowntimeMinutes(90_300)).toBe('1.51');
    expect(formatDowntimeMinutes(60_300)).toBe('1.01'); // 1.005 rounds up
    expect(formatInCycleHours(5_400_000)).toBe('1.5');
    expect(formatPercent(0.74789, 'oeeTable')).toBe('74.8');
    expect(formatPercent(0.74789, 'tile')).toBe('74.8');
    expect(formatPercent(0.74789, 'shiftMatrix')).toBe('75');
    expect(formatPercent(0.745, 'utilization')).toBe('75');
    expect(formatPercent(null, 'oeeTable')).toBe('-');
    expect(formatPercent(1.5, 'oeeTable')).toBe('150.0'); // never clamped
  });

  it('formats as toFixed of the value rounded half away from zero (decisions 1216, 1236: digits written directly, kept)', () => {
    const toFixed = (x: number, d: number) => {
      const r = (Math.sign(x) * Math.round(Math.abs(x) * 10 ** d + 1e-9)) / 10 ** d;
      return (Object.is(r, -0) ? 0 : r).toFixed(d);
    };
    let seed = 7;
    const rnd = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const values = [
      0, -0, 0.05, -0.05, 0.04, -0.04, 0.15, 1.005, 0.995, 99.95, 9.95, 1e14, -1e14, 123_456.55,
    ];
    values.push(1e15, 5e20, 1e22, -1e22, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY);
    for (let i = 0; i < 3000; i++)
      values.push((rnd() - 0.3) * 10 ** Math.floor(rnd() * 12), Math.round(rnd() * 2000) / 20);
    const got: string[] = [];
    const want: string[] = [];
    // Twice, and each magnitude with both signs: the second time the digits of small values are the kept ones
    // (decision 1236).
    for (const x of [...values, ...values.map((v) => -v), ...values]) {
      got.push(formatParts(x), formatInCycleHours(x * HOUR_MS), formatDowntimeMinutes(x * MINUTE_MS));
      want.push(toFixed(x, 0), toFixed((x * HOUR_MS) / HOUR_MS, 1), toFixed((x * MINUTE_MS) / MINUTE_MS, 2));
      got.push(formatPercent(x, 'oeeTable'));
      want.push(Number.isFinite(x) ? toFixed(x * 100, 1) : '-');
    }
    expect(got).toEqual(want);
  });

  it('parts per hour = 3,600,000 / cycle time, one decimal', () => {
    expect(formatPartsPerHour(60_000)).toBe('60.0');
    expect(formatPartsPerHour(7_000)).toBe('514.3');
    expect(formatPartsPerHour(0)).toBe('-');
  });

  it('cycle display and entry rules (§5, §9)', () => {
    expect([isSlowCycle(72_000, 60_000), isSlowCycle(72_001, 60_000)]).toEqual([false, true]);
    expect([showSlowParts(75 * 60_000, 60_000), showSlowParts(75 * 60_000 + 1, 60_000)]).toEqual([
      true,
      false,
    ]);
    expect([showFastParts(10 * 60_000, 60_000), showFastParts(10 * 60_000 + 1, 60_000)]).toEqual([
      true,
      false,
    ]);
    expect([showProgram(24_000, 3_600_000), showProgram(23_999, 3_600_000)]).toEqual([true, false]);
    expect(subprogramWindow(0, 3_600_000)).toEqual({ start: -1_800_000, end: 5_400_000 });
    expect(subprogramWindow(0, 7_200_001)).toBeNull();
    expect(cycleTimeMs(0, 1, 30.5)).toBe(90_500);
    expect(cycleTimeMs(0, 0, 61)).toBeNull();
    expect(cycleTimeFromInput('timeperpart', 30_000, 2)).toBe(60_000);
    expect(cycleTimeFromInput('partsperhour', 120, 1)).toBe(30_000);
    expect(cycleTimeFromInput('timepercycle', 45_000, 4)).toBe(45_000);
  });
});
