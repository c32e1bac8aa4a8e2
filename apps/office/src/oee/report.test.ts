import type { ProductionResponse } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import {
  allComponentsTable,
  byShiftRequest,
  byShiftSeries,
  chartTypes,
  csvHref,
  isEmpty,
  listColumns,
  listRequest,
  listRows,
  matrix,
  offersMatrix,
  parseByShift,
  parseOeeSummary,
  parseProduction,
  pct,
  pct0,
  perShiftTable,
  reportTitle,
  showsStandardsWarning,
  sortList,
  summaryQuery,
  tileMetrics,
  visibleLists,
} from './report';
import { DAY, efficiency, selection, summary, T0 } from './test-builders';

describe('formatting (reports-admin §9, METRICS.md §6)', () => {
  it.each([
    [0.74789, '74.8%', '75%'],
    [1.0234, '102.3%', '102%'],
    [0, '0.0%', '0%'],
    [null, '-', '-'],
    [undefined, '-', '-'],
    [Number.NaN, '-', '-'],
  ])('%s → tiles and tables %s, per-shift matrix %s', (f, one, zero) => {
    expect(pct(f)).toBe(one);
    expect(pct0(f)).toBe(zero);
  });
});

describe('URL state → requests', () => {
  it.each([
    [selection(), { start: T0, end: T0 + 3 * DAY, interval: 'day' }],
    [selection({ group: 'g1' }), { start: T0, end: T0 + 3 * DAY, interval: 'day', group: 'g1' }],
    [
      selection({ group: 'g1', machine: 'm1', shifts: ['s1', 's2'] }),
      { start: T0, end: T0 + 3 * DAY, interval: 'day', machineId: 'm1', shifts: 's1,s2' },
    ],
  ])('GET /api/reports/oee %#', (s, query) => {
    expect(summaryQuery(s)).toEqual(query);
  });

  it('asks each list with all six metrics and a CSV, and its sparkline with OEE per interval', () => {
    const s = selection({ group: 'g1', shifts: ['s1'] });
    expect(listRequest(s, 'machine', false)).toEqual({
      start: T0,
      end: T0 + 3 * DAY,
      interval: 'day',
      data: ['oee', 'ooe', 'teep', 'availability', 'performance', 'quality'],
      filter: { machineGroup: 'g1', shift: ['s1'] },
      groupBy: ['machine'],
      csv: true,
    });
    expect(listRequest(selection({ machine: 'm1' }), 'shift', true)).toEqual({
      start: T0,
      end: T0 + 3 * DAY,
      interval: 'day',
      data: ['oee'],
      filter: { machine: ['m1'] },
      groupBy: ['shift', 'interval'],
    });
  });

  it('asks the by-shift figures for the chosen metric, interval and drill-down', () => {
    expect(byShiftRequest(selection({ machine: 'm1', shifts: ['s2'] }), 'quality', 'week')).toEqual({
      intervalType: 'week',
      start: T0,
      end: T0 + 3 * DAY,
      efficiencyMetric: 'quality',
      shifts: ['s2'],
      machines: ['m1'],
    });
    expect(byShiftRequest(selection({ group: 'g1' }), 'oee', 'day')).toMatchObject({ group: 'g1' });
  });

  it.each([
    ['/api/x.csv?k=1', 'tok', '/api/x.csv?k=1&token=tok'],
    ['/api/x.csv', 'a b', '/api/x.csv?token=a+b'],
    ['https://files.example/x.csv?token=old', 'new', 'https://files.example/x.csv?token=new'],
    [undefined, 'tok', null],
    ['/api/x.csv', null, null],
  ])('CSV link %s with token %s → %s', (url, token, href) => {
    expect(csvHref(url, token)).toBe(href);
  });
});

