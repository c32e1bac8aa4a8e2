import { describe, expect, it } from 'vitest';
import { shiftBounds } from './shift';

/** Where the current shift started, or null when no shift runs now. */
const currentShiftStart = (...args: Parameters<typeof shiftBounds>) => {
  const b = shiftBounds(...args);
  return b.running ? b.currentStart : null;
};

// Day shift 06:00–14:00 and late shift 14:00–22:00, every day, in UTC; the company day starts at 06:00.
const version = (start: number, end: number) => ({
  startoffsetminutes: start,
  endoffsetminutes: end,
  byweekday: [0, 1, 2, 3, 4, 5, 6],
  effectivedate: '2026-01-01',
});
const shifts = [
  { id: 'day', name: 'Day', current: version(360, 840) },
  { id: 'late', name: 'Late', current: version(840, 1320) },
];
const clock = { timezone: 'UTC', currentTimeContext: { offset_millis: 6 * 3_600_000 } };
const at = (iso: string) => Date.parse(iso);

describe('the current shift of the downtime list', () => {
  it('keeps the server’s current shift while it runs', () => {
    const cached = { start: at('2026-11-23T06:00:00Z'), end: at('2026-11-23T14:00:00Z') };
    expect(currentShiftStart(at('2026-11-23T10:00:00Z'), cached, shifts, clock)).toBe(cached.start);
  });
  it('finds the next shift from the cached calendar after a shift change offline', () => {
    const cached = { start: at('2026-11-23T06:00:00Z'), end: at('2026-11-23T14:00:00Z') };
    expect(currentShiftStart(at('2026-11-23T15:00:00Z'), cached, shifts, clock)).toBe(
      at('2026-11-23T14:00:00Z'),
    );
  });
  it('applies the start of the company day: 05:00 belongs to the previous shop date, between shifts', () => {
    expect(currentShiftStart(at('2026-11-24T05:00:00Z'), null, shifts, clock)).toBeNull();
  });
  it('falls back to the end of the cached shift without a calendar', () => {
    const cached = { start: at('2026-11-23T06:00:00Z'), end: at('2026-11-23T14:00:00Z') };
    expect(currentShiftStart(at('2026-11-23T15:00:00Z'), cached, undefined, clock)).toBe(cached.end);
    expect(currentShiftStart(at('2026-11-23T15:00:00Z'), null, undefined, clock)).toBeNull();
  });
});

describe('the sections of the downtime list (Current Shift, Previous Shift)', () => {
  it.each([
    [
      'in the late shift: the day shift before it',
      '2026-11-23T15:00:00Z',
      { running: true, currentStart: at('2026-11-23T14:00:00Z'), previousStart: at('2026-11-23T06:00:00Z') },
    ],
    [
      'in the day shift: the late shift of the evening before',
      '2026-11-23T07:00:00Z',
      { running: true, currentStart: at('2026-11-23T06:00:00Z'), previousStart: at('2026-11-22T14:00:00Z') },
    ],
    [
      'between shifts: since the late shift ended, and the late shift',
      '2026-11-24T05:00:00Z',
      { running: false, currentStart: at('2026-11-23T22:00:00Z'), previousStart: at('2026-11-23T14:00:00Z') },
    ],
  ])('%s', (_, now, expected) => {
    expect(shiftBounds(at(now), null, shifts, clock)).toEqual(expected);
  });
  it('knows no previous shift start without a calendar while the cached shift runs', () => {
    const cached = { start: at('2026-11-23T06:00:00Z'), end: at('2026-11-23T14:00:00Z') };
    expect(shiftBounds(at('2026-11-23T10:00:00Z'), cached, undefined, clock)).toEqual({
      running: true,
      currentStart: cached.start,
      previousStart: -Infinity,
    });
    expect(shiftBounds(at('2026-11-23T10:00:00Z'), null, undefined, clock)).toEqual({
      running: false,
      currentStart: null,
      previousStart: -Infinity,
    });
  });
});
