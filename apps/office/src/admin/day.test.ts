import { describe, expect, it } from 'vitest';
import { companyDayStart, parseDay } from '@takt/domain';
import { companyTomorrow, dayBody, dayErrors, offsetToTime, timeToOffset } from './day';

describe('start of day', () => {
  it.each([
    ['00:00', 0],
    ['06:00', 6 * 3_600_000],
    ['12:00', 12 * 3_600_000],
    ['22:00', -2 * 3_600_000],
    ['12:05', -(11 * 60 + 55) * 60_000],
  ])('%s is offset %i', (time, offset) => {
    expect(timeToOffset(time)).toBe(offset);
    expect(offsetToTime(offset)).toBe(time);
  });

  it('takes effect from tomorrow to one month ahead', () => {
    expect(dayErrors({ start: '06:00', effectivedate: '2026-11-27' }, '2026-11-27')).toEqual({});
    expect(dayErrors({ start: '', effectivedate: '' }, '2026-11-27')).toEqual({
      start: 'Missing required field: Start of Day',
      effectivedate: 'Missing required field: Effective Date',
    });
    expect(dayErrors({ start: '06:02', effectivedate: '2026-11-26' }, '2026-11-27')).toEqual({
      start: 'Pick a time in 5-minute steps.',
      effectivedate: 'The effective date must be from tomorrow to one month ahead.',
    });
    expect(dayBody({ start: '23:00', effectivedate: '2026-11-30' })).toEqual({
      offset_millis: -3_600_000,
      effectivedate: '2026-11-30',
    });
  });

  it("knows the company's tomorrow", () => {
    const clock = { timezone: 'America/Chicago' };
    const lateEvening = companyDayStart(clock, parseDay('2026-11-25')) + 23 * 3_600_000;
    expect(companyTomorrow(clock, lateEvening)).toBe('2026-11-26');
  });
});
