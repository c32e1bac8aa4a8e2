import { describe, expect, it } from 'vitest';
import type { DowntimeEntry } from '../offline/optimistic';
import { DEFAULT_FILTERS, downtimeSections, filterDurationOf, totalDowntimeMs } from './downtimeList';
import {
  companyFlagsOf,
  hasFullProduct,
  jobOf,
  multiplierOf,
  operatorOf,
  switcherAllowed,
  workcenterTypeOf,
} from './view';

describe('jobOf', () => {
  const run = {
    id: 'run-1',
    job_id: 'j1',
    jobName: 'Bracket',
    enddate: null,
    setupend: null,
    setuptime: 600,
    startdate: 1000,
    laborActivitySet: {
      expectedSetupDuration: 600_000,
      laborActivities: [
        { setupStageId: 's1', endAt: 2000 },
        { setupStageId: 's2', endAt: null },
      ],
    },
  };
  it('reads a run this device started', () => {
    expect(jobOf({}, run)).toMatchObject({
      jobId: 'j1',
      jobName: 'Bracket',
      runId: 'run-1',
      setup: true,
      stageId: 's2',
      expectedSetupMs: 600_000,
    });
  });
  it('prefers the tile once the server fills its job fields', () => {
    const j = jobOf({ jobId: 'j1', jobScheduleGroupId: 'run-1', setupSince: 1000, setupEnd: 5000 }, run);
    expect(j).toMatchObject({ runId: 'run-1', jobName: 'Bracket', setup: false });
  });
  it("times the setup against the run's expected setup, not the tile's setup time a start leaves at 0", () => {
    const started = {
      ...run,
      setuptime: 0,
      laborActivitySet: { ...run.laborActivitySet, expectedSetupDuration: 1_800_000 },
    };
    const tile = { jobId: 'j1', jobScheduleGroupId: 'run-1', setupSince: 1000, jobRunSetupTime: 0 };
    expect(jobOf(tile, started)).toMatchObject({ runId: 'run-1', setup: true, expectedSetupMs: 1_800_000 });
    expect(jobOf(tile, null)?.expectedSetupMs).toBe(0);
  });
  it('drops an ended run', () => {
    expect(jobOf({}, { ...run, enddate: 9 })).toBeNull();
  });
  // GET /api/dispatch/current pulled at runAt; the tile polled at tileAt (server times).
  it('takes the pulled run over a tile that names no run, unless the tile is two polls newer', () => {
    expect(jobOf({}, run, { runAt: 100, tileAt: 90 })).toMatchObject({ runId: 'run-1', stageId: 's2' });
    expect(jobOf({}, run, { runAt: 100, tileAt: 5_100 })).toMatchObject({ runId: 'run-1' });
    expect(jobOf({}, run, { runAt: 100, tileAt: 20_100 })).toBeNull();
  });
  it('believes a clearly newer tile that names another run (started elsewhere), an older one not', () => {
    const tile = { jobId: 'j2', jobScheduleGroupId: 'run-2' };
    expect(jobOf(tile, run, { runAt: 100, tileAt: 20_100 })?.runId).toBe('run-2');
    expect(jobOf(tile, run, { runAt: 100, tileAt: 50 })?.runId).toBe('run-1');
    expect(jobOf(tile, null, { runAt: 100, tileAt: 50 })).toBeNull();
  });
  it('reads the open operator run', () => {
    expect(operatorOf({ operatorId: 'o', operator: { name: 'Ana' }, startAt: 5, endAt: null })).toEqual({
      operatorId: 'o',
      name: 'Ana',
      startAt: 5,
    });
    expect(operatorOf({ operatorId: 'o', operator: { name: 'Ana' }, startAt: 5, endAt: 9 })).toBeNull();
  });
});

const d = (start: number, end: number | null, o: Partial<DowntimeEntry> = {}): DowntimeEntry => ({
  start,
  end,
  reason: null,
  color: null,
  message: null,
  planned: null,
  short: false,
  setup: false,
  annotationTypeId: null,
  ...o,
});

