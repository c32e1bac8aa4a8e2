import { describe, expect, it } from 'vitest';
import { epochMs } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import type { DowntimeRow, OperationAnswer, Reason } from './model';
import {
  annotationBody,
  averageCycleMs,
  buildLanes,
  canSplit,
  draftProblems,
  gridRows,
  loadsSubprograms,
  partCycles,
  partMarks,
  periodLinks,
  readStandardTimeline,
  readTimelineRange,
  standardLanes,
  stateKind,
  standardTimelineAround,
  timelineAround,
  writeStandardTimeline,
} from './model';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const CLOCK: CompanyClock = { timezone: 'UTC' };
const NOW = Date.UTC(2026, 5, 10, 12);

const row = (over: Partial<DowntimeRow> = {}): DowntimeRow => ({
  start: NOW - HOUR,
  end: NOW - 30 * MIN,
  duration: 30 * MIN,
  isEndSet: false,
  reason: null,
  color: null,
  message: null,
  planned: null,
  setup: false,
  noData: false,
  annotationType: null,
  annotation: null,
  ...over,
});
const REASONS: Reason[] = [
  { id: 'r1', name: 'Tool change', color: '#123456', plannedBehavior: 'unplanned', hidden: false },
  { id: 'r2', name: 'Meeting', color: '#654321', plannedBehavior: 'operator', hidden: false },
];

describe('readTimelineRange (reports-admin §5: at most 7 days)', () => {
  const q = (s: string) => new URLSearchParams(s);
  it('reads start, end and interval', () => {
    expect(readTimelineRange(q(`start=${NOW - HOUR}&end=${NOW}&interval=day`), CLOCK, epochMs(NOW))).toEqual({
      start: NOW - HOUR,
      end: NOW,
      interval: 'day',
    });
  });
  it('falls back to today on the company clock', () => {
    const today = Date.UTC(2026, 5, 10);
    expect(readTimelineRange(q(''), CLOCK, epochMs(NOW))).toEqual({
      start: today,
      end: today + DAY,
      interval: 'hour',
    });
    expect(readTimelineRange(q(`start=${NOW}&end=${NOW - 1}`), CLOCK, epochMs(NOW)).start).toBe(today);
  });
  it('cuts a range over 7 days to 7 days', () => {
    const r = readTimelineRange(q(`start=${NOW - 30 * DAY}&end=${NOW}`), CLOCK, epochMs(NOW));
    expect(r.end - r.start).toBe(7 * DAY);
  });
});

describe('readStandardTimeline (reports-admin §2 standard timeline; decision 0811)', () => {
  const read = (s: string) => readStandardTimeline(new URLSearchParams(s), CLOCK, epochMs(NOW));
  const ev = `startTime=${NOW - 2 * HOUR}&endTime=${NOW - HOUR}`;
  it.each([
    ['', ['downtime', 'parts', 'production']],
    ['include=Downtime-Operational', ['downtime']],
    ['include=Parts-Operational', ['parts']],
    ['include=Production-Operational', ['production']],
    ['include=Production-Operational&include=Downtime-Operational', ['downtime', 'production']],
    ['include=Parts-Operational|Downtime-Operational', ['downtime', 'parts']],
    ['include=Parts-Operational,Production-Operational', ['parts', 'production']],
    ['include=downtime', ['downtime', 'parts', 'production']],
    ['include=Nope&include=Parts-Operational', ['parts']],
  ])('include from %j → %j', (query, lanes) => {
    expect(read(query).include).toEqual(lanes);
  });
  it('reads the event and the window as given', () => {
    expect(read(`start=${NOW - DAY}&end=${NOW}&${ev}`)).toEqual({
      range: { start: NOW - DAY, end: NOW },
      cut: false,
      event: { start: NOW - 2 * HOUR, end: NOW - HOUR },
      include: ['downtime', 'parts', 'production'],
    });
  });
  it('opens around the event without a window, and today without either', () => {
    expect(read(ev).range).toEqual({ start: NOW - 3 * HOUR, end: NOW });
    expect(read(`start=${NOW}&end=${NOW - HOUR}&${ev}`).range).toEqual({ start: NOW - 3 * HOUR, end: NOW });
    const today = Date.UTC(2026, 5, 10);
    expect(read('')).toMatchObject({ range: { start: today, end: today + DAY }, event: null });
  });
  it('takes an event without a valid end as still going on', () => {
    expect(read(`startTime=${NOW - HOUR}`).event).toEqual({ start: NOW - HOUR, end: NOW });
    expect(read(`startTime=${NOW - HOUR}&endTime=${NOW - 2 * HOUR}`).event).toEqual({
      start: NOW - HOUR,
      end: NOW,
    });
    expect(read(`startTime=x&endTime=${NOW}`).event).toBeNull();
  });
  it('clears an event past a year and cuts a window over 7 days (reports-admin §5)', () => {
    expect(read(`startTime=${NOW - 400 * DAY}&endTime=${NOW - 399 * DAY}`).event).toBeNull();
    const long = read(`start=${NOW - 30 * DAY}&end=${NOW}&${ev}`);
    expect([long.range.end - long.range.start, long.cut]).toEqual([7 * DAY, true]);
  });
  it('writes a query it reads back', () => {
    const t = {
      range: { start: epochMs(NOW - DAY), end: epochMs(NOW) },
      cut: false,
      event: { start: NOW - 2 * HOUR, end: NOW - HOUR },
      include: ['downtime', 'production'] as const,
    };
    const q = writeStandardTimeline(t);
    expect(q.getAll('include')).toEqual(['Downtime-Operational', 'Production-Operational']);
    expect(readStandardTimeline(q, CLOCK, epochMs(NOW))).toEqual(t);
    expect(writeStandardTimeline({ ...t, event: null, include: undefined }).toString()).toBe(
      `start=${NOW - DAY}&end=${NOW}`,
    );
  });
  it('keeps the state lane and the included ones', () => {
    const lane = (id: string) => ({ id, label: id, items: [], maxEnd: new Float64Array() });
    const all = ['states', 'downtime', 'jobs', 'parts', 'programs', 'subprograms', 'faults'].map(lane);
    expect(standardLanes(all, ['downtime', 'parts', 'production']).map((l) => l.id)).toEqual([
      'states',
      'downtime',
      'jobs',
      'parts',
    ]);
    expect(standardLanes(all, ['production']).map((l) => l.id)).toEqual(['states', 'jobs']);
  });
});

