import { describe, expect, it } from 'vitest';
import type { Annotation } from '../schemas/live-entities';
import { piecesOf, segmentsOf } from './downtime-pieces';

// The period engine, table-shaped (METRICS.md §1; live-operations §4): states → segments → pieces.

const ann = (id: string, start: number, end: number | null, over: Partial<Annotation> = {}): Annotation => ({
  id,
  machineId: 'm',
  category_id: 'r',
  annotationTypeId: 'r',
  start,
  end,
  message: null,
  planned: null,
  setup: false,
  activesetup: false,
  needstermination: end === null,
  ...over,
});

describe('segmentsOf', () => {
  it.each([
    {
      name: 'merges neighbouring non-ACTIVE states into one period',
      states: [
        { start: 0, end: 10, state: 'ACTIVE' },
        { start: 10, end: 20, state: 'INACTIVE' },
        { start: 20, end: 30, state: 'FAULT' },
        { start: 30, end: null, state: 'ACTIVE' },
      ],
      want: [
        [0, 10, 'active'],
        [10, 30, 'down'],
        [30, null, 'active'],
      ],
    },
    {
      name: 'cuts at SETUP so setup can be left out',
      states: [
        { start: 0, end: 10, state: 'INACTIVE' },
        { start: 10, end: 20, state: 'SETUP' },
        { start: 20, end: 30, state: 'UNAVAILABLE' },
      ],
      want: [
        [0, 10, 'down'],
        [10, 20, 'setup'],
        [20, null, 'down'],
      ],
    },
    {
      name: 'treats a gap with no data as UNAVAILABLE downtime',
      states: [
        { start: 0, end: 10, state: 'ACTIVE' },
        { start: 15, end: null, state: 'ACTIVE' },
      ],
      want: [
        [0, 10, 'active'],
        [10, 15, 'down'],
        [15, null, 'active'],
      ],
    },
    {
      name: 'reads rows out of order as if sorted by start',
      states: [
        { start: 20, end: 30, state: 'FAULT' },
        { start: 0, end: 10, state: 'ACTIVE' },
        { start: 30, end: null, state: 'ACTIVE' },
        { start: 10, end: 20, state: 'INACTIVE' },
      ],
      want: [
        [0, 10, 'active'],
        [10, 30, 'down'],
        [30, null, 'active'],
      ],
    },
  ])('$name', ({ states, want }) => {
    expect(segmentsOf(states).map((s) => [s.start, s.end, s.kind])).toEqual(want);
  });
});

describe('piecesOf', () => {
  const seg = [{ start: 100, end: 200, kind: 'down' as const }];
  const shape = (anns: Annotation[], segs: Parameters<typeof piecesOf>[0] = seg) =>
    piecesOf(segs, anns).map((p) => [p.start, p.end, p.annotation?.id ?? null, p.setup]);

  it.each([
    { name: 'no annotation: one uncategorized piece', anns: [], want: [[100, 200, null, false]] },
    {
      name: 'an annotation inside splits the period in three',
      anns: [ann('a', 120, 150)],
      want: [
        [100, 120, null, false],
        [120, 150, 'a', false],
        [150, 200, null, false],
      ],
    },
    {
      name: 'no explicit end: covers to the end of the period',
      anns: [ann('a', 100, null)],
      want: [[100, 200, 'a', false]],
    },
    {
      name: 'a later annotation cuts an open one short',
      anns: [ann('a', 100, null), ann('b', 160, null)],
      want: [
        [100, 160, 'a', false],
        [160, 200, 'b', false],
      ],
    },
    {
      name: 'an explicit end beyond the period is clipped to it',
      anns: [ann('a', 50, 150)],
      want: [
        [100, 150, 'a', false],
        [150, 200, null, false],
      ],
    },
    {
      name: 'a setup annotation marks its piece setup',
      anns: [ann('a', 100, 130, { setup: true, category_id: null })],
      want: [
        [100, 130, 'a', true],
        [130, 200, null, false],
      ],
    },
    {
      name: 'an open annotation from an earlier period does not reach into this one',
      anns: [ann('a', 50, null)],
      want: [[100, 200, null, false]],
    },
  ])('$name', ({ anns, want }) => {
    expect(shape(anns)).toEqual(want);
  });

  it('keeps the live period open', () => {
    expect(shape([ann('a', 150, null)], [{ start: 100, end: null, kind: 'down' }])).toEqual([
      [100, 150, null, false],
      [150, null, 'a', false],
    ]);
  });
});
