import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { StateInterval } from '../derive/outputs';
import type { ManualRun } from './manual-states';
import {
  manualAnchor,
  manualCycles,
  manualReviewAt,
  manualStates,
  manualUnderivedState,
} from './manual-states';

// Decision 1073: a manual work center's states come from its job runs and Add Parts.

const MIN = 60_000;
const run = (over: Partial<ManualRun> = {}): ManualRun => ({
  id: 'r1',
  jobId: 'j1',
  start: 0,
  end: null,
  setupEnd: 0,
  expectedCycleTime: 5 * MIN,
  idealCycleTime: 4 * MIN,
  partCountMultiplier: 1,
  ...over,
});
const plain = (xs: StateInterval[]) => xs.map((x) => [x.start / MIN, x.end / MIN, x.state]);

describe('manualStates', () => {
  it('reads gaps up to twice the expected time as run time, longer ones as downtime but the last part', () => {
    const counts = [5, 14, 20, 60, 66].map((m) => ({ at: m * MIN, count: 1 }));
    expect(plain(manualStates([run({ end: 70 * MIN })], counts, 0, 100 * MIN))).toEqual([
      [0, 20, 'ACTIVE'],
      [20, 55, 'INACTIVE'],
      [55, 70, 'ACTIVE'],
      [70, 100, 'INACTIVE'],
    ]);
  });

  it('is SETUP until production, INACTIVE outside runs, and never UNAVAILABLE', () => {
    const runs = [run({ start: 10 * MIN, setupEnd: 30 * MIN, end: 50 * MIN })];
    const counts = [35, 40, 45, 48, 70].map((m) => ({ at: m * MIN, count: 1 }));
    expect(plain(manualStates(runs, counts, 0, 80 * MIN))).toEqual([
      [0, 10, 'INACTIVE'],
      [10, 30, 'SETUP'],
      [30, 50, 'ACTIVE'],
      [50, 80, 'INACTIVE'],
    ]);
    const open = manualStates([run({ start: 10 * MIN, setupEnd: null })], [], 0, 80 * MIN);
    expect(plain(open)).toEqual([
      [0, 10, 'INACTIVE'],
      [10, 80, 'SETUP'],
    ]);
    expect(open[1]!.open).toBe(true);
  });

  it('scales the expected time by the share of the Add Part step added', () => {
    const runs = [run({ partCountMultiplier: 4, expectedCycleTime: 8 * MIN })];
    // Add 1 Part is a quarter step (2 min, limit 4 min); Add Part a whole one (8 min, limit 16 min).
    const counts = [
      { at: 3 * MIN, count: 1 },
      { at: 13 * MIN, count: 1 },
      { at: 28 * MIN, count: 4 },
    ];
    expect(plain(manualStates(runs, counts, 0, 30 * MIN))).toEqual([
      [0, 3, 'ACTIVE'],
      [3, 11, 'INACTIVE'],
      [11, 30, 'ACTIVE'],
    ]);
  });

  it('an open gap is ACTIVE until it passes the limit, then INACTIVE whole (manualReviewAt says when)', () => {
    const runs = [run()];
    const counts = [{ at: 10 * MIN, count: 1 }];
    expect(plain(manualStates(runs, counts, 0, 19 * MIN))).toEqual([[0, 19, 'ACTIVE']]);
    expect(manualReviewAt(runs, counts, 19 * MIN)).toBe(20 * MIN);
    expect(plain(manualStates(runs, counts, 0, 21 * MIN))).toEqual([
      [0, 10, 'ACTIVE'],
      [10, 21, 'INACTIVE'],
    ]);
    expect(manualReviewAt(runs, counts, 21 * MIN)).toBeNull();
    expect(manualReviewAt([run({ setupEnd: null })], [], 5 * MIN)).toBeNull();
  });

  it('derived again from an anchor, the states after it are the same as derived from the start', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 100 }),
        (minutes, t, setup) => {
          const runs = [
            run({ start: 0, setupEnd: setup * MIN, end: 250 * MIN }),
            run({ id: 'r2', start: 300 * MIN, setupEnd: 300 * MIN, expectedCycleTime: 3 * MIN }),
          ];
          const counts = minutes.map((m) => ({ at: m * MIN, count: 1 }));
          const now = 420 * MIN;
          const whole = manualStates(runs, counts, 0, now);
          const anchor = manualAnchor(runs, counts, t * MIN)!;
          const again = manualStates(runs, counts, anchor, now);
          const cut = whole
            .filter((x) => x.end > anchor)
            .map((x) => ({ ...x, start: Math.max(x.start, anchor) }));
          expect(plain(again)).toEqual(plain(cut as StateInterval[]));
          for (let i = 1; i < whole.length; i++) expect(whole[i]!.start).toBe(whole[i - 1]!.end);
          expect(whole.some((x) => x.state === 'UNAVAILABLE')).toBe(false);
        },
      ),
    );
  });
});

describe('manualCycles', () => {
  it('makes each Add Part its share of a cycle with the run’s standards and no parts of its own', () => {
    const runs = [run({ start: 0, setupEnd: 10 * MIN, partCountMultiplier: 2 })];
    const cycles = manualCycles(runs, [
      { at: 5 * MIN, count: 2 },
      { at: 20 * MIN, count: 2 },
      { at: 25 * MIN, count: 1 },
    ]);
    expect(
      cycles.map((c) => [c.count, c.idealMs / MIN, c.expectedMs / MIN, c.setup, c.parts, c.duration / MIN]),
    ).toEqual([
      [1, 0, 0, true, 0, 0],
      [1, 4, 5, false, 0, 10], // since production started at 10 min
      [0.5, 2, 2.5, false, 0, 5],
    ]);
    expect(manualCycles([], [{ at: 1, count: 1 }])[0]).toMatchObject({ runId: null, idealMs: 0 });
  });
});

describe('manualUnderivedState (decision 1207)', () => {
  it('is the time from the first count to the first stored state, idle, never No data', () => {
    // No stored state yet: idle from the first count on, open.
    expect(manualUnderivedState(100, null)).toEqual({ start: 100, end: null, state: 'INACTIVE' });
    // States stored from later on (a count earlier than the evidence they were derived from).
    expect(manualUnderivedState(100, 160)).toEqual({ start: 100, end: 160, state: 'INACTIVE' });
    // Derived from the first evidence (a run's start or the count): nothing missing. No count: no life to fill.
    expect(manualUnderivedState(100, 100)).toBeNull();
    expect(manualUnderivedState(100, 40)).toBeNull();
    expect(manualUnderivedState(null, 40)).toBeNull();
    expect(manualUnderivedState(null, null)).toBeNull();
  });
});
