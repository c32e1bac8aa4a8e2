import { epochMs } from '@takt/domain';
import type { AppliedRange } from '@takt/ui';
import { describe, expect, it } from 'vitest';
import {
  adoptedRange,
  chartValue,
  drillInterval,
  intervalLabel,
  isEmpty,
  machinesCsv,
  nextMachineSort,
  parseUtilization,
  parseUtilizationProduction,
  pct,
  reportTitle,
  sortMachines,
  utilizationListRequest,
  utilizationListRows,
  utilizationQuery,
} from './report';
import type { UtilizationAnswer, UtilizationMachine } from './report';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 23); // Monday 23 Nov 2026, 00:00 UTC

const cellAt = (i: number, inCycle: number | null) => ({
  start: T0 + i * DAY,
  end: T0 + (i + 1) * DAY,
  shopDate: `2026-11-${23 + i}`,
  inCycleMs: (inCycle ?? 0) * DAY,
  durationMs: inCycle == null ? 0 : DAY,
  inCycle,
});

/** A machine with defaults; override what the test is about. */
function machine(over: Partial<UtilizationMachine> = {}): UtilizationMachine {
  return {
    machineId: over.machineName ?? 'm',
    machineName: 'M',
    inCycleMs: 0,
    durationMs: DAY,
    inCycle: 0.5,
    spindleRotating: 0.4,
    inCut: 0.3,
    intervals: [cellAt(0, 0.5)],
    ...over,
  };
}

function answer(over: Partial<UtilizationAnswer> = {}): UtilizationAnswer {
  return parseUtilization({
    range: { start: T0, end: T0 + 2 * DAY },
    interval: 'day',
    unit: 'percent',
    intervals: [],
    machines: [machine({ machineName: 'Lathe 2' })],
    machineAggregate: {
      inCycleMs: 0,
      durationMs: 2 * DAY,
      inCycle: 0.5,
      value: '50',
      intervals: [cellAt(0, 0.5), cellAt(1, null)],
    },
    machineContextErrors: [],
    cacheToken: 'x',
    InCyclePerc: 50,
    InCycleSeconds: 0,
    ...over,
  });
}

const asked: AppliedRange = {
  interval: 'day',
  start: epochMs(T0),
  end: epochMs(T0 + 2 * DAY),
  quicklink: 'last-2-days',
};

describe('utilizationQuery', () => {
  it('asks for percent and the drill-down, machine before group', () => {
    expect(utilizationQuery({ range: asked, group: 'g1', machine: null })).toEqual({
      start: T0,
      end: T0 + 2 * DAY,
      interval: 'day',
      unit: 'percent',
      group: 'g1',
    });
    expect(utilizationQuery({ range: asked, group: 'g1', machine: 'm1' })).toMatchObject({ machineId: 'm1' });
    expect(utilizationQuery({ range: asked, group: 'g1', machine: 'm1' })).not.toHaveProperty('group');
  });

  it('passes a shift filter as a list, and none without one', () => {
    const base = { range: asked, group: null, machine: null };
    expect(utilizationQuery({ ...base, shifts: ['s1', 's2'] })).toMatchObject({ shifts: 's1,s2' });
    expect(utilizationQuery({ ...base, shifts: [] })).not.toHaveProperty('shifts');
  });
});

describe('adoptedRange', () => {
  it('is null when the server answered what was asked', () => {
    expect(adoptedRange(asked, answer())).toBeNull();
  });

  it("takes the server's interval and range when they differ", () => {
    expect(adoptedRange(asked, answer({ interval: 'week' }))).toEqual({ ...asked, interval: 'week' });
    const moved = adoptedRange(asked, answer({ range: { start: T0 + DAY, end: T0 + 2 * DAY } }));
    expect(moved).toEqual({ ...asked, start: T0 + DAY, quicklink: null });
  });
});

describe('texts and numbers', () => {
  it.each([
    [{ group: null, machine: null }, {}, 'Utilization Report for All Machines'],
    [{ group: 'g1', machine: null }, { group: 'Lathes' }, 'Utilization Report for Lathes'],
    [
      { group: 'g1', machine: 'm1' },
      { group: 'Lathes', machine: 'Lathe 2' },
      'Utilization Report for Lathe 2',
    ],
  ])('title %j', (sel, names, title) => {
    expect(reportTitle(sel, names)).toBe(title);
  });

  it('shows percentages with zero decimals and - for no time', () => {
    expect(pct(0.5049)).toBe('50%');
    expect(pct(0.995)).toBe('100%');
    expect(pct(null)).toBe('-');
    expect(chartValue(0.126)).toBe(13);
    expect(chartValue(null)).toBeNull();
  });

  it.each([
    ['day', 'Mon, Nov 23'],
    ['week', 'Week of Nov 23'],
    ['month', 'Nov 2026'],
    ['quarter', 'Q4 2026'],
    ['hour', 'Nov 23, 00:00'],
  ] as const)('labels a %s interval', (interval, label) => {
    expect(intervalLabel(cellAt(0, 1), interval, { timeZone: 'UTC', locale: 'en-US' })).toBe(label);
  });

  it('is empty when every machine reported no data', () => {
    expect(isEmpty(answer())).toBe(false);
    const m = machine({ machineName: 'Lathe 2' });
    expect(
      isEmpty(
        answer({
          machineContextErrors: [{ machineId: m.machineId, machineName: m.machineName, message: 'x' }],
        }),
      ),
    ).toBe(true);
    expect(isEmpty(answer({ machines: [] }))).toBe(true);
  });
});

