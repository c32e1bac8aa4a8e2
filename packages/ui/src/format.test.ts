import { describe, expect, it } from 'vitest';
import { formatCount, formatPercent, formatSortableDateTime, formatTimeOfDay } from './format';

describe('formatting', () => {
  it('formats a time of day in the company zone', () => {
    const t = Date.UTC(2025, 0, 31, 13, 3, 7);
    expect(formatTimeOfDay(t, { locale: 'en-GB', timeZone: 'UTC' })).toBe('13:03:07');
    expect(formatTimeOfDay(t, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe('14:03:07');
    expect(formatTimeOfDay(null)).toBe('-');
  });

  it('survives an unknown zone', () => {
    expect(formatTimeOfDay(0, { locale: 'en-GB', timeZone: 'Not/AZone' })).toMatch(/\d\d:\d\d:\d\d/);
  });

  it('writes sortable date-times for CSV', () => {
    expect(formatSortableDateTime(Date.UTC(2025, 0, 31, 23, 59, 1), 'UTC')).toBe('2025-01-31 23:59:01');
    expect(formatSortableDateTime(Date.UTC(2025, 0, 31, 23, 59, 1), 'Europe/Berlin')).toBe(
      '2025-02-01 00:59:01',
    );
    expect(formatSortableDateTime(null)).toBe('');
  });

  it.each([
    [1234.4, 'en-US', '1,234'],
    [1234.6, 'de-DE', '1.235'],
    [null, 'en-US', '-'],
  ])('counts %s in %s', (n, locale, expected) => {
    expect(formatCount(n, locale)).toBe(expected);
  });

  it('percent', () => {
    expect(formatPercent(87.25)).toBe('87.3%');
    expect(formatPercent(87.25, 0)).toBe('87%');
    expect(formatPercent(null)).toBe('-');
  });
});
