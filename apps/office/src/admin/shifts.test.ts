import { describe, expect, it } from 'vitest';
import {
  createShiftBody,
  effectiveBounds,
  minutesToTime,
  newShiftForm,
  overlapWarning,
  shiftErrors,
  shiftStatus,
  timeToMinutes,
  updateShiftBody,
} from './shifts';
import type { ShiftVersionView, ShiftView } from '@takt/domain';

const version = (over: Partial<ShiftVersionView> = {}): ShiftVersionView => ({
  startoffsetminutes: 360,
  endoffsetminutes: 840,
  byweekday: [0, 1, 2, 3, 4],
  is_termination_set: false,
  terminationdate: null,
  effectivedate: '2026-01-01',
  ...over,
});
const aShift = (over: Partial<ShiftView> = {}): ShiftView => ({
  id: 's',
  name: 'Day',
  terminated: false,
  current: version(),
  latest: version(),
  effectivedate: '2026-01-01',
  ...over,
});
const bounds = effectiveBounds('2026-11-27');

describe('shift times', () => {
  it.each([
    [0, '00:00'],
    [360, '06:00'],
    [1800, '06:00'],
    [1435, '23:55'],
  ])('%i minutes is %s', (m, text) => {
    expect(minutesToTime(m)).toBe(text);
  });
  it.each([
    ['06:00', 360],
    ['6:05', 365],
    ['24:00', null],
    ['noon', null],
  ])('%s', (text, m) => {
    expect(timeToMinutes(text)).toBe(m);
  });
});

describe('shift form', () => {
  it('takes effect from tomorrow to one month ahead (reports-admin §5)', () => {
    expect(bounds).toEqual({ min: '2026-11-27', max: '2026-12-27' });
  });

  const form = newShiftForm({
    name: '',
    startoffsetminutes: 840,
    endoffsetminutes: 1320,
    byweekday: [0, 1, 2, 3, 4],
    effectivedate: '2026-11-27',
  });

  it('starts from the defaults: 8 hours from the last shift end', () => {
    expect(form).toEqual({
      name: '',
      start: '14:00',
      end: '22:00',
      days: [0, 1, 2, 3, 4],
      effectivedate: '2026-11-27',
    });
  });

  it.each([
    [{}, { name: 'Missing required field: Name' }],
    [{ name: 'Late', days: [] }, { days: 'Select at least one day' }],
    [{ name: 'Late', end: '14:00' }, { end: 'A shift cannot be empty' }],
    [{ name: 'Late', start: '14:03' }, { start: 'Pick a time in 5-minute steps.' }],
    [{ name: 'Late', start: '' }, { start: 'Enter a time.' }],
    [{ name: 'Late', effectivedate: '' }, { effectivedate: 'Missing required field: Effective Date' }],
    [
      { name: 'Late', effectivedate: '2026-11-26' },
      { effectivedate: 'The effective date must be from tomorrow to one month ahead.' },
    ],
    [
      { name: 'Late', effectivedate: '2026-12-28' },
      { effectivedate: 'The effective date must be from tomorrow to one month ahead.' },
    ],
    [{ name: 'Late', effectivedate: '2026-12-27' }, {}],
  ])('%o', (over, expected) => {
    expect(shiftErrors({ ...form, ...over }, true, bounds)).toEqual(expected);
  });

  it('needs no date for a rename, and sends times only when they change', () => {
    const rename = { ...form, name: 'Day shift', start: '06:00', end: '14:00', effectivedate: '' };
    expect(shiftErrors(rename, false, bounds)).toEqual({});
    expect(updateShiftBody(rename, version())).toEqual({ name: 'Day shift' });
    expect(updateShiftBody({ ...rename, end: '15:00', effectivedate: '2026-11-27' }, version())).toEqual({
      name: 'Day shift',
      startoffsetminutes: 360,
      endoffsetminutes: 900,
      byweekday: [0, 1, 2, 3, 4],
      effectivedate: '2026-11-27',
    });
    // An overnight shift stored past midnight (end 30:00) is unchanged at 22:00–06:00.
    const night = version({ startoffsetminutes: 1320, endoffsetminutes: 1800 });
    expect(updateShiftBody({ ...rename, start: '22:00', end: '06:00' }, night)).toEqual({
      name: 'Day shift',
    });
  });

  it('creates with the times and the date', () => {
    expect(createShiftBody({ ...form, name: ' Late ', days: [4, 0, 4] })).toEqual({
      name: 'Late',
      startoffsetminutes: 840,
      endoffsetminutes: 1320,
      byweekday: [0, 4],
      effectivedate: '2026-11-27',
    });
  });
});

describe('shift status', () => {
  it.each([
    [aShift(), { kind: 'running' }],
    [aShift({ latest: version({ effectivedate: '2026-12-01' }) }), { kind: 'changing', date: '2026-12-01' }],
    [aShift({ current: null }), { kind: 'notStarted', date: '2026-01-01' }],
    [
      aShift({ latest: version({ terminationdate: '2026-12-01', is_termination_set: true }) }),
      { kind: 'ending', date: '2026-12-01' },
    ],
    [
      aShift({ terminated: true, current: version({ terminationdate: '2026-11-01' }) }),
      { kind: 'terminated', date: '2026-11-01' },
    ],
  ] as const)('%#', (shift, expected) => {
    expect(shiftStatus(shift)).toEqual(expected);
  });
});

describe('the overlap warning of the shift form (decision 1050)', () => {
  const swing = newShiftForm({
    name: 'Swing',
    startoffsetminutes: 840,
    endoffsetminutes: 1320,
    byweekday: [0],
    effectivedate: '2026-01-02',
  });
  const day = aShift({ latest: version({ endoffsetminutes: 870 }) });
  it('names the other running shift and the overlapping time', () => {
    expect(overlapWarning(swing, null, [day])).toBe(
      'This shift overlaps Day on Mon 14:00–14:30. Overlapping time counts for the shift that starts first.',
    );
  });
  it('says nothing for shifts that meet, for the shift itself, or for a terminated one', () => {
    expect(overlapWarning(swing, null, [aShift()])).toBeNull();
    expect(overlapWarning(swing, day, [day])).toBeNull();
    expect(overlapWarning(swing, null, [{ ...day, terminated: true }])).toBeNull();
  });
});
