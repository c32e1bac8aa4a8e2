import { describe, expect, it } from 'vitest';
import type { DowntimeEntry } from '../offline/optimistic';
import { DEFAULT_FILTERS, downtimeSections, filterDurationOf, totalDowntimeMs } from './downtimeList';
import { jobOf, multiplierOf, operatorOf, workcenterTypeOf } from './view';

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
  it('drops an ended run', () => {
    expect(jobOf({}, { ...run, enddate: 9 })).toBeNull();
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
    const s = downtimeSections(entries, now, 50_000, DEFAULT_FILTERS, threshold);
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
    const s = downtimeSections(entries, now, 50_000, { ...DEFAULT_FILTERS, ...f }, threshold);
    expect([...s.current, ...s.previous].map((r) => r.entry.start)).toEqual(starts);
  });

  it('totals downtime without setup', () => {
    expect(totalDowntimeMs(entries, now)).toBe(10_000 + 1000 + 10_000 + 5000);
  });
});

describe('manual work centers (live-operations §2: Add Part by the multiplier, Add 1 Part, Undo)', () => {
  it.each([
    [[{ workcenterType: 'manual' }], 'manual'],
    [[{}, { workcenterType: 'manual' }], 'manual'],
    [[{ workcenter_type: 'other' }, { workcenterType: 'manual' }], 'other'],
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
