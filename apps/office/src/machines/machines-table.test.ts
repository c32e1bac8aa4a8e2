import type { DashboardMachine } from '@takt/domain';
import { machine as dashboardMachine } from '@takt/ui/testing';
import { describe, expect, it } from 'vitest';
import { machineRows, machinesCsv, nextSort, sortRows } from './machines-table';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

/** A machine with defaults; override what the test is about. */
function machine(over: Partial<DashboardMachine> = {}): DashboardMachine {
  return dashboardMachine({
    id: over.name ?? 'm',
    name: 'M',
    statusSince: NOW - 60_000,
    lastHeartbeat: NOW - 1000,
    extendedStatus: null,
    extendedStatusSince: null,
    program: null,
    partCount: null,
    groupIds: [],
    ...over,
  });
}

const groups = [
  { id: 'g1', name: 'Lathes' },
  { id: 'g2', name: 'Mills' },
];

const rows = machineRows(
  [
    machine({ name: 'Machine 10', statusSince: NOW - 10_000, partCount: 5, groupIds: ['g1', 'g2'] }),
    machine({
      name: 'Machine 2',
      status: 'FAULT',
      faultSince: NOW - 5000,
      statusSince: NOW - 300_000,
      partCount: null,
    }),
    machine({ name: 'Machine 1', status: 'INACTIVE', statusSince: null, program: 'O1000', partCount: 12 }),
  ],
  groups,
  NOW,
);

const names = (rs: { name: string }[]) => rs.map((r) => r.name);

describe('machineRows', () => {
  it('names groups and derives the status words', () => {
    expect(rows[0]).toMatchObject({ groups: 'Lathes, Mills', status: 'success', statusText: 'Active' });
    expect(rows[1]).toMatchObject({ status: 'fault', statusText: 'Fault' });
  });
});

describe('sortRows', () => {
  it.each([
    ['name', 'ascending', ['Machine 1', 'Machine 2', 'Machine 10']],
    ['name', 'descending', ['Machine 10', 'Machine 2', 'Machine 1']],
    ['status', 'ascending', ['Machine 2', 'Machine 10', 'Machine 1']],
    ['timeInState', 'ascending', ['Machine 10', 'Machine 2', 'Machine 1']],
    ['timeInState', 'descending', ['Machine 2', 'Machine 10', 'Machine 1']],
    ['partCount', 'ascending', ['Machine 10', 'Machine 1', 'Machine 2']],
    ['partCount', 'descending', ['Machine 1', 'Machine 10', 'Machine 2']],
    ['program', 'descending', ['Machine 1', 'Machine 2', 'Machine 10']],
  ] as const)('%s %s', (key, direction, expected) => {
    expect(names(sortRows(rows, { key, direction }))).toEqual(expected);
  });
});

describe('nextSort', () => {
  it('starts ascending on a new column and flips on the same one', () => {
    expect(nextSort({ key: 'name', direction: 'ascending' }, 'status')).toEqual({
      key: 'status',
      direction: 'ascending',
    });
    expect(nextSort({ key: 'status', direction: 'ascending' }, 'status')).toEqual({
      key: 'status',
      direction: 'descending',
    });
  });
});

describe('machinesCsv', () => {
  it('writes the visible columns', () => {
    const csv = machinesCsv(sortRows(rows, { key: 'name', direction: 'ascending' }), NOW, 'UTC');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Name,Group(s),Status,Time in State,Program,Controller count,Last Heartbeat');
    expect(lines[1]).toBe('Machine 1,,Never Reported,,O1000,12,2025-06-01 11:59:59');
    expect(lines[3]).toBe('Machine 10,"Lathes, Mills",Active,0:00:10,,5,2025-06-01 11:59:59');
  });
});
