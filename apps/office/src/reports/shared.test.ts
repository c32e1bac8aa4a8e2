import { describe, expect, it } from 'vitest';
import { parseDowntime } from '../downtime/report';
import { drillTo, nextSort, readDrillDown, recomputingNotice, returnToAll, sortRows } from './shared';

const q = (s: string) => new URLSearchParams(s);
const RANGE = 'interval=day&start=1&end=2&quicklink=last-week';

describe('drill-down in the URL (reports-admin §2)', () => {
  it.each([
    ['', { group: null, machine: null }],
    ['group=g1', { group: 'g1', machine: null }],
    ['group=g1&machine=m1', { group: 'g1', machine: 'm1' }],
    ['group=&machine=', { group: null, machine: null }],
  ])('%s', (search, expected) => {
    expect(readDrillDown(q(search))).toEqual(expected);
  });

  it.each([
    [RANGE, 'group', 'g1', `${RANGE}&group=g1`],
    [`${RANGE}&group=g1&machine=m1`, 'group', 'g2', `${RANGE}&group=g2`],
    [`${RANGE}&group=g1`, 'machine', 'm1', `${RANGE}&group=g1&machine=m1`],
    [`${RANGE}&group=g1`, 'group', null, RANGE],
  ] as const)('%s + %s=%s → %s', (from, param, id, to) => {
    expect(drillTo(q(from), param, id).toString()).toBe(to);
  });

  it('the back link clears group and machine and keeps the dates', () => {
    expect(returnToAll(q(`${RANGE}&group=g1&machine=m1`)).toString()).toBe(RANGE);
  });
});

describe('sortRows', () => {
  const rows = [
    { name: 'Mazak 10', v: 0.5 },
    { name: 'Mazak 2', v: null },
    { name: 'Haas', v: 0.9 },
    { name: 'Okuma', v: 0.5 },
  ];
  const sorted = (key: 'name' | 'v', direction: 'ascending' | 'descending') =>
    sortRows(
      rows,
      { key, direction },
      (r) => r.name,
      (r) => r.v,
    ).map((r) => r.name);

  it.each([
    ['name', 'ascending', ['Haas', 'Mazak 2', 'Mazak 10', 'Okuma']],
    ['name', 'descending', ['Okuma', 'Mazak 10', 'Mazak 2', 'Haas']],
    ['v', 'descending', ['Haas', 'Mazak 10', 'Okuma', 'Mazak 2']],
    ['v', 'ascending', ['Mazak 10', 'Okuma', 'Haas', 'Mazak 2']],
  ] as const)('by %s %s (no value last, ties by name)', (key, direction, names) => {
    expect(sorted(key, direction)).toEqual(names);
  });

  it('names start A→Z, figures highest first, a second click flips', () => {
    expect(nextSort({ key: 'name', direction: 'ascending' }, 'oee')).toEqual({
      key: 'oee',
      direction: 'descending',
    });
    expect(nextSort({ key: 'oee', direction: 'descending' }, 'oee')).toEqual({
      key: 'oee',
      direction: 'ascending',
    });
    expect(nextSort({ key: 'oee', direction: 'descending' }, 'name')).toEqual({
      key: 'name',
      direction: 'ascending',
    });
  });
});

describe('figures being recomputed (issue 27 point 8, decision 1004)', () => {
  const lathe = { machineId: 'm1', machineName: 'Lathe 1' };
  const mill = { machineId: 'm2', machineName: 'Mill 2' };

  it('names every machine whose figures may still change', () => {
    expect(recomputingNotice([lathe])).toBe(
      'Figures for Lathe 1 are being recomputed (late data or an edit); they may change.',
    );
    expect(recomputingNotice([lathe, mill])).toBe(
      'Figures for Lathe 1, Mill 2 are being recomputed (late data or an edit); they may change.',
    );
  });

  it('says nothing when the figures are settled', () => {
    expect(recomputingNotice([])).toBeNull();
    expect(recomputingNotice(undefined)).toBeNull();
  });

  it('reads the list from a report answer and refuses one of the wrong shape', () => {
    const answer = {
      range: { start: 0, end: 1 },
      data: [],
      summary: {
        count: 0,
        duration: 0,
        plannedDuration: 0,
        unplannedDuration: 0,
        uncategorizedDuration: 0,
        noDataDuration: 0,
      },
      byMachine: [],
    };
    expect(parseDowntime({ ...answer, recomputing: [lathe] }).recomputing).toEqual([lathe]);
    expect(() => parseDowntime({ ...answer, recomputing: [{ machineId: 'm1' }] })).toThrow(/recomputing/);
  });
});
