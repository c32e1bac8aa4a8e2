import { describe, expect, it } from 'vitest';
import type { PartsEntry, UtilizationEntry } from '@takt/domain';
import { tileActions } from './JobActions';
import { boardStandardsWarning, sameTile, tileModel, tilePercent } from './tileModel';
import type { TileMachine } from './tileModel';

const NOW = 1_763_800_000_000;

// Builders with defaults (STYLE.md): a connected, active, unscheduled machine.
const aMachine = (over: Partial<TileMachine> = {}): TileMachine => ({
  id: 'm1',
  name: 'Lathe',
  status: 'ACTIVE',
  statusSince: NOW - 60_000,
  scheduled: false,
  stale: false,
  faultSince: null,
  faultMessage: null,
  lastHeartbeat: NOW - 1000,
  downtimefailuredelay: 5,
  downtime_reason: null,
  progress: null,
  expectedParts: null,
  actualParts: null,
  setupSince: null,
  jobId: null,
  jobScheduleGroupId: null,
  ...over,
});
const scheduled = (over: Partial<TileMachine> = {}) =>
  aMachine({ scheduled: true, jobId: 'j1', jobScheduleGroupId: 'r1', ...over });
const someParts = (over: Partial<PartsEntry> = {}): PartsEntry => ({
  machineId: 'm1',
  scheduled: true,
  jobId: 'j1',
  jobScheduleGroupId: 'r1',
  inSetup: false,
  setupSince: null,
  expectedParts: 60,
  actualParts: 48,
  percent: 80,
  aheadBehind: -12,
  productionRuntimeMs: 3_600_000,
  status: 'warning',
  ...over,
});
const someUtil = (over: Partial<UtilizationEntry> = {}): UtilizationEntry => ({
  machineId: 'm1',
  start: NOW - 3_600_000,
  end: NOW,
  utilization: 72.25,
  status: 'success',
  oee: 55.5,
  oeeStatus: 'warning',
  availability: 80,
  performance: 75,
  quality: 92.5,
  noDataMs: 0,
  ...over,
});

describe('tileModel', () => {
  it('keeps the tile class from the machine and colours the ring by the figure status', () => {
    const m = tileModel({
      machine: aMachine({ status: 'INACTIVE' }),
      type: 'utilization',
      now: NOW,
      utilization: someUtil({ utilization: 35, status: 'danger' }),
      fullProduct: true,
    });
    expect(m).toMatchObject({ status: 'inactive', description: 'Idle', figureStatus: 'danger' });
    expect(m.ring).toMatchObject({ percent: 35, main: '35.0%', sub: null, status: 'danger' });
    expect(m.ring!.degrees).toBeCloseTo(126, 9);
  });

  it.each([
    ['behind', someParts(), '12 Parts Behind', 'of 60 expected', 'warning'],
    [
      'ahead by one',
      someParts({ actualParts: 61, aheadBehind: 1, percent: 101.7, status: 'success' }),
      '1 Part Ahead',
      'of 60 expected',
      'success',
    ],
    [
      'at goal',
      someParts({ actualParts: 60, aheadBehind: 0, percent: 100, status: 'success' }),
      'At Goal',
      'of 60 expected',
      'success',
    ],
  ])('parts goal ring: %s', (_name, parts, main, sub, status) => {
    const m = tileModel({ machine: scheduled(), type: 'partsgoal', now: NOW, parts, fullProduct: true });
    expect(m.ring).toMatchObject({ main, sub, status });
    expect(m.aheadBehindText).toBe(main);
    expect(m.progress).toBe(parts.percent);
  });

  it('caps the ring at 405 degrees far ahead of goal', () => {
    const parts = someParts({ actualParts: 600, aheadBehind: 540, percent: 1000, status: 'success' });
    const m = tileModel({ machine: scheduled(), type: 'partsgoal', now: NOW, parts, fullProduct: true });
    expect(m.ring!.degrees).toBe(405);
  });

  it('shows "In Setup" with no goal while the job is in setup', () => {
    const m = tileModel({
      machine: scheduled({ status: 'SETUP', setupSince: NOW - 1000 }),
      type: 'partsgoal',
      now: NOW,
      parts: someParts({
        inSetup: true,
        expectedParts: null,
        percent: null,
        aheadBehind: null,
        status: 'success',
      }),
      fullProduct: true,
    });
    expect(m).toMatchObject({ status: 'setup', inSetup: true, progress: null, aheadBehind: null });
    expect(m.ring).toMatchObject({ main: 'In Setup', sub: null, status: 'setup', degrees: 0 });
  });

  it('uses the machine feed when the parts feed still describes an earlier job run', () => {
    const m = tileModel({
      machine: scheduled({ jobScheduleGroupId: 'r2', progress: 50, expectedParts: 10, actualParts: 5 }),
      type: 'oee',
      now: NOW,
      utilization: someUtil(),
      parts: someParts(),
      fullProduct: true,
    });
    expect(m).toMatchObject({
      progress: 50,
      aheadBehind: -5,
      aheadBehindText: '5 Parts Behind',
      figureStatus: 'success',
    });
    expect(m.ring).toMatchObject({ main: '55.5%' });
  });

  it('hides goal figures without FullProduct and has no ring on Downtime', () => {
    const m = tileModel({
      machine: scheduled({ progress: 50, expectedParts: 10, actualParts: 5 }),
      type: 'downtime',
      now: NOW,
      fullProduct: false,
    });
    expect(m).toMatchObject({
      ring: null,
      figureStatus: null,
      progress: null,
      aheadBehind: null,
      aheadBehindText: null,
    });
  });

  it('an OEE tile of a job without an ideal cycle time reads noJobStandards and "-", never 0.0 % (decision 1003)', () => {
    const m = tileModel({
      machine: scheduled(),
      type: 'oee',
      now: NOW,
      utilization: someUtil({ oee: 0, performance: 0, oeeStatus: 'noJobStandards' }),
      parts: someParts(),
      fullProduct: true,
    });
    expect(m.figureStatus).toBe('noJobStandards');
    expect(m.ring).toMatchObject({ main: '-', percent: 0, status: 'inactive' });
  });

  it('warns on the OEE board when a machine on it has run time without a standard (decision 1031)', () => {
    const util = new Map([
      ['m1', { missingStandards: false }],
      ['m2', { missingStandards: true }],
    ]);
    expect(boardStandardsWarning('oee', ['m1', 'm2'], util)).toBe(
      'One or more operations associated with this metric do not have operation standards applied. This metric may not be accurate.',
    );
    // Not for the machines it does not show, nor on the other boards, nor from an older server.
    expect(boardStandardsWarning('oee', ['m1'], util)).toBeNull();
    expect(boardStandardsWarning('utilization', ['m2'], util)).toBeNull();
    expect(boardStandardsWarning('oee', ['m3'], new Map([['m3', {}]]))).toBeNull();
  });

  it('keeps a ring box with "-" when a figure is missing, so nothing moves when it arrives', () => {
    const m = tileModel({ machine: aMachine(), type: 'oee', now: NOW, fullProduct: true });
    expect(m.ring).toMatchObject({ main: '-', percent: 0, status: 'unavailable' });
  });

  it('compares tiles by what they show', () => {
    const a = tileModel({
      machine: aMachine(),
      type: 'utilization',
      now: NOW,
      utilization: someUtil(),
      fullProduct: true,
    });
    const b = tileModel({
      machine: aMachine(),
      type: 'utilization',
      now: NOW,
      utilization: someUtil(),
      fullProduct: true,
    });
    const c = tileModel({
      machine: aMachine(),
      type: 'utilization',
      now: NOW,
      utilization: someUtil({ utilization: 10 }),
      fullProduct: true,
    });
    expect(sameTile(a, b)).toBe(true);
    expect(sameTile(a, c)).toBe(false);
  });
});

