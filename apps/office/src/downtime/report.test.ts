import { ApiError } from '@takt/ui';
import { epochMs } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import {
  downtimeCsvHref,
  downtimeErrorText,
  downtimeQuery,
  gridRows,
  machineDowntimeHref,
  paretoBars,
  readKinds,
  stackedByMachine,
  totalMinutes,
  writeKinds,
  readShiftTime,
  shiftsToAsk,
} from './report';
import type { DowntimeAnswer, DowntimePeriod, DowntimeSelection } from './report';

const MIN = 60_000;
const brk = { id: 'brk', name: 'Break' };
const tool = { id: 'tool', name: 'Tool change' };

/** A period with defaults (STYLE.md builders). */
const aPeriod = (over: Partial<DowntimePeriod> = {}): DowntimePeriod => ({
  start: 0,
  end: 10 * MIN,
  duration: 10 * MIN,
  machineId: 'm1',
  machine: 'Lathe',
  reason: 'Tool change',
  message: null,
  planned: false,
  reasonId: 'tool',
  annotationType: tool,
  jobName: undefined,
  activityTypeName: undefined,
  ...over,
});

const answer: Omit<DowntimeAnswer, 'items'> = {
  range: { start: 0, end: 7 * 24 * 60 * MIN },
  recomputing: [],
  activities: false,
  data: [
    { count: 2, duration: 90 * MIN + 300, reasonId: 'tool', annotationType: tool, reason: 'Tool change' },
    { count: 1, duration: 30 * MIN, reasonId: 'brk', annotationType: brk, reason: 'Break' },
    {
      count: 1,
      duration: 30 * MIN - 300,
      reasonId: 'uncategorized',
      annotationType: null,
      reason: 'Uncategorized',
    },
  ],
  summary: {
    count: 4,
    duration: 150 * MIN,
    plannedDuration: 30 * MIN,
    unplannedDuration: 90 * MIN + 300,
    uncategorizedDuration: 30 * MIN - 300,
    noDataDuration: 0,
  },
  byMachine: [
    {
      machineId: 'm1',
      machine: 'Lathe',
      downtime: [{ count: 1, duration: 45 * MIN, reasonId: 'tool', annotationType: tool }],
    },
    {
      machineId: 'm2',
      machine: 'Mill',
      downtime: [
        { count: 1, duration: 45 * MIN + 300, reasonId: 'tool', annotationType: tool },
        { count: 1, duration: 30 * MIN, reasonId: 'brk', annotationType: brk },
        { count: 1, duration: 30 * MIN - 300, reasonId: 'uncategorized', annotationType: null },
      ],
    },
  ],
};

const selection: DowntimeSelection = {
  range: { interval: 'day', start: epochMs(1000), end: epochMs(2000), quicklink: null },
  group: 'g1',
  machine: null,
  shifts: ['s1', 's2'],
  kinds: { planned: true, unplanned: true, uncategorized: false, noData: true },
};

