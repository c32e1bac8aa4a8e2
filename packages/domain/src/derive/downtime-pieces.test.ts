import { describe, expect, it } from 'vitest';
import { piecePlannedValue, piecesOf, segmentsOf } from './downtime-pieces';

// The one period engine of the downtime list and the rollups (METRICS.md §1, §5; decision 0106).

const MIN = 60_000;
const ann = (start: number, end: number | null, planned: boolean | null = null) => ({
  start,
  end,
  setup: false,
  planned,
});

describe('an open annotation covers only its own downtime period', () => {
  it('idle 0–10, active 10–20, idle 20–60: an open annotation at 0 covers 0–10 only', () => {
    const segments = segmentsOf([
      { start: 0, end: 10 * MIN, state: 'INACTIVE' },
      { start: 10 * MIN, end: 20 * MIN, state: 'ACTIVE' },
      { start: 20 * MIN, end: null, state: 'INACTIVE' },
    ]);
    const a = ann(0, null);
    expect(piecesOf(segments, [a]).map((p) => [p.start, p.end, p.annotation === a])).toEqual([
      [0, 10 * MIN, true],
      [20 * MIN, null, false],
    ]);
  });
});

describe('piecePlannedValue', () => {
  const limited = { plannedBehavior: 'plannedWithLimit' as const, plannedLimitMs: 5 * MIN };
  it.each([
    {
      name: 'live, within the limit',
      a: ann(0, null),
      piece: { start: 0, end: null },
      now: 5 * MIN,
      want: true,
    },
    {
      name: 'live, past the limit',
      a: ann(0, null),
      piece: { start: 0, end: null },
      now: 5 * MIN + 1,
      want: null,
    },
    {
      name: 'ended by ACTIVE past the limit',
      a: ann(0, null),
      piece: { start: 0, end: 9 * MIN },
      now: 60 * MIN,
      want: null,
    },
    {
      name: 'explicit end: its own duration',
      a: ann(0, 4 * MIN),
      piece: { start: 0, end: 4 * MIN },
      now: 60 * MIN,
      want: true,
    },
  ])('plannedWithLimit $name', ({ a, piece, now, want }) => {
    expect(piecePlannedValue(limited, a, piece, now).planned).toBe(want);
    expect(piecePlannedValue(limited, a, piece, now).countsAsPlanned).toBe(want === true);
  });
  it.each([
    { type: { plannedBehavior: 'planned' as const }, choice: null, want: true },
    { type: { plannedBehavior: 'unplanned' as const }, choice: true, want: false },
    { type: { plannedBehavior: 'operator' as const }, choice: true, want: true },
    { type: { plannedBehavior: 'operator' as const }, choice: null, want: false },
    { type: null, choice: true, want: null },
  ])('$type.plannedBehavior with choice $choice', ({ type, choice, want }) => {
    expect(piecePlannedValue(type, ann(0, null, choice), { start: 0, end: null }, 60 * MIN).planned).toBe(
      want,
    );
  });
});