describe('periodLinks (reports-admin §5)', () => {
  const r = { start: epochMs(NOW - DAY), end: epochMs(NOW - HOUR), interval: 'hour' as const };
  it('moves by the range length', () => {
    const l = periodLinks(r, NOW);
    expect(l.previous).toEqual({ ...r, start: NOW - 2 * DAY + HOUR, end: NOW - DAY });
    expect(l.next).toEqual({ ...r, start: NOW - HOUR, end: NOW + DAY - 2 * HOUR });
    expect(l.nextDisabled).toBe(false);
  });
  it('disables next when the range ends in the future', () => {
    expect(periodLinks({ ...r, end: epochMs(NOW + 1) }, NOW).nextDisabled).toBe(true);
  });
  it('hides previous past one year', () => {
    const old = { ...r, start: epochMs(NOW - 365 * DAY + HOUR), end: epochMs(NOW - 364 * DAY) };
    expect(periodLinks(old, NOW).previous).toBeNull();
  });
  it('opens the timeline around an event, not past a year', () => {
    expect(timelineAround({ start: NOW - 2 * HOUR, end: NOW - HOUR }, NOW)).toEqual({
      start: NOW - 3 * HOUR,
      end: NOW,
    });
    expect(timelineAround({ start: NOW - 400 * DAY, end: null }, NOW)).toBeNull();
  });
  it("opens a downtime row's standard timeline around the stop with the stop marked (reports-admin §2)", () => {
    const href = standardTimelineAround('m 1', { start: NOW - 2 * HOUR, end: NOW - HOUR }, NOW)!;
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/app/machines/m%201/standard-timeline');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      start: String(NOW - 3 * HOUR),
      end: String(NOW),
      startTime: String(NOW - 2 * HOUR),
      endTime: String(NOW - HOUR),
    });
    expect(standardTimelineAround('m', { start: NOW - 400 * DAY, end: null }, NOW)).toBeNull();
  });
});

