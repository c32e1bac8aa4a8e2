import { describe, expect, it } from 'vitest';
import {
  barOf,
  checkScheduleDraft,
  DEFAULT_ZOOM_DAYS,
  duplicateDraft,
  hourAt,
  lanesOf,
  newDraft,
  scheduleDraftOf,
  scheduleHref,
  shiftDay,
  windowOf,
  zoomOf,
} from './schedule';
import type { ScheduleRun } from './schedule';

// The schedule timeline (reports-admin §2 Schedule, §5 Schedule form, §9 "schedule timeline zoom 1 to 31
// days"; decision 0910), in America/Chicago (CST = UTC−6 in December).

const TZ = 'America/Chicago';
const MIN = 60_000;
const HOUR = 60 * MIN;
/** Local time on Tuesday 2025-12-02. */
const at = (h: number, m = 0) => Date.UTC(2025, 11, 2, h + 6, m);

const aRun = (over: Partial<ScheduleRun> = {}): ScheduleRun => ({
  id: 'r1',
  job_id: 'j1',
  job_name: 'Flange',
  machine_id: 'm1',
  machine_name: 'Lathe',
  startdate: at(6),
  enddate: at(8),
  startInSetup: 'none',
  setuptime: null,
  setupend: at(6),
  cycletime: 10 * MIN,
  idealcycletime: 8 * MIN,
  partcount_multiplier: 1,
  actualParts: 1,
  partchangeovertime: 30_000,
  shifts: ['day'],
  laborActivities: [],
  ...over,
});

describe('schedule zoom and window (§9 1 to 31 days)', () => {
  it.each([
    [null, DEFAULT_ZOOM_DAYS],
    ['1', 1],
    ['31', 31],
    ['0', DEFAULT_ZOOM_DAYS],
    ['32', DEFAULT_ZOOM_DAYS],
    ['2.5', DEFAULT_ZOOM_DAYS],
    ['x', DEFAULT_ZOOM_DAYS],
  ])('zoom %s opens %i days', (text, days) => {
    expect(zoomOf(text)).toBe(days);
  });

  it('starts at the company midnight of the day asked, else today, and keeps whole days over DST', () => {
    expect(windowOf(TZ, '2025-12-02', 1, at(12))).toEqual({ day: '2025-12-02', start: at(0), end: at(24) });
    expect(windowOf(TZ, null, 7, at(12)).start).toBe(at(0));
    expect(windowOf(TZ, 'bad', 7, at(12)).day).toBe('2025-12-02');
    // 2025-11-02 has 25 hours in Chicago (CDT → CST).
    const w = windowOf(TZ, '2025-11-01', 2, at(12));
    expect(w.end - w.start).toBe(49 * HOUR);
  });

  it('moves by days and links with start and days', () => {
    expect(shiftDay('2025-12-30', 3)).toBe('2026-01-02');
    expect(shiftDay('2025-12-02', -7)).toBe('2025-11-25');
    expect(scheduleHref('2025-12-02', 14)).toBe('/app/production/schedule?start=2025-12-02&days=14');
  });
});

describe('lanes and bars', () => {
  const w = { start: at(0), end: at(24) };
  it('places a run in percent of the window, clips it, and leaves out runs outside', () => {
    expect(barOf({ startdate: at(6), enddate: at(12) }, w)).toEqual({
      left: 25,
      width: 25,
      clippedStart: false,
      clippedEnd: false,
    });
    expect(barOf({ startdate: at(-6), enddate: null }, w)).toEqual({
      left: 0,
      width: 100,
      clippedStart: true,
      clippedEnd: true,
    });
    expect(barOf({ startdate: at(25), enddate: at(26) }, w)).toBeNull();
    expect(barOf({ startdate: at(-2), enddate: at(0) }, w)).toBeNull();
  });

  it('gives each machine a lane in order, runs by start, and a lane for a machine not listed', () => {
    const lanes = lanesOf(
      [
        { id: 'm1', name: 'Lathe' },
        { id: 'm2', name: 'Mill' },
      ],
      [
        aRun({ id: 'b', startdate: at(9) }),
        aRun({ id: 'a' }),
        aRun({ id: 'c', machine_id: 'm9', machine_name: 'Old' }),
      ],
    );
    expect(lanes.map((l) => [l.name, l.runs.map((r) => r.id)])).toEqual([
      ['Lathe', ['a', 'b']],
      ['Mill', []],
      ['Old', ['c']],
    ]);
  });

  it('turns a click into the hour it falls in', () => {
    expect(hourAt(w, 0.26)).toBe(at(6));
    expect(hourAt(w, 2)).toBe(at(24));
  });
});

describe('the schedule form with shifts (§5)', () => {
  it('sends every field with shifts, changeover and setup time', () => {
    const d = { ...scheduleDraftOf(aRun(), TZ), startInSetup: 'planned' as const, setupMinutes: '15' };
    expect(checkScheduleDraft(d, TZ)).toEqual({
      errors: {},
      body: {
        job_id: 'j1',
        machine_id: 'm1',
        startdate: at(6),
        enddate: at(8),
        startInSetup: 'planned',
        setupend: null,
        cycletime: 10 * MIN,
        idealcycletime: 8 * MIN,
        partcount_multiplier: 1,
        actualParts: 1,
        shifts: ['day'],
        partchangeovertime: 30_000,
        setuptime: 15 * MIN,
      },
    });
    expect(checkScheduleDraft({ ...d, startInSetup: 'unplanned' }, TZ).body?.setuptime).toBe(0);
    expect(checkScheduleDraft({ ...d, startInSetup: 'none' }, TZ).body?.setuptime).toBeNull();
  });

  it('needs at least one shift unless the run has labor activities, and says what is wrong', () => {
    const d = { ...scheduleDraftOf(aRun(), TZ), shifts: [], changeoverSeconds: '-1' };
    expect(checkScheduleDraft(d, TZ)).toEqual({
      errors: {
        shifts: 'Choose at least one shift',
        changeover: 'Part changeover time must be 0 or more seconds',
      },
      body: null,
    });
    expect(checkScheduleDraft({ ...d, changeoverSeconds: '0' }, TZ, true).body?.shifts).toEqual([]);
  });

  it('starts a new run with the spec defaults (§9) and never ending', () => {
    const d = newDraft('m2', 'j1', at(6), TZ, ['day', 'night']);
    expect(checkScheduleDraft(d, TZ).body).toMatchObject({
      machine_id: 'm2',
      startdate: at(6),
      enddate: null,
      cycletime: 60_000,
      partcount_multiplier: 1,
      actualParts: 1,
      shifts: ['day', 'night'],
    });
  });

  it('duplicates a run right after it, as long, and a never-ending one from the next hour', () => {
    expect(checkScheduleDraft(duplicateDraft(aRun(), TZ, at(12)), TZ).body).toMatchObject({
      startdate: at(8),
      enddate: at(10),
      shifts: ['day'],
      partchangeovertime: 30_000,
    });
    expect(
      checkScheduleDraft(duplicateDraft(aRun({ enddate: null }), TZ, at(12, 20)), TZ).body,
    ).toMatchObject({ startdate: at(13), enddate: null });
  });
});
