import { describe, expect, it } from 'vitest';
import { epochMs } from '@takt/domain';
import type { PartsMachine } from './report';
import { partsCsvHref, partsQuery, partsRows, partsTotals } from './report';

const machine = (over: Partial<PartsMachine>): PartsMachine => ({
  machineId: 'm1',
  machineName: 'Mill 1',
  parts: 0,
  goal: null,
  intervals: [],
  ...over,
});

describe('parts report (reports-admin §2 Parts report)', () => {
  it('shows good parts against the goal per machine, whole, with parts ahead or behind', () => {
    expect(
      partsRows([
        machine({ parts: 45.4, goal: 50.2 }),
        machine({ machineId: 'm2', machineName: 'Lathe', parts: 12, goal: 10 }),
        machine({ machineId: 'm3', machineName: 'Saw', parts: 7, goal: null }),
      ]),
    ).toEqual([
      {
        machineId: 'm1',
        machine: 'Mill 1',
        parts: '45',
        goal: '50',
        percent: '90 %',
        delta: '−5',
        behind: true,
      },
      {
        machineId: 'm2',
        machine: 'Lathe',
        parts: '12',
        goal: '10',
        percent: '120 %',
        delta: '+2',
        behind: false,
      },
      { machineId: 'm3', machine: 'Saw', parts: '7', goal: '-', percent: '-', delta: '', behind: false },
    ]);
  });

  it('totals parts of every machine and goals of those that have one', () => {
    expect(partsTotals([machine({ parts: 45, goal: 50 }), machine({ parts: 5, goal: null })])).toEqual({
      parts: 50,
      goal: 50,
      percent: '100 %',
    });
    expect(partsTotals([machine({ parts: 5 })])).toEqual({ parts: 5, goal: null, percent: '-' });
  });

  it('asks for the picked horizon as the interval, and downloads the same query as CSV with the token', () => {
    const range = { start: epochMs(1), end: epochMs(2), interval: 'shift' as const, quicklink: null };
    const s = { range, group: 'g1', machine: null };
    expect(partsQuery(s)).toEqual({ start: 1, end: 2, interval: 'shift', group: 'g1' });
    expect(partsCsvHref(s, null)).toBeNull();
    expect(partsCsvHref(s, 'tok')).toBe(
      '/api/reports/partGoals?start=1&end=2&interval=shift&group=g1&format=csv&token=tok',
    );
  });
});