describe('parts (reports-admin §9)', () => {
  const parts: OperationAnswer['parts'] = [
    { start: 10 * MIN, duration: MIN, parts: 1, expectedCycleTime: MIN, setup: false },
    { start: 12 * MIN, duration: 2 * MIN, parts: 1, expectedCycleTime: MIN, setup: false },
    { start: 13 * MIN, duration: 50_000, parts: 1, expectedCycleTime: MIN, setup: false },
    { start: 15 * MIN, duration: undefined, parts: 1, expectedCycleTime: MIN, setup: false },
  ];
  it('marks slow (over 20 % above expected) and fast (under expected) cycles', () => {
    expect(partCycles(parts).map((c) => [c.start, c.end, c.slow, c.fast])).toEqual([
      [9 * MIN, 10 * MIN, false, false],
      [10 * MIN, 12 * MIN, true, false],
      [13 * MIN - 50_000, 13 * MIN, false, true],
      // Without a duration: the time since the previous part.
      [13 * MIN, 15 * MIN, true, false],
    ]);
    expect(averageCycleMs(partCycles(parts))).toBe((MIN + 2 * MIN + 50_000 + 2 * MIN) / 4);
  });
  it.each([
    [75 * MIN, MIN, true, { showSlow: true, showFast: false }],
    [10 * MIN, MIN, true, { showSlow: true, showFast: true }],
    [76 * MIN, MIN, true, { showSlow: false, showFast: false }],
    [10 * MIN, MIN, false, { showSlow: false, showFast: false }],
    [10 * MIN, 0, true, { showSlow: false, showFast: false }],
  ])('window %d, average %d, FullProduct %s → %j', (w, avg, full, expected) => {
    expect(partMarks(w, avg, full)).toEqual(expected);
  });
  it('loads sub-programs for windows of at most 2 hours', () => {
    expect(loadsSubprograms({ start: 0, end: 2 * HOUR })).toBe(true);
    expect(loadsSubprograms({ start: 0, end: 2 * HOUR + 1 })).toBe(false);
  });
});

describe('lanes', () => {
  it.each([
    ['ACTIVE', 'active'],
    ['INACTIVE', 'inactive'],
    ['SETUP', 'setup'],
    ['FAULT', 'unavailable'],
    ['UNAVAILABLE', 'unavailable'],
  ])('state %s is drawn as %s', (value, kind) => {
    expect(stateKind(value)).toBe(kind);
  });

  const laneInput = {
    operation: {
      range: { start: 0, end: HOUR },
      cycleEvents: [{ value: 'ACTIVE', start: 0, end: null }],
      programs: [{ name: 'O1000', start: 0, end: 10 * MIN }],
      parts: [],
      runs: [{ jobId: 'j', jobName: 'Bracket', start: 0, end: null, jsgId: 'r' }],
      activities: [
        {
          activityRef: 'a1',
          activityTypeName: 'Fixture',
          jobName: 'Bracket',
          activityMode: 'setup',
          startAt: 0,
          endAt: 5 * MIN,
        },
        {
          activityRef: 'a2',
          activityTypeName: 'Production',
          jobName: 'Bracket',
          activityMode: 'production',
          startAt: 5 * MIN,
          endAt: null,
        },
      ],
      faults: [],
      hasSubprogram: true,
      recomputing: [],
      monitoredFrom: 0,
      noData: [],
    },
    downtime: [row({ start: 10 * MIN, end: 20 * MIN })],
    subprograms: null,
    now: 30 * MIN,
    colors: {
      active: 'green',
      inactive: 'grey',
      setup: 'blue',
      unavailable: 'light',
      uncategorized: 'red',
      fault: 'purple',
      part: 'part',
      chart: ['c1', 'c2'],
    },
  };

  it('shows labor activities instead of runs when the company has activities enabled (reports-admin §6)', () => {
    const jobs = buildLanes({ ...laneInput, activities: true })[2]!;
    expect(jobs.label).toBe('Activities');
    expect(jobs.items).toEqual([
      expect.objectContaining({ start: 0, end: 5 * MIN, color: 'blue', label: 'Fixture: Bracket' }),
      expect.objectContaining({ start: 5 * MIN, end: 30 * MIN, label: 'Production: Bracket' }),
    ]);
  });

  it('builds the seven lanes, open items lasting until now', () => {
    const lanes = buildLanes(laneInput);
    expect(lanes.map((l) => l.id)).toEqual([
      'states',
      'downtime',
      'jobs',
      'parts',
      'programs',
      'subprograms',
      'faults',
    ]);
    expect(lanes[0]!.items).toEqual([{ start: 0, end: 30 * MIN, color: 'green' }]);
    expect(lanes[1]!.items[0]).toMatchObject({ color: 'red', label: 'Uncategorized' });
    expect(lanes[1]!.clickable).toBe(true);
    expect(lanes[2]!.items[0]).toMatchObject({ end: 30 * MIN, label: 'Bracket' });
    expect(lanes[5]!.note).toBe('Zoom in to 2 hours or less to see sub-programs');
  });

  it('draws No data apart from Uncategorized in the downtime lane (METRICS.md §1, decision 1012)', () => {
    const lanes = buildLanes({
      ...laneInput,
      operation: { ...laneInput.operation, noData: [{ start: 12 * MIN, end: 15 * MIN }] },
    });
    expect(lanes[1]!.items.map((i) => [i.start / MIN, i.end / MIN, i.label, i.color])).toEqual([
      [10, 12, 'Uncategorized', 'red'],
      [12, 15, 'No data', 'light'],
      [15, 20, 'Uncategorized', 'red'],
    ]);
  });

  it("draws the list's own No data pieces once (decision 1060)", () => {
    const lanes = buildLanes({
      ...laneInput,
      operation: { ...laneInput.operation, noData: [{ start: 12 * MIN, end: 15 * MIN }] },
      downtime: [
        row({ start: 10 * MIN, end: 12 * MIN }),
        row({ start: 12 * MIN, end: 15 * MIN, reason: 'No data', noData: true }),
        row({ start: 15 * MIN, end: 20 * MIN }),
      ],
    });
    expect(lanes[1]!.items.map((i) => [i.start / MIN, i.end / MIN, i.label])).toEqual([
      [10, 12, 'Uncategorized'],
      [12, 15, 'No data'],
      [15, 20, 'Uncategorized'],
    ]);
    const rows = gridRows([row({ reason: 'No data', noData: true })], NOW);
    expect(rows.map((r) => [r.reason, r.uncategorized])).toEqual([['No data', false]]);
  });
});

