import type { WaterfallStep } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import { parseOeeSummary, pct } from './report';
import { DAY, H, summary, T0 } from './test-builders';
import {
  lowestPerformanceMachine,
  stepHref,
  waterfallCaption,
  waterfallOee,
  waterfallRows,
  wrapLabel,
} from './waterfall';

// METRICS.md §7: 480-minute shift, 60 min planned, 47 min unplanned, 373 min run, OEE 74.79 %.
const steps: WaterfallStep[] = [
  { key: 'allTime', kind: 'total', ms: 24 * H },
  { key: 'outsideShift', kind: 'loss', ms: 16 * H },
  { key: 'shiftTime', kind: 'total', ms: 8 * H },
  {
    key: 'plannedDowntime',
    kind: 'loss',
    ms: 60 * 60_000,
    reasonId: 'r1',
    reasonName: 'Breaks',
    link: { report: 'downtime', reasonId: 'r1' },
  },
  { key: 'plannedProductionTime', kind: 'total', ms: 420 * 60_000 },
  {
    key: 'availabilityLoss',
    kind: 'loss',
    ms: 30 * 60_000,
    reasonId: 'setup',
    link: { report: 'downtime', reasonId: 'setup' },
  },
  {
    key: 'availabilityLoss',
    kind: 'loss',
    ms: 17 * 60_000,
    reasonId: 'uncategorized',
    link: { report: 'downtime' },
  },
  { key: 'runTime', kind: 'total', ms: 373 * 60_000 },
  { key: 'performanceLoss', kind: 'loss', ms: 22_380_000 - 19_271_000, link: { report: 'cycles' } },
  { key: 'qualityLoss', kind: 'loss', ms: 423_000, link: { report: 'quality' } },
  { key: 'fullyProductiveTime', kind: 'total', ms: 18_848_000 },
];