describe('drillInterval', () => {
  it('opens a bar one horizon finer', () => {
    expect(drillInterval(cellAt(1, 0.2), 'day')).toEqual({
      interval: 'hour',
      start: T0 + DAY,
      end: T0 + 2 * DAY,
      quicklink: null,
    });
    expect(drillInterval(cellAt(0, 0.2), 'quarter').interval).toBe('month');
  });
});

describe('machines list', () => {
  const rows = [
    machine({ machineName: 'Mill 10', inCycle: 0.2 }),
    machine({ machineName: 'Mill 2', inCycle: null }),
    machine({ machineName: 'Lathe', inCycle: 0.7 }),
  ];
  const names = (rs: UtilizationMachine[]) => rs.map((r) => r.machineName);

  it.each([
    ['name', 'ascending', ['Lathe', 'Mill 2', 'Mill 10']],
    ['name', 'descending', ['Mill 10', 'Mill 2', 'Lathe']],
    ['inCycle', 'descending', ['Lathe', 'Mill 10', 'Mill 2']],
    ['inCycle', 'ascending', ['Mill 10', 'Lathe', 'Mill 2']],
  ] as const)('sorts by %s %s', (key, direction, expected) => {
    expect(names(sortMachines(rows, { key, direction }))).toEqual(expected);
  });

  it('starts numbers descending and flips on the same column', () => {
    expect(nextMachineSort({ key: 'name', direction: 'ascending' }, 'inCycle')).toEqual({
      key: 'inCycle',
      direction: 'descending',
    });
    expect(nextMachineSort({ key: 'name', direction: 'ascending' }, 'name')).toEqual({
      key: 'name',
      direction: 'descending',
    });
  });

  it('writes the list with one column per interval', () => {
    const csv = machinesCsv(answer().machines, answer(), { timeZone: 'UTC', locale: 'en-US' });
    expect(csv.trimEnd().split('\r\n')).toEqual([
      'Name,In-Cycle,Spindle-Rotating,In-Cut,"Mon, Nov 23","Tue, Nov 24"',
      'Lathe 2,50,40,30,50',
      'All Machines,50,,,50,',
    ]);
  });
});

describe('utilization lists over the production report (reports-admin §2 "Same layout")', () => {
  const sel = {
    range: { start: epochMs(0), end: epochMs(7 * DAY), interval: 'day' } as AppliedRange,
    group: null,
    machine: null,
    shifts: [],
  };
  const production = (kind: 'machine' | 'machineGroup') =>
    parseUtilizationProduction({
      range: { start: 0, end: 7 * DAY },
      items: [
        {
          [kind]: 'a',
          utilizationRate: 0.5,
          timeInCycle: 50,
          timeSpindleRotating: 25,
          timeInCut: 10,
          allTime: 100,
        },
      ],
      entities: {
        machines: [{ id: 'a', name: 'Lathe' }],
        shifts: [],
        machineGroups: [{ id: 'a', name: 'Cell' }],
        intervals: [],
      },
      aggregate: {},
    });

  it('asks the utilization metrics with a server CSV, spindle and in-cut only for machines', () => {
    expect(utilizationListRequest(sel, 'machine', false)).toMatchObject({
      data: ['utilizationRate', 'timeInCycle', 'timeSpindleRotating', 'timeInCut', 'allTime'],
      groupBy: ['machine'],
      csv: true,
    });
    expect(utilizationListRequest(sel, 'machineGroup', false).data).toEqual([
      'utilizationRate',
      'timeInCycle',
      'allTime',
    ]);
    const overTime = utilizationListRequest(sel, 'shift', true);
    expect([overTime.data, overTime.groupBy, 'csv' in overTime]).toEqual([
      ['utilizationRate'],
      ['shift', 'interval'],
      false,
    ]);
  });

  it('shows shares of total duration for machines and In-Cycle only for groups', () => {
    expect(utilizationListRows('machine', production('machine'), null)[0]!.figures).toEqual({
      inCycle: 0.5,
      spindleRotating: 0.25,
      inCut: 0.1,
    });
    const [group] = utilizationListRows('machineGroup', production('machineGroup'), null);
    expect([group!.name, group!.figures]).toEqual([
      'Cell',
      { inCycle: 0.5, spindleRotating: null, inCut: null },
    ]);
  });
});
