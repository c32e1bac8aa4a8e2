import { describe, expect, it } from 'vitest';
import { cardView, goalTone, partTimeText, percentText } from './cardView';
import type { CardLive } from './liveData';
import { parseCardLive, storedCardLive } from './liveData';

const base: CardLive = {
  machineId: 'm1',
  jobRunId: 'r1',
  inSetup: false,
  actualParts: 12,
  scrapParts: 1,
  quantity: 100,
  jobGoodParts: 11,
  expectedPartsNow: 14,
  partPercent: 78.571,
  utilization: 62.46,
  utilizationBar: 62.46,
  partsBar: 78.571,
  cycletime: 60_000 as CardLive['cycletime'],
  currentCycle: 12_500 as CardLive['currentCycle'],
  lastCycle: 61_000 as CardLive['lastCycle'],
  lastFew: [59_000, 61_000] as CardLive['lastFew'],
  averageCycle: 60_400 as CardLive['averageCycle'],
  oee: 45.06,
  availability: 70,
  performance: 90.12,
  quality: null,
  totalDowntime: 600_000 as CardLive['totalDowntime'],
  scheduled: true,
  jobName: 'Bracket A',
  program: 'O1000',
  subprogram: null,
  setupSince: null,
  currentLaborActivitySet: { expectedSetupDuration: 900_000 as CardLive['cycletime'] },
  operatorRun: null,
  multiplier: 1,
  cardStatus: 'warning',
  stale: false,
  state: 'ACTIVE',
};

describe('formatting (live-operations §9)', () => {
  it('percent one decimal, dash when null', () => {
    expect(percentText(78.571)).toBe('78.6%');
    expect(percentText(null)).toBe('-');
    expect(percentText(100)).toBe('100.0%');
  });
  it('part time m:ss under an hour, h:mm:ss under a day', () => {
    expect(partTimeText(61_000)).toBe('1:01');
    expect(partTimeText(3_723_000)).toBe('1:02:03');
    expect(partTimeText(null)).toBe('-');
  });
});

describe('cardView', () => {
  it('shows the performance ring with parts behind when a job runs', () => {
    const v = cardView(base, { full: true });
    expect(v.ring.kind).toBe('performance');
    expect(v.ring.main).toBe('3 Parts Behind');
    expect(v.ring.sub).toBe('of 14 expected');
    expect(v.ring.status).toBe('warning');
    expect(v.ring.statusText).toBe('Behind pace');
    expect(v.ring.label).toBe('Parts Goal 78.6%');
    expect(v.parts?.text).toBe('78.6%');
    expect(v.parts?.partsText).toBe('11 / 14');
    expect(v.utilization.text).toBe('62.5%');
    expect(v.jobName).toBe('Bracket A');
  });

  it('says At Goal and 1 Part Ahead', () => {
    expect(cardView({ ...base, jobGoodParts: 14 }, { full: true }).ring.main).toBe('At Goal');
    expect(cardView({ ...base, jobGoodParts: 15 }, { full: true }).ring.main).toBe('1 Part Ahead');
  });

  it('caps the ring at 405 degrees', () => {
    const v = cardView({ ...base, partPercent: 250, partsBar: 100, cardStatus: 'success' }, { full: true });
    expect(v.ring.degrees).toBe(405);
    expect(v.ring.percent).toBeCloseTo(112.5);
    expect(v.parts?.fill).toBe(100);
    expect(v.parts?.value).toBe(250);
    expect(v.parts?.max).toBe(250);
  });

  it('in setup: In Setup, no expected line, expected setup duration shown', () => {
    const v = cardView({ ...base, inSetup: true, setupSince: 1 as CardLive['setupSince'] }, { full: true });
    expect(v.ring.main).toBe('In Setup');
    expect(v.ring.sub).toBeNull();
    expect(v.ring.status).toBe('setup');
    expect(v.expectedSetup).toBe('15:00');
    expect(cardView(base, { full: true }).expectedSetup).toBeNull();
  });

  it('shows a utilization pie when no job runs', () => {
    const v = cardView(
      { ...base, scheduled: false, jobRunId: null, cardStatus: 'unavailable', expectedPartsNow: null },
      { full: true },
    );
    expect(v.ring.kind).toBe('utilization');
    expect(v.ring.main).toBe('62.5%');
    expect(v.ring.label).toBe('Utilization 62.5%');
  });

  it('lists cycle times and OEE in order, dash for null', () => {
    const v = cardView(base, { full: true });
    expect(v.cycles).toEqual([
      { label: 'Current', text: '0:12' },
      { label: 'Expected', text: '1:00' },
      { label: 'Last', text: '1:01' },
      { label: 'Average', text: '1:00' },
      { label: 'Last few', text: '0:59 · 1:01' },
    ]);
    expect(v.oee).toEqual([
      { label: 'OEE', text: '45.1%' },
      { label: 'Availability', text: '70.0%' },
      { label: 'Performance', text: '90.1%' },
      { label: 'Quality', text: '-' },
    ]);
  });

  it('shows "-" for a null P and OEE with the spec’s warning when run time lacks a standard', () => {
    expect(cardView(base, { full: true }).oeeWarning).toBeNull();
    const v = cardView({ ...base, oee: null, performance: null, missingStandards: true }, { full: true });
    expect(v.oee?.map((x) => x.text)).toEqual(['-', '70.0%', '-', '-']);
    expect(v.oeeWarning).toBe(
      'One or more operations associated with this metric do not have operation standards applied. This metric may not be accurate.',
    );
    expect(cardView({ ...base, missingStandards: true }, { full: false }).oeeWarning).toBeNull();
  });

  it('gates parts goal, cycles, OEE and job name on FullProduct', () => {
    const v = cardView(base, { full: false });
    expect(v.parts).toBeNull();
    expect(v.cycles).toBeNull();
    expect(v.oee).toBeNull();
    expect(v.jobName).toBeNull();
    expect(v.ring.kind).toBe('utilization');
  });

  it('maps card statuses to status tokens', () => {
    expect(goalTone({ cardStatus: 'noJobStandards', inSetup: false })).toEqual({
      status: 'unavailable',
      key: 'noJobStandards',
    });
    expect(goalTone({ cardStatus: 'danger', inSetup: true }).status).toBe('setup');
    expect(goalTone({ cardStatus: null, inSetup: false }).status).toBe('unavailable');
  });
});

describe('live data parsing', () => {
  it('keeps machineId, jobRunId and inSetup', () => {
    const parsed = parseCardLive({ ...base, inSetup: true }, 'x');
    expect(parsed.machineId).toBe('m1');
    expect(parsed.jobRunId).toBe('r1');
    expect(parsed.inSetup).toBe(true);
    expect(parsed.workcenterType).toBeNull();
    expect(parseCardLive({ ...base, workcenterType: 'manual' }, 'x').workcenterType).toBe('manual');
  });
  it('rejects a malformed answer', () => {
    expect(() => parseCardLive({ actualParts: 'a' }, 'm1')).toThrow();
  });
  it('reads a stored row back', () => {
    expect(storedCardLive({ live: base, at: 5 })?.at).toBe(5);
    expect(storedCardLive({ at: 5 })).toBeNull();
    expect(storedCardLive(undefined)).toBeNull();
  });
});