describe('loss waterfall (decision 0803)', () => {
  const ctx = { group: null, machine: null, start: T0, end: T0 + DAY };
  const rows = waterfallRows(parseOeeSummary(summary({ waterfall: steps })).waterfall, ctx, 'en-US');

  it('labels, hours, share of planned production time, and floating bars', () => {
    expect(rows.map((r) => [r.label, r.hours, r.share])).toEqual([
      ['All time', '24.0', ''],
      ['Outside shifts', '16.0', ''],
      ['Shift time', '8.0', ''],
      ['Planned downtime: Breaks', '1.0', ''],
      ['Planned production time', '7.0', '100.0%'],
      ['Downtime: Setup', '0.5', '7.1%'],
      ['Downtime: Uncategorized', '0.3', '4.0%'],
      ['Run time', '6.2', '88.8%'],
      ['Performance loss (slow cycles)', '0.9', '12.3%'],
      ['Quality loss (rejected parts)', '0.1', '1.7%'],
      ['Fully productive time', '5.2', '74.8%'],
    ]);
    expect(rows[1]).toMatchObject({ from: 8, to: 24 });
    expect(rows[3]).toMatchObject({ from: 7, to: 8 });
    expect(rows[5]).toMatchObject({ from: 6.5, to: 7 });
    expect(rows[10]).toMatchObject({ from: 0, kind: 'total' });
  });

  it('sums to the OEE shown, and says so', () => {
    expect(pct(waterfallOee(steps))).toBe('74.8%');
    expect(waterfallCaption(rows, waterfallOee(steps))).toBe(
      'OEE 74.8% = fully productive time (5.2 h) ÷ planned production time (7.0 h).',
    );
    expect(waterfallCaption([], null)).toBe('No planned production time in this range, so there is no OEE.');
    // Planned production time but no run time: the tile shows '-', so does the caption.
    const noRun = rows.map((r) => (r.key === 'runTime' ? { ...r, ms: 0 } : r));
    expect(waterfallCaption(noRun, null)).toBe('No run time in this range, so there is no OEE.');
    // Run time but no parts: no quality, so no OEE either.
    expect(waterfallCaption(rows, null)).toBe(
      'No parts counted in this range, so quality and OEE are unknown.',
    );
    expect(waterfallOee(steps.filter((s) => s.key !== 'plannedProductionTime'))).toBeCloseTo(0.7479, 4);
    expect(waterfallOee([])).toBeNull();
  });

  it('every loss links to its records; levels and outside-shift time do not', () => {
    expect(rows.map((r) => r.href)).toEqual([
      null,
      null,
      null,
      // Only the reason's planned periods: what the planned-downtime bar counts.
      `/dashboard/downtime?start=${String(T0)}&end=${String(T0 + DAY)}&shifttime=1&reason=r1&hide=unplanned%2Cuncategorized%2CnoData`,
      null,
      // The Downtime report leaves setup out: a setup step opens it on every reason.
      `/dashboard/downtime?start=${String(T0)}&end=${String(T0 + DAY)}&shifttime=1`,
      `/dashboard/downtime?start=${String(T0)}&end=${String(T0 + DAY)}&shifttime=1`,
      null,
      // All machines: no machine's cycles to open until the Machines list names the slowest (decision 0806).
      null,
      `/dashboard/quality?start=${String(T0)}&end=${String(T0 + DAY)}`,
      null,
    ]);
  });

  it.each([
    [
      { report: 'downtime' },
      { machine: 'm 1', group: 'g1' },
      '/machine/m%201/downtime?start=1&end=2&shifttime=1',
    ],
    [{ report: 'cycles' }, { machine: 'm1', group: null }, '/machine/m1/cycles?start=1&end=2'],
    [{ report: 'quality' }, { machine: 'm1', group: 'g1' }, '/dashboard/quality?start=1&end=2&machine=m1'],
    [{ report: 'quality' }, { machine: null, group: 'g1' }, '/dashboard/quality?start=1&end=2&group=g1'],
    [
      { report: 'cycles' },
      { machine: null, group: 'g1', performanceMachine: 'm 2' },
      '/machine/m%202/cycles?start=1&end=2',
    ],
    [{ report: 'cycles' }, { machine: null, group: null }, null],
    [
      { report: 'downtime' },
      { machine: null, group: 'g1' },
      '/dashboard/downtime?start=1&end=2&shifttime=1&group=g1',
    ],
    [
      { report: 'downtime', reasonId: 'r 1' },
      { machine: null, group: null },
      '/dashboard/downtime?start=1&end=2&shifttime=1&reason=r+1',
    ],
    [
      { report: 'downtime', reasonId: 'uncategorized' },
      { machine: 'm1', group: null },
      '/machine/m1/downtime?start=1&end=2&shifttime=1&reason=uncategorized',
    ],
    [{ report: 'quality' }, { machine: null, group: null }, '/dashboard/quality?start=1&end=2'],
  ] as const)('%j for %j → %s', (link, d, href) => {
    expect(stepHref(link, { ...d, start: 1, end: 2 })).toBe(href);
  });

  it('a downtime step opens only the periods it counts: planned ones, or the others (issue 27 point 2)', () => {
    const ctx = { machine: 'm1', group: null, start: 1, end: 2 };
    const link = { report: 'downtime', reasonId: 'r1' } as const;
    expect(stepHref(link, ctx, 'plannedDowntime')).toBe(
      '/machine/m1/downtime?start=1&end=2&shifttime=1&reason=r1&hide=unplanned%2Cuncategorized%2CnoData',
    );
    expect(stepHref(link, ctx, 'availabilityLoss')).toBe(
      '/machine/m1/downtime?start=1&end=2&shifttime=1&reason=r1&hide=planned',
    );
    // Setup is not in the Downtime report: its step opens every reason, every kind.
    expect(stepHref({ report: 'downtime', reasonId: 'setup' }, ctx, 'plannedDowntime')).toBe(
      '/machine/m1/downtime?start=1&end=2&shifttime=1',
    );
  });

  it.each([
    ['Run time', 'Run time'],
    ['Downtime: Waiting for material', ['Downtime: Waiting for', 'material']],
  ])('wraps long chart labels: %s', (text, out) => {
    expect(wrapLabel(text, 24)).toEqual(out);
  });
});

describe('lowestPerformanceMachine (decision 0806)', () => {
  const entities = {
    machines: [
      { id: 'm1', name: 'Lathe' },
      { id: 'm2', name: 'Mill' },
      { id: 'm3', name: 'Press' },
    ],
  };
  it.each([
    [
      [
        { machine: 'm1', performance: 0.9 },
        { machine: 'm2', performance: 0.7 },
      ],
      'm2',
    ],
    // A machine without run time has no Performance: it has no cycles to show.
    [[{ machine: 'm1', performance: 0.9 }, { machine: 'm3' }], 'm1'],
    [
      [
        { machine: 'm2', performance: 0.8 },
        { machine: 'm1', performance: 0.8 },
      ],
      'm1',
    ],
    [[{ machine: 'm3' }], null],
  ])('%j → %s', (items: { machine: string; performance?: number }[], id) => {
    expect(lowestPerformanceMachine({ items, entities })).toBe(id);
  });
  it('is null without the list', () => expect(lowestPerformanceMachine(null)).toBeNull());
});