describe('the annotation grid', () => {
  it('shows minutes with 2 decimals, the reason or Uncategorized, and the planned value', () => {
    const rows = gridRows(
      [
        row({ duration: 90_500 }),
        row({
          reason: 'Tool change',
          planned: false,
          annotationType: { id: 'r1', name: 'Tool change', color: '#123456', plannedBehavior: 'unplanned' },
        }),
        row({ start: NOW - 400 * DAY }),
      ],
      NOW,
    );
    expect(rows.map((r) => [r.minutes, r.reason, r.planned, r.linkable])).toEqual([
      ['1.51', 'Uncategorized', '', true],
      ['30.00', 'Tool change', 'Unplanned', true],
      ['30.00', 'Uncategorized', '', false],
    ]);
  });
});

describe('the categorize form (reports-admin §4, §5)', () => {
  const draft = { reasonId: 'r1', message: ' Insert worn ', planned: false };
  it('saves a new annotation with its category and end null', () => {
    expect(annotationBody('m1', row(), draft, REASONS)).toEqual({
      machineId: 'm1',
      start: NOW - HOUR,
      end: null,
      category_id: 'r1',
      message: 'Insert worn',
      setup: false,
    });
  });
  it('is not saved without a category (unless setup) and never as active setup', () => {
    expect(annotationBody('m1', row(), { ...draft, reasonId: '' }, REASONS)).toBeNull();
    expect(draftProblems(row(), { ...draft, reasonId: '' })).toEqual({ reason: 'Select a downtime reason.' });
    const active = row({
      annotation: {
        id: 'a',
        start: NOW - HOUR,
        end: null,
        category_id: 'r1',
        message: null,
        planned: null,
        setup: true,
        activesetup: true,
      },
    });
    expect(annotationBody('m1', active, draft, REASONS)).toBeNull();
  });
  it('drops the category of a setup annotation and keeps an explicit end', () => {
    const setup = row({
      setup: true,
      annotation: {
        id: 'a',
        start: NOW - HOUR,
        end: NOW - 50 * MIN,
        category_id: null,
        message: null,
        planned: null,
        setup: true,
        activesetup: false,
      },
    });
    expect(annotationBody('m1', setup, draft, REASONS)).toMatchObject({
      id: 'a',
      category_id: null,
      setup: true,
      end: NOW - 50 * MIN,
    });
  });
  it("sends the operator's planned choice only for reasons that ask for it", () => {
    expect(annotationBody('m1', row(), { ...draft, reasonId: 'r2', planned: true }, REASONS)).toMatchObject({
      planned: true,
    });
    expect(annotationBody('m1', row(), draft, REASONS)).not.toHaveProperty('planned');
  });
  it('says when the message is too long', () => {
    expect(draftProblems(row(), { ...draft, message: 'x'.repeat(251) })).toEqual({
      message: 'At most 250 characters',
    });
  });
  it('splits only annotated periods whose half exceeds 10 s', () => {
    const annotation = {
      id: 'a',
      start: 0,
      end: null,
      category_id: 'r1',
      message: null,
      planned: null,
      setup: false,
      activesetup: false,
    };
    expect(canSplit(row({ start: 0, end: 21_000, annotation }), NOW)).toBe(true);
    expect(canSplit(row({ start: 0, end: 20_000, annotation }), NOW)).toBe(false);
    expect(canSplit(row({ start: 0, end: 60_000 }), NOW)).toBe(false);
  });
});
