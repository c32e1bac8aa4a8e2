import { epochMs } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import { cycleRows, cyclesCsvHref, cyclesSummary, isSlow, machineCyclesHref } from './report';
import type { CycleItem } from './report';

const MIN = 60_000;
/** A cycle ending at `t` (builder with defaults: 10 min, expected 10, ideal 8, one part). */
const aCycle = (over: Partial<CycleItem> = {}): CycleItem => ({
  timestamp: 1_000_000,
  start: undefined,
  setup: undefined,
  duration: 10 * MIN,
  expectedCycleTime: 10 * MIN,
  idealCycleTime: 8 * MIN,
  parts: 1,
  scraps: 0,
  nonconforms: 0,
  job: { id: 'j1', name: 'Flange' },
  ...over,
});

describe('slow cycles (reports-admin §9: more than 20 % over expected)', () => {
  it.each([
    [12 * MIN, false],
    [12 * MIN + 1, true],
    [30 * MIN, true],
  ])('%i ms against 10 min → %s', (duration, slow) => {
    expect(isSlow(aCycle({ duration }))).toBe(slow);
  });
  it('never marks a cycle without a standard', () => {
    expect(isSlow(aCycle({ expectedCycleTime: 0, duration: 99 * MIN }))).toBe(false);
  });
});

describe('the cycles grid', () => {
  it('shows times as durations and parts whole, and says how slow', () => {
    const [row] = cycleRows([aCycle({ duration: 12.5 * MIN, parts: 1.6, scraps: 1, job: null })]);
    expect(row).toMatchObject({
      duration: '12:30',
      expected: '10:00',
      ideal: '8:00',
      parts: '2',
      scrap: '1',
      nonConform: '0',
      operation: '',
      slow: true,
      over: '25 % over expected',
    });
  });

  it('gives the row actions the cycle span and its parts, at least one', () => {
    const [row, noParts] = cycleRows([
      aCycle({ timestamp: 10 * MIN, duration: 4 * MIN, parts: 2.4 }),
      aCycle({ timestamp: 20 * MIN, duration: 4 * MIN, parts: 0 }),
    ]);
    expect(row).toMatchObject({ time: 10 * MIN, start: 6 * MIN, qty: 2 });
    expect(noParts).toMatchObject({ start: 16 * MIN, qty: 1 });
  });

  it('keeps only the slow cycles when asked', () => {
    const cycles = [aCycle(), aCycle({ duration: 15 * MIN, timestamp: 2 })];
    expect(cycleRows(cycles, true).map((r) => r.time)).toEqual([2]);
    expect(cyclesSummary(cycles)).toEqual({ cycles: 2, slow: 1, parts: 2, average: '12:30' });
  });

  it('links the CSV with the user token, and the page with its range', () => {
    const s = {
      machine: 'm1',
      range: { interval: 'day' as const, start: epochMs(1), end: epochMs(2), quicklink: null },
    };
    expect(cyclesCsvHref(s, null)).toBeNull();
    expect(cyclesCsvHref(s, 't')).toBe('/api/reports/cycles?machineId=m1&start=1&end=2&format=csv&token=t');
    expect(machineCyclesHref('m 1', { start: 1, end: 2, interval: 'day', quicklink: 'last-week' })).toBe(
      '/machine/m%201/cycles?start=1&end=2&interval=day&quicklink=last-week',
    );
  });
});
