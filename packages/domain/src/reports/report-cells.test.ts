import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { Rollup } from '../rollup/rollup';
import { emptyMeasures, sumRollups } from '../rollup/rollup';
import type { GoalRun } from './report-cells';
import {
  formatWallTime,
  intersectSpans,
  partsGoalCell,
  rollupsStartingIn,
  spansMs,
  utilizationCell,
} from './report-cells';

const T = Date.parse('2025-11-17T00:00:00Z');
const range = (start: number, end: number) => ({ start: start as EpochMs, end: end as EpochMs });

/** An hour bucket of one machine with some measures. */
function hour(
  i: number,
  over: { parts?: number; rejected?: number; active?: number; plannedDowntimeMs?: number },
): Rollup {
  const m = emptyMeasures();
  m.durationMs = HOUR_MS;
  m.parts = over.parts ?? 0;
  m.rejected = over.rejected ?? 0;
  m.stateMs.ACTIVE = over.active ?? 0;
  m.plannedDowntimeMs = over.plannedDowntimeMs ?? 0;
  return {
    ...m,
    machineId: 'm',
    start: (T + i * HOUR_MS) as EpochMs,
    end: (T + (i + 1) * HOUR_MS) as EpochMs,
    shiftId: null,
  };
}

const run = (over: Partial<GoalRun> = {}): GoalRun => ({
  productionStart: T,
  end: null,
  expectedCycleTime: MINUTE_MS,
  partBehavior: 'one',
  ...over,
});

describe('partsGoalCell (METRICS.md §4 per interval)', () => {
  const rows = [
    hour(0, { parts: 45, rejected: 5 }),
    hour(1, { parts: 60, plannedDowntimeMs: 15 * MINUTE_MS }),
  ];
  it.each([
    ['a full hour of production', [run()], range(T, T + HOUR_MS), { parts: 40, goal: 60 }],
    [
      'planned downtime is not expected to produce',
      [run()],
      range(T + HOUR_MS, T + 2 * HOUR_MS),
      { parts: 60, goal: 45 },
    ],
    [
      'production from 00:30 only',
      [run({ productionStart: T + 30 * MINUTE_MS })],
      range(T, T + HOUR_MS),
      { parts: 40, goal: 30 },
    ],
    [
      'still in setup: no goal',
      [run({ productionStart: null })],
      range(T, T + HOUR_MS),
      { parts: 40, goal: null },
    ],
    [
      'no standard: no goal',
      [run({ expectedCycleTime: 0 })],
      range(T, T + HOUR_MS),
      { parts: 40, goal: null },
    ],
    [
      'manyparts multiplies',
      [run({ partBehavior: 'manyparts', actualParts: 4 })],
      range(T, T + HOUR_MS),
      { parts: 40, goal: 240 },
    ],
  ] as const)('%s', (_name, runs, interval, expected) => {
    expect(partsGoalCell(rows, runs, interval, T + 10 * HOUR_MS)).toEqual(expected);
  });
  it('counts only up to now', () => {
    expect(partsGoalCell(rows, [run()], range(T, T + HOUR_MS), T + 20 * MINUTE_MS).goal).toBe(20);
  });
});

describe('rollupsStartingIn', () => {
  const rows = [0, 1, 2, 3].map((i) => hour(i, {}));
  it.each([
    [T, T + 2 * HOUR_MS, [0, 1]],
    [T + 30 * MINUTE_MS, T + 4 * HOUR_MS, [1, 2, 3]],
    [T - HOUR_MS, T, []],
    [T + 3 * HOUR_MS, T + 10 * HOUR_MS, [3]],
  ])('[%d, %d)', (start, end, expected) => {
    const picked = rollupsStartingIn(rows, range(start, end));
    expect(picked.map((r) => (r.start - T) / HOUR_MS)).toEqual(expected);
    expect(sumRollups(picked, range(start, end))).toEqual(sumRollups(rows, range(start, end)));
  });
});

describe('utilizationCell', () => {
  const sum = sumRollups(
    [hour(0, { active: 45 * MINUTE_MS }), hour(1, { active: 0 })],
    range(T, T + 2 * HOUR_MS),
  );
  it.each([
    ['percent', { inCycle: 0.375, value: '38' }],
    ['hour', { inCycle: 0.375, value: '0.8' }],
  ] as const)('%s', (unit, expected) => {
    expect(utilizationCell(sum, unit)).toMatchObject({
      inCycleMs: 45 * MINUTE_MS,
      durationMs: 2 * HOUR_MS,
      ...expected,
    });
  });
  it('is null and "-" without time', () => {
    expect(utilizationCell(sumRollups([], range(T, T + HOUR_MS)), 'percent')).toMatchObject({
      inCycle: null,
      value: '-',
    });
  });
});

describe('intersectSpans', () => {
  it.each([
    [[{ start: 0, end: 10 }], [{ start: 5, end: 20 }], [{ start: 5, end: 10 }]],
    [
      [{ start: 0, end: 10 }],
      [
        { start: 1, end: 2 },
        { start: 4, end: 6 },
      ],
      [
        { start: 1, end: 2 },
        { start: 4, end: 6 },
      ],
    ],
    [[{ start: 0, end: 10 }], [{ start: 10, end: 20 }], []],
    [[{ start: 0, end: 10 }], [], []],
  ])('%j ∩ %j', (spans, filter, expected) => {
    expect(intersectSpans(spans, filter)).toEqual(expected);
    expect(spansMs(intersectSpans(spans, filter))).toBe(expected.reduce((t, s) => t + s.end - s.start, 0));
  });
});

describe('formatWallTime', () => {
  it.each([
    ['UTC', T + 30 * MINUTE_MS + 20_000, '2025-11-17 00:30:20'],
    ['America/Chicago', T, '2025-11-16 18:00:00'],
    ['Europe/Berlin', Date.parse('2025-07-01T12:00:00Z'), '2025-07-01 14:00:00'],
  ])('%s %d', (tz, t, text) => {
    expect(formatWallTime(tz, t)).toBe(text);
  });
});
