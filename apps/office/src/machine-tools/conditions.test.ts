import { describe, expect, it } from 'vitest';
import {
  channelWindow,
  chartPoints,
  CONDITIONS_VIEW_MS,
  needsRejoin,
  parseSamples,
  sampleValue,
  scalarFields,
  summarize,
  timeTicks,
} from './conditions';
import type { DiagnosticsField } from './diagnostics';

const MIN = 60_000;
const field = (
  key: string,
  value: string | null,
  dataItemType: string | null = 'LOAD',
): DiagnosticsField => ({
  key,
  value,
  ts: 1,
  dataItemType,
});

describe('sampleValue', () => {
  it.each([
    ['42', 42],
    [' 3.5 ', 3.5],
    ['-0.25', -0.25],
    ['1e3', 1000],
    ['UNAVAILABLE', null],
    ['12 mm', null],
    ['', null],
    [null, null],
  ])('%s → %s', (v, n) => expect(sampleValue(v)).toBe(n));
});

describe('scalarFields (what the conditions page can chart)', () => {
  it('keeps fields with a numeric latest value, mapped first, and leaves counters, ids and words out', () => {
    const fields = [
      field('exec', 'ACTIVE', 'EXECUTION'),
      field('pc', '120', 'PART_COUNT'),
      field('line', '40', 'LINE'),
      field('Sload', '41.5', 'LOAD'),
      field('Srpm', '1200', 'SPINDLE_SPEED'),
      field('coolant', '22.1', null),
      field('Xtemp', null, 'TEMPERATURE'),
      field('Frapid', 'UNAVAILABLE', 'PATH_FEEDRATE_OVERRIDE'),
    ];
    expect(scalarFields(fields).map((f) => f.key)).toEqual(['Sload', 'Srpm', 'coolant']);
  });
});

describe('channelWindow and needsRejoin', () => {
  const now = Date.UTC(2026, 10, 25, 14, 0, 30);
  it('joins for the last hour and the next, on whole minutes', () => {
    const w = channelWindow(now);
    expect(w).toEqual({ start: Date.UTC(2026, 10, 25, 13, 0), end: Date.UTC(2026, 10, 25, 15, 0) });
    expect(needsRejoin(w, now)).toBe(false);
    expect(needsRejoin(w, w.end - 5 * MIN - 1)).toBe(false);
    expect(needsRejoin(w, w.end - 5 * MIN)).toBe(true);
  });
});

describe('parseSamples', () => {
  it("reads the payload's samples of the key joined, and nothing of another key", () => {
    const payload = {
      key: 'Sload',
      samples: [
        { ts: 1, value: '2' },
        { ts: 2, value: null },
        { ts: 'x', value: '3' },
      ],
    };
    expect(parseSamples(payload, 'Sload')).toEqual([
      { ts: 1, value: '2' },
      { ts: 2, value: null },
    ]);
    expect(parseSamples(payload, 'Srpm')).toBeNull();
    expect(parseSamples({ key: 'Sload' }, 'Sload')).toBeNull();
    expect(parseSamples(null, 'Sload')).toBeNull();
  });
});

describe('chartPoints (a value holds until the next)', () => {
  const from = 100 * MIN;
  const to = from + CONDITIONS_VIEW_MS;
  it('starts with the last value before the window, breaks on UNAVAILABLE and runs the last value on to now', () => {
    const samples = [
      { ts: from - 30 * MIN, value: '5' },
      { ts: from - 10 * MIN, value: '7' },
      { ts: from + 10 * MIN, value: 'UNAVAILABLE' },
      { ts: from + 20 * MIN, value: '9.5' },
    ];
    expect(chartPoints(samples, from, to)).toEqual([
      { x: from, y: 7 },
      { x: from + 10 * MIN, y: null },
      { x: from + 20 * MIN, y: 9.5 },
      { x: to, y: 9.5 },
    ]);
  });
  it('draws nothing without samples, and ignores samples after the window', () => {
    expect(chartPoints([], from, to)).toEqual([]);
    expect(chartPoints([{ ts: to + 1, value: '1' }], from, to)).toEqual([]);
  });
});

describe('summarize', () => {
  it('gives the latest value, the range that held and the time-weighted average', () => {
    // 100 held for [0, 2) (carried in), then UNAVAILABLE [3, 4), 20 for [4, 5), 10 from 5 to 10.
    const s = summarize(
      [
        { ts: 5, value: '10' },
        { ts: 1, value: '100' },
        { ts: 3, value: 'UNAVAILABLE' },
        { ts: 4, value: '20' },
      ],
      2,
      10,
    );
    // (100 × 1 + 20 × 1 + 10 × 5) / 7
    expect(s).toEqual({ latest: 10, latestAt: 5, min: 10, max: 100, mean: 170 / 7, count: 3 });
  });
  it('is empty without samples, and a lone value is its own average', () => {
    expect(summarize([], 0, 1)).toEqual({
      latest: null,
      latestAt: null,
      min: null,
      max: null,
      mean: null,
      count: 0,
    });
    expect(summarize([{ ts: 10, value: '4' }], 0, 10).mean).toBe(4);
  });
});

describe('timeTicks', () => {
  it('marks whole multiples of the step', () => {
    expect(timeTicks(3 * MIN, 31 * MIN, 10 * MIN)).toEqual([10 * MIN, 20 * MIN, 30 * MIN]);
    expect(timeTicks(10 * MIN, 20 * MIN, 10 * MIN)).toEqual([10 * MIN, 20 * MIN]);
  });
});
