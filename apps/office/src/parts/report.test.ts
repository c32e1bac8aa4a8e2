import { describe, expect, it } from 'vitest';
import { epochMs } from '@takt/domain';
import type { PartsMachine } from './report';
import { partsCsvHref, partsQuery, partsRows, partsTotals } from './report';

const machine = (over: Partial<PartsMachine>): PartsMachine => ({
  machineId: 'm1',
  machineName: 'Mill 1',
  parts: 0,
  goal: null,
  goalParts: over.parts ?? 0,
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

  it('totals parts of every machine, and compares the goal with the parts made where it was set', () => {
    // Issue 27: "529 % of goal" compared every machine's parts with the one machine's goal (decision 1021).
    expect(partsTotals([machine({ parts: 45, goal: 50 }), machine({ parts: 5, goal: null })])).toEqual({
      parts: 50,
      goalParts: 45,
      goal: 50,
      percent: '90 %',
    });
    // Parts made before the job run started on the machine with a goal are not held against it either.
    expect(
      partsTotals([machine({ parts: 529, goalParts: 0, goal: 10 }), machine({ parts: 7, goal: null })]),
    ).toEqual({ parts: 536, goalParts: 0, goal: 10, percent: '0 %' });
    expect(partsTotals([machine({ parts: 5 })])).toEqual({
      parts: 5,
      goalParts: 0,
      goal: null,
      percent: '-',
    });
  });

  it('a row compares its goal with the parts of the intervals that have one', () => {
    expect(partsRows([machine({ parts: 30, goalParts: 8, goal: 10 })])[0]).toMatchObject({
      parts: '30',
      goal: '10',
      percent: '80 %',
      delta: '−2',
      behind: true,
    });
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