describe('Categorize Downtime list', () => {
  const now = 100_000;
  const entries = [
    d(0, 10_000), // previous shift
    d(60_000, 61_000, { short: true }),
    d(70_000, 80_000, { reason: 'Maintenance' }),
    d(85_000, 90_000, { setup: true, reason: 'Setup' }),
    d(95_000, null),
  ];
  const threshold = filterDurationOf(entries, null, now);

  it('infers the short threshold from the server when no company flag is known', () => {
    expect(threshold).toBe(1000);
    expect(filterDurationOf(entries, 120_000, now)).toBe(120_000);
  });

  it('splits by shift, newest first, without setup and short periods', () => {
    const s = downtimeSections(
      entries,
      now,
      { currentStart: 50_000, previousStart: -Infinity },
      DEFAULT_FILTERS,
      threshold,
    );
    expect(s.current.map((r) => r.entry.start)).toEqual([95_000, 70_000]);
    expect(s.previous.map((r) => r.entry.start)).toEqual([0]);
    expect(s.current.find((r) => r.entry.start === 70_000)?.selectable).toBe(false);
  });

  it.each([
    [{ onlyUncategorized: true }, [95_000, 0]],
    [{ showShort: true }, [95_000, 70_000, 60_000, 0]],
    [{ showShort: true, onlyLong: true }, [95_000, 70_000, 0]],
    [{ showCategorized: false }, [95_000, 0]],
  ])('filters %j', (f, starts) => {
    const s = downtimeSections(
      entries,
      now,
      { currentStart: 50_000, previousStart: -Infinity },
      { ...DEFAULT_FILTERS, ...f },
      threshold,
    );
    expect([...s.current, ...s.previous].map((r) => r.entry.start)).toEqual(starts);
  });

  it('lists under Previous Shift only periods of the previous shift, older ones not at all', () => {
    const s = downtimeSections(
      [d(0, 10_000), d(20_000, 30_000), d(60_000, 70_000)],
      now,
      { currentStart: 50_000, previousStart: 15_000 },
      DEFAULT_FILTERS,
      0,
    );
    expect(s.current.map((r) => r.entry.start)).toEqual([60_000]);
    expect(s.previous.map((r) => r.entry.start)).toEqual([20_000]);
  });

  it('puts every period in one section when no shift is known', () => {
    const s = downtimeSections(
      [d(0, 10_000), d(60_000, 70_000)],
      now,
      { currentStart: null, previousStart: -Infinity },
      DEFAULT_FILTERS,
      0,
    );
    expect(s).toEqual({ current: [expect.anything(), expect.anything()], previous: [] });
  });

  it('totals downtime without setup', () => {
    expect(totalDowntimeMs(entries, now)).toBe(10_000 + 1000 + 10_000 + 5000);
  });

  it('lists No data pieces but never selects them, nor under Only Uncategorized (decision 1060)', () => {
    const pieces = [
      d(60_000, 70_000),
      d(70_000, 80_000, { reason: 'No data', noData: true }),
      d(80_000, null),
    ];
    const rows = (f: Partial<typeof DEFAULT_FILTERS>) =>
      downtimeSections(
        pieces,
        now,
        { currentStart: null, previousStart: -Infinity },
        { ...DEFAULT_FILTERS, ...f },
        0,
      ).current.map((r) => [r.entry.start, r.selectable]);
    expect(rows({})).toEqual([
      [80_000, true],
      [70_000, false],
      [60_000, true],
    ]);
    expect(rows({ showCategorized: false })).toHaveLength(3);
    expect(rows({ onlyUncategorized: true })).toEqual([
      [80_000, true],
      [60_000, true],
    ]);
    expect(totalDowntimeMs(pieces, now)).toBe(40_000);
  });
});