describe('No data on the tiles (METRICS.md §1, decision 1061)', () => {
  const model = (type: 'downtime' | 'utilization' | 'oee', utilization?: UtilizationEntry) =>
    tileModel({
      machine: aMachine({ status: 'UNAVAILABLE' }),
      type,
      now: NOW,
      utilization,
      fullProduct: true,
    });

  it("shows the window's No data on the Downtime board, as a duration", () => {
    expect(model('downtime', someUtil({ noDataMs: 150 * 60_000 })).noData).toBe('2:30:00');
    expect(model('downtime', someUtil({ noDataMs: 90_500 })).noData).toBe('1:30');
    expect(model('downtime', someUtil()).noData).toBe('0:00');
    // Until the feed answers: '-', so the fact's box is there from the first render.
    expect(model('downtime').noData).toBe('-');
    // The other boards' tiles are full (decision 1042): not there.
    expect(model('utilization', someUtil({ noDataMs: 60_000 })).noData).toBeNull();
    expect(model('oee', someUtil({ noDataMs: 60_000 })).noData).toBeNull();
  });

  it('re-renders a tile when its No data changes', () => {
    const a = model('downtime', someUtil({ noDataMs: 60_000 }));
    expect(sameTile(a, model('downtime', someUtil({ noDataMs: 60_000 })))).toBe(true);
    expect(sameTile(a, model('downtime', someUtil({ noDataMs: 61_000 })))).toBe(false);
  });
});

describe('tile actions and figures', () => {
  it.each([
    [{ scheduled: false, status: 'ACTIVE', setupSince: null }, ['pick']],
    [{ scheduled: true, status: 'ACTIVE', setupSince: null }, ['cancel']],
    [{ scheduled: true, status: 'SETUP', setupSince: NOW }, ['setup', 'cancel']],
  ] as const)('%j offers %j', (m, kinds) => {
    expect(tileActions(m)).toEqual(kinds);
  });

  it.each([
    [null, '-'],
    [Number.NaN, '-'],
    [0, '0.0%'],
    [87.46, '87.5%'],
  ])('tilePercent(%s) = %s', (p, text) => {
    expect(tilePercent(p)).toBe(text);
  });
});