describe('the downtime report (reports-admin §2, §7, §9)', () => {
  it('asks for every period, with the filters of GET /api/reports/downtime', () => {
    expect(downtimeQuery(selection)).toEqual({
      start: 1000,
      end: 2000,
      detail: 'true',
      showPlanned: 'true',
      showUnplanned: 'true',
      showUncategorized: 'false',
      showNoData: 'true',
      group: 'g1',
      shifts: 's1,s2',
    });
    expect(downtimeQuery({ ...selection, machine: 'm1', shifts: [] })).toMatchObject({ machineId: 'm1' });
    expect(downtimeQuery({ ...selection, machine: 'm1' })).not.toHaveProperty('group');
  });

  it.each([
    [null, 'showUncategorized=false'],
    ['tool', 'categoryId=tool'],
    ['uncategorized', 'categoryId=uncategorized'],
    ['nodata', 'categoryId=nodata'],
  ])('links the CSV of reason %s with the user token', (reason, part) => {
    const href = downtimeCsvHref(selection, reason, 'tok')!;
    expect(href).toMatch(/^\/api\/reports\/downtime\?start=1000&end=2000/);
    expect(href).toContain(part);
    expect(href).toContain('format=csv&token=tok');
    expect(href).not.toContain('detail');
    expect(downtimeCsvHref(selection, reason, null)).toBeNull();
  });

  it('keeps the kind toggles in the URL, short when all are shown', () => {
    const q = writeKinds(new URLSearchParams('a=1'), {
      planned: false,
      unplanned: true,
      uncategorized: false,
      noData: false,
    });
    expect(q.toString()).toBe('a=1&hide=planned%2Cuncategorized%2CnoData');
    expect(readKinds(q)).toEqual({ planned: false, unplanned: true, uncategorized: false, noData: false });
    expect(
      writeKinds(q, { planned: true, unplanned: true, uncategorized: true, noData: true }).toString(),
    ).toBe('a=1');
  });

  it('draws the pareto longest first, in minutes with 2 decimals and the accumulated percent', () => {
    expect(paretoBars(answer)).toEqual([
      { key: 'tool', name: 'Tool change', minutes: 90.01, count: 2, cumulative: 60 },
      { key: 'brk', name: 'Break', minutes: 30, count: 1, cumulative: 80 },
      { key: 'uncategorized', name: 'Uncategorized', minutes: 30, count: 1, cumulative: 100 }, // 29.995 rounds up
    ]);
  });

  it('stacks machines by reason, longest first, and only the reason drilled into', () => {
    const all = stackedByMachine(answer, null);
    expect(all.machines.map((m) => m.name)).toEqual(['Mill', 'Lathe']);
    expect(all.series.map((s) => [s.key, s.values])).toEqual([
      ['tool', [45.01, 45]],
      ['brk', [30, 0]],
      ['uncategorized', [30, 0]],
    ]);
    const brkOnly = stackedByMachine(answer, 'brk');
    expect(brkOnly.machines.map((m) => m.name)).toEqual(['Mill']);
    expect(brkOnly.series.map((s) => s.key)).toEqual(['brk']);
  });

  it('lists the grid with the planned value of reports-admin §4', () => {
    const items = [
      aPeriod({ message: 'insert', duration: 90_300 }),
      aPeriod({ annotationType: brk, reasonId: 'brk', planned: true, reason: 'Break' }),
      aPeriod({ annotationType: brk, reasonId: 'brk', planned: null, reason: 'Break' }),
      aPeriod({ annotationType: null, reasonId: 'uncategorized', planned: null, reason: 'Uncategorized' }),
      // METRICS.md §1 No data: a reason of its own, apart from Uncategorized (decision 1011).
      aPeriod({ annotationType: null, planned: null, reason: 'No data', reasonId: 'nodata' }),
    ];
    expect(gridRows(items, null).map((r) => [r.minutes, r.reason, r.message, r.planned])).toEqual([
      ['1.51', 'Tool change', 'insert', 'Unplanned'],
      ['10.00', 'Break', '', 'Planned'],
      ['10.00', 'Break', '', 'Exceeded Limit'],
      ['10.00', 'Uncategorized', '', ''],
      ['10.00', 'No data', '', ''],
    ]);
    expect(gridRows(items, 'brk')).toHaveLength(2);
    expect(gridRows(items, 'uncategorized')).toHaveLength(1);
    expect(gridRows(items, 'nodata')).toHaveLength(1);
    expect(totalMinutes(items, 'brk')).toBe('20.00');
  });

  it('carries the job and activity of a stop when the company has activities on (decision 1087)', () => {
    const rows = gridRows(
      [
        aPeriod({ jobName: 'Bracket', activityTypeName: 'Teardown' }),
        aPeriod({ jobName: null }),
        aPeriod({}),
      ],
      null,
    );
    expect(rows.map((r) => [r.job, r.activity])).toEqual([
      ['Bracket', 'Teardown'],
      ['', ''],
      ['', ''],
    ]);
  });

  it('opens a machine with the same range, quick link and reason', () => {
    expect(machineDowntimeHref('m1', { ...selection.range, quicklink: 'last-week' }, null)).toBe(
      '/machine/m1/downtime?interval=day&start=1000&end=2000&quicklink=last-week',
    );
    expect(machineDowntimeHref('m 1', selection.range, 'tool')).toBe(
      '/machine/m%201/downtime?interval=day&start=1000&end=2000&reason=tool',
    );
  });

  it.each([
    [new ApiError(400, 'validation', 'Range must be at most 31 days'), 'Range must be at most 31 days'],
    [new ApiError(500, 'internal', 'boom'), 'An error occurred with your request.'],
    [new ApiError(0, 'network', ''), 'An error occurred with your request.'],
    [new Error('x'), 'An error occurred with your request.'],
  ])('says the server message or the spec text (§8): %s', (err, text) => {
    expect(downtimeErrorText(err)).toBe(text);
  });

  it('a link from an OEE waterfall step asks for shift time only, as the step counts it (issue 27 point 2)', () => {
    const options = [{ id: 'day' }, { id: 'swing' }];
    expect(readShiftTime(new URLSearchParams('start=1&shifttime=1'))).toBe(true);
    expect(readShiftTime(new URLSearchParams('start=1'))).toBe(false);
    // Every shift ticked (no filter): all the shifts' time instead of all time.
    expect(shiftsToAsk([], options, true)).toEqual(['day', 'swing']);
    expect(shiftsToAsk([], options, false)).toEqual([]);
    // A filter is kept as it is; unknown options wait.
    expect(shiftsToAsk(['swing'], options, true)).toEqual(['swing']);
    expect(shiftsToAsk(null, options, true)).toBeNull();
  });
});
