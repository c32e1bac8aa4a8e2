import { describe, expect, it } from 'vitest';
import { epochMs } from '../brand';
import { dayFromCivil, parseDay } from './civil';
import {
  boundMark,
  dateEntryPatterns,
  dayBoundMark,
  defaultDateBounds,
  formatDateEntry,
  formatTimeEntry,
  parseDateEntry,
  parseTimeEntry,
  patternLabel,
} from './date-entry';

// live-operations §5 / reports-admin §5: typed dates in formats L and l, typed times within their limits, and the
// calendar's min and max (decision 1092).

describe('typed dates (formats L and l)', () => {
  it("derives L and l from the locale's order and separators, as moment has them", () => {
    expect(dateEntryPatterns('en-US')).toEqual({ L: 'MM/dd/yyyy', l: 'M/d/yyyy' });
    expect(dateEntryPatterns('de-DE')).toEqual({ L: 'dd.MM.yyyy', l: 'd.M.yyyy' });
    expect(dateEntryPatterns('en-GB')).toEqual({ L: 'dd/MM/yyyy', l: 'd/M/yyyy' });
    expect(patternLabel(dateEntryPatterns('en-US').L)).toBe('MM/DD/YYYY');
  });

  it('reads L and l in en-US, and the same day in the order of another locale', () => {
    const nov3 = dayFromCivil(2026, 11, 3);
    expect(parseDateEntry('11/03/2026')).toBe(nov3);
    expect(parseDateEntry('11/3/2026')).toBe(nov3);
    expect(parseDateEntry(' 11/3/2026 ', 'en-US')).toBe(nov3);
    expect(parseDateEntry('03.11.2026', 'de-DE')).toBe(nov3);
    expect(parseDateEntry('3.11.2026', 'de-DE')).toBe(nov3);
    expect(parseDateEntry('3/11/2026', 'en-GB')).toBe(nov3);
    expect(formatDateEntry(nov3)).toBe('11/03/2026');
    expect(formatDateEntry(nov3, 'de-DE')).toBe('03.11.2026');
    expect(parseDateEntry(formatDateEntry(parseDay('2024-02-29')))).toBe(parseDay('2024-02-29'));
  });

  it('keeps only valid dates: no such day, month 13, a two-digit year, other formats or trailing text are null', () => {
    for (const text of [
      '02/30/2026',
      '13/01/2026',
      '2/29/2025',
      '11/3/26',
      '2026-11-03',
      '11/03/2026x',
      '',
      'abc',
      '111/3/2026',
    ])
      expect(parseDateEntry(text), text).toBeNull();
    expect(parseDateEntry('2/29/2024')).toBe(parseDay('2024-02-29'));
  });
});

describe('typed times', () => {
  it('takes hours up to 23, minutes and seconds up to 59, milliseconds up to 999', () => {
    expect(parseTimeEntry('23:59:59.999')).toEqual({ ok: true, msOfDay: 86_399_999 });
    expect(parseTimeEntry('0:00')).toEqual({ ok: true, msOfDay: 0 });
    expect(parseTimeEntry('7:05:09.5')).toEqual({ ok: true, msOfDay: ((7 * 60 + 5) * 60 + 9) * 1000 + 500 });
    expect(parseTimeEntry('24:00')).toEqual({ ok: false, problem: 'hours' });
    expect(parseTimeEntry('12:60')).toEqual({ ok: false, problem: 'minutes' });
    expect(parseTimeEntry('12:5')).toEqual({ ok: false, problem: 'minutes' });
    expect(parseTimeEntry('12:00:60')).toEqual({ ok: false, problem: 'seconds' });
    expect(parseTimeEntry('12:00:00.1000')).toEqual({ ok: false, problem: 'format' });
    expect(parseTimeEntry('noon')).toEqual({ ok: false, problem: 'format' });
    expect(parseTimeEntry('1:00 PM')).toEqual({ ok: false, problem: 'meridiem' });
  });

  it('on a 12-hour clock takes hours 1 to 12 with AM or PM', () => {
    expect(parseTimeEntry('12:00 AM', true)).toEqual({ ok: true, msOfDay: 0 });
    expect(parseTimeEntry('12:30 pm', true)).toEqual({ ok: true, msOfDay: 12.5 * 3_600_000 });
    expect(parseTimeEntry('11:59:59.999 PM', true)).toEqual({ ok: true, msOfDay: 86_399_999 });
    expect(parseTimeEntry('13:00 PM', true)).toEqual({ ok: false, problem: 'hours' });
    expect(parseTimeEntry('0:10 AM', true)).toEqual({ ok: false, problem: 'hours' });
    expect(parseTimeEntry('10:00', true)).toEqual({ ok: false, problem: 'meridiem' });
  });

  it('shows a time with seconds and milliseconds only when they are there, and reads it back', () => {
    expect(formatTimeEntry(6 * 3_600_000)).toBe('06:00');
    expect(formatTimeEntry(86_399_999)).toBe('23:59:59.999');
    expect(formatTimeEntry(13 * 3_600_000 + 5000, true)).toBe('1:00:05 PM');
    expect(formatTimeEntry(0, true)).toBe('12:00 AM');
    for (const ms of [0, 1, 61_000, 43_200_000, 86_399_999]) {
      expect(parseTimeEntry(formatTimeEntry(ms))).toEqual({ ok: true, msOfDay: ms });
      expect(parseTimeEntry(formatTimeEntry(ms, true), true)).toEqual({ ok: true, msOfDay: ms });
    }
  });
});

describe('min and max', () => {
  const now = epochMs(Date.UTC(2026, 10, 29, 9, 30));
  const bounds = defaultDateBounds(now);

  it('defaults to one year back to now, and marks times outside invalid-min or invalid-max', () => {
    expect(bounds).toEqual({ min: Date.UTC(2025, 10, 29, 9, 30), max: now });
    expect(boundMark(bounds.min, bounds)).toBeNull();
    expect(boundMark(now, bounds)).toBeNull();
    expect(boundMark(bounds.min - 1, bounds)).toBe('invalid-min');
    expect(boundMark(now + 1, bounds)).toBe('invalid-max');
  });

  it('disables the calendar days with none of their time in the bounds (company days)', () => {
    // Company days starting 06:00 UTC.
    const dayStart = (d: number) => d * 86_400_000 + 6 * 3_600_000;
    const today = dayFromCivil(2026, 11, 29);
    expect(dayBoundMark(today, bounds, dayStart)).toBeNull();
    expect(dayBoundMark(dayFromCivil(2026, 11, 30), bounds, dayStart)).toBe('invalid-max');
    // The company day of 2025-11-29 runs to 2025-11-30 06:00, after the min: still pickable.
    expect(dayBoundMark(dayFromCivil(2025, 11, 29), bounds, dayStart)).toBeNull();
    expect(dayBoundMark(dayFromCivil(2025, 11, 28), bounds, dayStart)).toBe('invalid-min');
  });
});
