import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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

describe('piecesOf looks only at the annotations that may touch a segment (decision 1186)', () => {
  /**
   * The reference: each segment split by the annotations a filter of every one finds touching it (what piecesOf did
   * per segment before), so only the search differs.
   */
  const piecesByFilter = <A extends { start: number; end: number | null; setup: boolean }>(
    segments: ReturnType<typeof segmentsOf>,
    annotations: readonly A[],
  ) =>
    segments.flatMap((seg) => {
      const segEnd = seg.end ?? Number.POSITIVE_INFINITY;
      const touching = annotations.filter((a) =>
        a.end === null ? a.start >= seg.start && a.start < segEnd : a.start < segEnd && a.end > seg.start,
      );
      return piecesOf([seg], touching);
    });
  const states = fc
    .array(
      fc.tuple(fc.integer({ min: 0, max: 20 }), fc.constantFrom('ACTIVE', 'INACTIVE', 'SETUP', 'FAULT')),
      {
        maxLength: 25,
      },
    )
    .chain((steps) =>
      fc.boolean().map((open) => {
        let t = 0;
        return steps.map(([gap, state], i) => {
          const start = t + (gap % 3 === 0 ? gap : 0);
          t = start + 1 + gap;
          return { start, end: open && i === steps.length - 1 ? null : t, state };
        });
      }),
    );
  const annotations = fc.array(
    fc
      .tuple(
        fc.integer({ min: 0, max: 300 }),
        fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
        fc.boolean(),
        fc.integer(),
      )
      .map(([start, length, setup, id]) => ({
        start,
        end: length === null ? null : start + length,
        setup,
        id,
      })),
    { maxLength: 12 },
  );

  it('gives exactly the pieces, in the order, that the filter per segment gave', () => {
    fc.assert(
      fc.property(states, annotations, (rows, notes) => {
        const segments = segmentsOf(rows);
        expect(piecesOf(segments, notes)).toEqual(piecesByFilter(segments, notes));
      }),
      { numRuns: 2000 },
    );
  });
});