describe('summary', () => {
  it.each([
    [{ group: null, machine: null }, {}, 'OEE Report for All Machines'],
    [{ group: 'g1', machine: null }, { group: 'Lathes' }, 'OEE Report for Lathes'],
    [{ group: 'g1', machine: 'm1' }, { group: 'Lathes', machine: 'Mazak 1' }, 'OEE Report for Mazak 1'],
    [{ group: 'g1', machine: null }, {}, 'OEE Report for …'],
  ])('title %j', (d, names, title) => {
    expect(reportTitle(d, names)).toBe(title);
  });

  it('six tiles; OOE and TEEP hidden with a shift filter', () => {
    expect(tileMetrics(false)).toEqual(['oee', 'ooe', 'teep', 'availability', 'performance', 'quality']);
    expect(tileMetrics(true)).toEqual(['oee', 'availability', 'performance', 'quality']);
  });

  it.each([
    [0, true],
    [1200, false],
    [null, false],
  ])('minExpectedPartTime %s → standards warning %s', (v, shown) => {
    expect(showsStandardsWarning({ minExpectedPartTime: v })).toBe(shown);
  });

  it('run time without a standard shows the warning whatever minExpectedPartTime is (decision 1002)', () => {
    expect(showsStandardsWarning({ minExpectedPartTime: 1200, missingStandards: true })).toBe(true);
    expect(showsStandardsWarning({ minExpectedPartTime: 1200, missingStandards: false })).toBe(false);
  });

  it('is empty when no tile has a value', () => {
    expect(isEmpty(parseOeeSummary(summary()))).toBe(false);
    const none = efficiency({
      oee: null,
      ooe: null,
      teep: null,
      availability: null,
      performance: null,
      quality: null,
    });
    expect(isEmpty(parseOeeSummary(summary({ efficiency: none })))).toBe(true);
  });

  it('offers Compare OEE, OOE and TEEP only without a shift filter', () => {
    expect(chartTypes(false)).toEqual(['components', 'compare', 'byShift']);
    expect(chartTypes(true)).toEqual(['components', 'byShift']);
  });

  it('rejects an answer of the wrong shape', () => {
    expect(() =>
      parseOeeSummary({ ...summary(), waterfall: [{ key: 'nope', kind: 'total', ms: 1 }] }),
    ).toThrow(/waterfall\[0\]\.key/);
  });
});

const production = (over: Partial<ProductionResponse> = {}): ProductionResponse => ({
  range: { start: T0, end: T0 + 2 * DAY },
  interval: 'day',
  items: [],
  entities: {
    machines: [
      { id: 'm1', name: 'Mazak 1' },
      { id: 'm2', name: 'Haas' },
    ],
    shifts: [{ id: 's1', name: 'Day', color: null }],
    machineGroups: [],
    intervals: [
      { start: T0, end: T0 + DAY, shopDate: '2026-11-23' },
      { start: T0 + DAY, end: T0 + 2 * DAY, shopDate: '2026-11-24' },
    ],
  },
  aggregate: { minExpectedPartTime: null },
  recomputing: [],
  ...over,
});

describe('lists (reports-admin §2)', () => {
  it.each([
    [
      { group: null, machine: null },
      { shift: true, machineGroup: true, machine: true },
      ['shift', 'machineGroup', 'machine'],
    ],
    [{ group: null, machine: null }, { shift: false, machineGroup: false, machine: true }, ['machine']],
    [
      { group: 'g1', machine: null },
      { shift: true, machineGroup: true, machine: true },
      ['shift', 'machine'],
    ],
    [{ group: null, machine: 'm1' }, { shift: false, machineGroup: true, machine: true }, ['machine']],
  ] as const)('drill-down %j with data %j → %j', (d, data, lists) => {
    expect(visibleLists(d, data)).toEqual(lists);
  });

  it.each([
    ['machine', false, ['oee', 'ooe', 'teep', 'availability', 'performance', 'quality']],
    ['machineGroup', false, ['oee', 'ooe', 'teep', 'availability', 'performance', 'quality']],
    ['machine', true, ['oee', 'availability', 'performance', 'quality']],
    ['shift', false, ['oee', 'availability', 'performance', 'quality']],
  ] as const)('%s columns, shift-filtered %s', (kind, filtered, cols) => {
    expect(listColumns(kind, filtered)).toEqual(cols);
  });

  it.each([
    ['machine', 2, true],
    ['machine', 1, false],
    ['machineGroup', 3, true],
    ['shift', 3, false],
  ] as const)('%s list with %s rows offers the per-shift matrix: %s', (kind, n, offered) => {
    expect(offersMatrix(kind, n)).toBe(offered);
  });

  const figures = parseProduction(
    production({
      items: [
        { machine: 'm1', oee: 0.5, availability: 0.9, minExpectedPartTime: 1 },
        { machine: 'm2', oee: null, availability: 0.4, minExpectedPartTime: 0 },
        { machine: 'm9', oee: 0.7, minExpectedPartTime: 1 },
      ],
    }),
  );
  const overTime = parseProduction(
    production({
      items: [
        { machine: 'm1', interval: T0, oee: 0.41234, minExpectedPartTime: 1 },
        { machine: 'm1', interval: T0 + DAY, oee: null, minExpectedPartTime: 1 },
        { machine: 'm2', interval: T0 + DAY, oee: 0.2, minExpectedPartTime: 1 },
      ],
    }),
  );
  const rows = listRows('machine', figures, overTime);

  it('joins names, figures and the OEE sparkline per interval', () => {
    expect(rows.map((r) => [r.id, r.name, r.figures.oee, r.figures.teep, r.overTime])).toEqual([
      ['m1', 'Mazak 1', 0.5, null, [41.2, null]],
      ['m2', 'Haas', null, null, [null, 20]],
      ['m9', 'm9', 0.7, null, [null, null]],
    ]);
  });

  it('sorts by a figure (no value last) or by name', () => {
    expect(sortList(rows, { key: 'oee', direction: 'descending' }).map((r) => r.id)).toEqual([
      'm9',
      'm1',
      'm2',
    ]);
    expect(sortList(rows, { key: 'oee', direction: 'ascending' }).map((r) => r.id)).toEqual([
      'm1',
      'm9',
      'm2',
    ]);
    expect(sortList(rows, { key: 'name', direction: 'ascending' }).map((r) => r.name)).toEqual([
      'Haas',
      'm9',
      'Mazak 1',
    ]);
  });
});

