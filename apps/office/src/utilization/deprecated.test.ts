import { describe, expect, it } from 'vitest';
import { cellText, hoursText, oldGrid, unitOf, writeUnit } from './deprecated';
import { parseUtilization } from './report';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 23); // Monday 23 Nov 2026, 00:00 UTC
const LZ = { locale: 'en-US', timeZone: 'UTC' };

const cell = (i: number, inCycleMs: number, durationMs: number) => ({
  start: T0 + i * DAY,
  end: T0 + (i + 1) * DAY,
  shopDate: `2026-11-${String(23 + i)}`,
  inCycleMs,
  durationMs,
  inCycle: durationMs > 0 ? inCycleMs / durationMs : null,
});

const machine = (id: string, name: string, cells: ReturnType<typeof cell>[]) => {
  const inCycleMs = cells.reduce((s, c) => s + c.inCycleMs, 0);
  const durationMs = cells.reduce((s, c) => s + c.durationMs, 0);
  return {
    machineId: id,
    machineName: name,
    inCycleMs,
    durationMs,
    inCycle: durationMs > 0 ? inCycleMs / durationMs : null,
    intervals: cells,
  };
};

function answer() {
  return parseUtilization({
    range: { start: T0, end: T0 + 2 * DAY },
    interval: 'day',
    machines: [
      // Zeta runs both days, Alpha only the second (its first day has no cell), Broken is reported failed.
      machine('z', 'Zeta', [cell(0, 12 * HOUR, DAY), cell(1, 6 * HOUR, DAY)]),
      machine('a', 'Alpha', [cell(1, 18 * HOUR, DAY)]),
      machine('b', 'Broken', [cell(0, 0, 0), cell(1, 0, 0)]),
    ],
    machineAggregate: {
      inCycleMs: 36 * HOUR,
      durationMs: 3 * DAY,
      inCycle: 0.5,
      intervals: [cell(0, 12 * HOUR, DAY), cell(1, 24 * HOUR, 2 * DAY)],
    },
    machineContextErrors: [{ machineId: 'b', machineName: 'Broken', message: 'No shifts' }],
  });
}

describe('older utilization dashboard (decision 1098)', () => {
  it('reads the unit from the URL: hour, else percent; percent is left out of the URL', () => {
    expect(unitOf(new URLSearchParams('unit=hour'))).toBe('hour');
    expect(unitOf(new URLSearchParams('unit=percent'))).toBe('percent');
    expect(unitOf(new URLSearchParams('unit=days'))).toBe('percent');
    expect(unitOf(new URLSearchParams(''))).toBe('percent');
    const q = new URLSearchParams('start=1&unit=percent');
    expect(writeUnit(q, 'hour').toString()).toBe('start=1&unit=hour');
    expect(writeUnit(new URLSearchParams('start=1&unit=hour'), 'percent').toString()).toBe('start=1');
  });

  it('writes hours in cycle with one decimal, and - where there is no known time', () => {
    expect(hoursText(9 * HOUR, DAY, 'en-US')).toBe('9.0 h');
    expect(hoursText(1.25 * HOUR, DAY, 'en-US')).toBe('1.3 h');
    expect(hoursText(0, 0, 'en-US')).toBe('-');
    expect(cellText({ inCycleMs: 6 * HOUR, durationMs: DAY, inCycle: 0.25 }, 'percent', 'en-US')).toBe('25%');
    expect(cellText({ inCycleMs: 0, durationMs: 0, inCycle: null }, 'percent', 'en-US')).toBe('-');
  });

  it('lays machines in name order by the aggregate intervals, without the failed machine, totals last', () => {
    const grid = oldGrid(answer(), 'percent', LZ);
    expect(grid.columns).toHaveLength(2);
    expect(grid.rows.map((r) => [r.machineId, r.name, r.cells, r.total])).toEqual([
      ['a', 'Alpha', ['-', '75%'], '75%'],
      ['z', 'Zeta', ['50%', '25%'], '38%'],
    ]);
    expect(grid.aggregate).toEqual({
      machineId: null,
      name: 'All Machines',
      cells: ['50%', '50%'],
      total: '50%',
    });
  });

  it('shows the same grid in hours with unit=hour', () => {
    const grid = oldGrid(answer(), 'hour', LZ);
    expect(grid.rows.map((r) => [r.name, r.cells, r.total])).toEqual([
      ['Alpha', ['-', '18.0 h'], '18.0 h'],
      ['Zeta', ['12.0 h', '6.0 h'], '18.0 h'],
    ]);
    expect(grid.aggregate.cells).toEqual(['12.0 h', '24.0 h']);
    expect(grid.aggregate.total).toBe('36.0 h');
  });
});
