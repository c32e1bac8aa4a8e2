import { describe, expect, it } from 'vitest';
import type { ProductionResponse } from '@takt/domain';
import { productionCsv } from './production-csv';
import type { ProductionQuery } from './production-report';

// productionCsv (decisions 0801, 1216): each dimension value's cell written and quoted once per call, the lines
// built as one string: the same document as a line per row of quoted cells.

const JAN_1 = Date.UTC(2024, 0, 1, 6); // 00:00 in Chicago
const WEEK = 7 * 86_400_000;

const query = (groupBy: ProductionQuery['groupBy'], data: ProductionQuery['data']): ProductionQuery => ({
  start: JAN_1,
  end: JAN_1 + 2 * WEEK,
  interval: 'week',
  data,
  filter: {},
  groupBy,
});

const report = {
  range: { start: JAN_1, end: JAN_1 + 2 * WEEK },
  interval: 'week',
  items: [
    { machine: 'm1', interval: JAN_1, oee: 0.2275, timeInCycle: 34_800_000, utilizationRate: 0.197 },
    { machine: 'm1', interval: JAN_1 + WEEK, oee: null, timeInCycle: 0, utilizationRate: -0.0004 },
    { machine: 'm2', interval: JAN_1, oee: 1.5, timeInCycle: 1_800_000, utilizationRate: 0.005 },
    { machine: 'm2', interval: JAN_1 + WEEK, oee: 0.99951, timeInCycle: 360_000_000, utilizationRate: 1 },
  ],
  entities: {
    machines: [
      { id: 'm1', name: 'Lathe, "big"' },
      { id: 'm2', name: 'Mill' },
    ],
    shifts: [],
    machineGroups: [],
    intervals: [],
  },
  aggregate: { oee: 0.5, timeInCycle: 396_600_000, utilizationRate: 0.4 },
  recomputing: [],
} as unknown as ProductionResponse;

describe('productionCsv', () => {
  it('writes quoted names, wall-clock intervals and formatted figures, a Total row last', () => {
    expect(
      productionCsv(
        report,
        query(['machine', 'interval'], ['oee', 'utilizationRate', 'timeInCycle']),
        'America/Chicago',
      ),
    ).toBe(
      [
        'Machine,Interval,OEE (%),Utilization (%),In-Cycle (h)',
        '"Lathe, ""big""",2024-01-01 00:00:00,22.8,20,9.7',
        '"Lathe, ""big""",2024-01-08 00:00:00,-,0,0.0',
        'Mill,2024-01-01 00:00:00,150.0,1,0.5',
        'Mill,2024-01-08 00:00:00,100.0,100,100.0',
        'Total,,50.0,40,110.2',
        '',
      ].join('\r\n'),
    );
  });

  it('one dimension, repeated or none, and no figures keep the columns', () => {
    const byInterval = productionCsv(report, query(['interval', 'interval'], ['oee']), 'UTC');
    expect(byInterval.split('\r\n')).toEqual([
      'Interval,OEE (%)',
      '2024-01-01 06:00:00,22.8',
      '2024-01-08 06:00:00,-',
      '2024-01-01 06:00:00,150.0',
      '2024-01-08 06:00:00,100.0',
      'Total,50.0',
      '',
    ]);
    expect(productionCsv(report, query([], ['oee']), 'UTC').split('\r\n')).toEqual([
      'OEE (%)',
      '22.8',
      '-',
      '150.0',
      '100.0',
      '50.0',
      '',
    ]);
    expect(productionCsv(report, query(['machine'], []), 'UTC').split('\r\n')).toEqual([
      'Machine',
      '"Lathe, ""big"""',
      '"Lathe, ""big"""',
      'Mill',
      'Mill',
      'Total',
      '',
    ]);
  });
});