describe('manual work centers (live-operations §2: Add Part by the multiplier, Add 1 Part, Undo)', () => {
  it.each([
    [[{ workcenterType: 'manual' }], 'manual'],
    [[{}, { workcenterType: 'manual' }], 'manual'],
    [[{ workcenterType: 'other' }, { workcenterType: 'manual' }], 'other'],
    [[null, undefined], 'machine'],
    [[{ workcenterType: 'bogus' }], 'machine'],
  ] as const)('%j → %s', (sources, expected) => {
    expect(workcenterTypeOf(...sources)).toBe(expected);
  });

  it.each([
    [{ multiplier: 3 }, null, null, 3],
    [{}, { partcount_multiplier: 2 }, { multiplier: 5 }, 2],
    [{}, null, { multiplier: 4 }, 4],
    [{}, null, { multiplier: 0 }, 1],
    [null, null, null, 1],
  ])('multiplier of tile %j, run %j, live %j → %i', (tile, run, live, expected) => {
    expect(multiplierOf(tile, run, live)).toBe(expected);
  });
});

describe('company flags (live-operations §3, GET /api/company/flags)', () => {
  const answer = {
    enable_setup_stages: true,
    hide_remove_rejected_parts_checkbox: true,
    areActivitiesEnabled: false,
    cycleinputoption: 'partsperhour',
    enable_tablet_machine_switching: false,
    downtime_list_filter_duration: 120_000,
    currentTimeContext: { offset_millis: 21_600_000 },
    product_tier: 'serviceProvider',
    operator_tracking: false,
    underlay_delay: 10_000,
    underlay_auto_expand: 60_000,
    long_downtime_threshold: 900_000,
  };
  it('reads every flag of the answer', () => {
    expect(companyFlagsOf(answer)).toEqual({
      loaded: true,
      enableSetupStages: true,
      hideRemoveRejectedPartsCheckbox: true,
      areActivitiesEnabled: false,
      cycleInputOption: 'partsperhour',
      enableTabletMachineSwitching: false,
      downtimeListFilterMs: 120_000,
      timeContextOffsetMs: 21_600_000,
      productTier: 'serviceProvider',
      operatorTracking: false,
      underlayDelayMs: 10_000,
      underlayAutoExpandMs: 60_000,
      longDowntimeMs: 900_000,
    });
  });
  it('has defaults only before the first load', () => {
    expect(companyFlagsOf(undefined)).toMatchObject({
      loaded: false,
      enableSetupStages: null,
      hideRemoveRejectedPartsCheckbox: false,
      cycleInputOption: 'timepercycle',
      enableTabletMachineSwitching: null,
      downtimeListFilterMs: null,
      timeContextOffsetMs: 0,
      productTier: null,
      operatorTracking: true,
      underlayDelayMs: 30_000,
      underlayAutoExpandMs: 300_000,
      longDowntimeMs: null,
    });
  });
  it.each([
    [['FullProduct'], null, true],
    [['FullProduct'], 'full', true],
    [['FullProduct'], 'serviceProvider', false],
    [[], 'full', false],
  ] as const)('FullProduct with permissions %j and tier %s → %s', (permissions, productTier, expected) => {
    expect(hasFullProduct({ permissions: [...permissions] }, { productTier })).toBe(expected);
  });
  it.each([
    [{ tablet: false, switcher: true, bound: false }, false, true],
    [{ tablet: false, switcher: false, bound: false }, true, false],
    [{ tablet: true, switcher: true, bound: false }, true, true],
    [{ tablet: true, switcher: true, bound: false }, false, false],
    [{ tablet: true, switcher: true, bound: true }, true, false],
    [{ tablet: true, switcher: true, bound: true }, false, false],
    [{ tablet: true, switcher: true, bound: true }, null, false],
    [{ tablet: true, switcher: true, bound: false }, null, true],
  ] as const)(
    'machine switcher in %j with enable_tablet_machine_switching %s → %s',
    (mode, flag, expected) => {
      expect(switcherAllowed(mode, { enableTabletMachineSwitching: flag })).toBe(expected);
    },
  );
});