const byShift = parseByShift({
  intervals: [
    { start: T0, end: T0 + DAY, shopDate: '2026-11-23' },
    { start: T0 + DAY, end: T0 + 2 * DAY, shopDate: '2026-11-24' },
  ],
  shifts: [
    { id: 's1', name: 'Day', color: '#1f5fbf' },
    { id: 's2', name: 'Night', color: null },
  ],
  allMachines: {
    intervalData: [
      { start: T0, shift: 's1', value: 0.456 },
      { start: T0, shift: 's2', value: 0.3 },
      { start: T0 + DAY, shift: 's1', value: null },
    ],
    byShift: [],
  },
  machines: [
    { machineId: 'm1', name: 'Mazak 1', byShift: [{ shift: 's1', value: 0.5 }] },
    { machineId: 'm2', name: 'Haas', byShift: [{ shift: 's2', value: 0.25 }] },
  ],
  machineGroups: [{ id: 'g1', name: 'Lathes', byShift: [{ shift: 's1', value: 0.1 }] }],
});

describe('per-shift figures', () => {
  it('matrix: one row per machine or group, one column per shift', () => {
    expect(matrix('machine', byShift)).toEqual({
      shifts: [
        { id: 's1', name: 'Day' },
        { id: 's2', name: 'Night' },
      ],
      rows: [
        { id: 'm1', name: 'Mazak 1', values: { s1: 0.5 } },
        { id: 'm2', name: 'Haas', values: { s2: 0.25 } },
      ],
    });
    expect(matrix('machineGroup', byShift).rows).toEqual([{ id: 'g1', name: 'Lathes', values: { s1: 0.1 } }]);
  });

  it('by-shift chart: one series per shift in its own colour, gaps where there is no value', () => {
    expect(byShiftSeries(byShift).series).toEqual([
      { label: 'Day', values: [45.6, null], color: '#1f5fbf' },
      { label: 'Night', values: [30, null], color: 1 },
    ]);
  });

  it("summary table: 'all' mode has date, OEE, availability, performance, quality with one decimal", () => {
    const t = allComponentsTable(parseOeeSummary(summary()));
    expect(t.columns).toEqual(['OEE', 'Availability', 'Performance', 'Quality']);
    expect(t.rows.map((r) => [r.shopDate, ...r.cells])).toEqual([
      ['2026-11-23', '74.8%', '88.8%', '86.1%', '97.8%'],
      ['2026-11-24', '-', '-', '-', '-'],
    ]);
  });

  it('summary table: per-metric mode has one column per shift with zero decimals', () => {
    const t = perShiftTable(byShift);
    expect(t.columns).toEqual(['Day', 'Night']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['46%', '30%'],
      ['-', '-'],
    ]);
  });
});
