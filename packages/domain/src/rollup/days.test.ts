import { describe, expect, it } from 'vitest';
import type { EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { CompanyCalendar } from '../calendar/intervals';
import { reportIntervals, rollupBuckets } from '../calendar/intervals';
import type { StateInterval } from '../derive/outputs';
import { isCompanyDayStart, rollupDays, rollupWeeks, wholeWeeksOfCells } from './days';
import type { Rollup } from './rollup';
import { buildRollups, sumRollups } from './rollup';

const t = (iso: string) => Date.parse(iso) as EpochMs;

// Decision 0804: day rows sum a machine's buckets per company day × shift.
describe('rollupDays', () => {
  // America/Chicago over the start of DST (Sunday 2024-03-10 has 23 h), a Night shift across midnight.
  const chicago: CompanyCalendar = {
    timezone: 'America/Chicago',
    currentTimeContext: null,
    futureTimeContext: null,
    shifts: [
      {
        id: 'n',
        name: 'Night',
        versions: [
          {
            startoffsetminutes: 1320,
            endoffsetminutes: 360,
            byweekday: [0, 1, 2, 3, 4, 5, 6],
            effectivedate: '2024-01-01',
          },
        ],
      },
    ],
  };
  const week = { start: t('2024-03-04T06:00:00Z'), end: t('2024-03-11T05:00:00Z') };
  const intervals: StateInterval[] = [];
  for (let x: number = week.start, k = 0; x < week.end; x += 7 * MINUTE_MS, k++)
    intervals.push({
      start: x as EpochMs,
      end: Math.min(x + 7 * MINUTE_MS, week.end) as EpochMs,
      state: k % 3 ? 'ACTIVE' : 'INACTIVE',
      reason: null,
    });
  const hourly: Rollup[] = buildRollups({ machineId: 'm', intervals }, rollupBuckets(chicago, week));
  const days = rollupDays(chicago, hourly);

  it('gives each company day one row in the night shift (both sides of midnight) and one outside', () => {
    expect(days).toHaveLength(7 * 2);
    expect(days.map((d) => d.shiftId)).toEqual(Array.from({ length: 7 }, () => ['n', null]).flat());
    // The 23-hour Sunday: the night shift 00:00–06:00 loses the hour DST skips (5 h + 22:00–24:00); outside
    // 06:00–22:00 is 16 h.
    const sunday = days.filter((d) => d.start >= t('2024-03-10T06:00:00Z'));
    expect(sunday.map((d) => d.durationMs)).toEqual([7 * HOUR_MS, 16 * HOUR_MS]);
  });

  it('sums to what the buckets sum to, for every day cell and shift selection', () => {
    for (const cell of [week, ...reportIntervals(chicago, week, 'day')])
      for (const shiftIds of [null, new Set(['n'])])
        expect(sumRollups(days, { ...cell, shiftIds })).toEqual(sumRollups(hourly, { ...cell, shiftIds }));
  });

  it.each([
    ['2024-03-04T06:00:00Z', true],
    ['2024-03-10T06:00:00Z', true],
    ['2024-03-11T05:00:00Z', true], // after the change: CDT midnight
    ['2024-03-11T06:00:00Z', false],
    ['2024-03-04T07:00:00Z', false],
  ])('isCompanyDayStart(%s) is %s', (iso, want) => {
    expect(isCompanyDayStart(chicago, t(iso))).toBe(want);
  });
});

// Decision 0804 (addendum): week rows sum a machine's day rows per company week (ISO, Monday first) × shift.
describe('rollupWeeks and the whole weeks of report cells', () => {
  const chicago: CompanyCalendar = {
    timezone: 'America/Chicago',
    currentTimeContext: null,
    futureTimeContext: null,
    shifts: [],
  };
  // Friday 2024-03-01 … Tuesday 2024-03-19 (CST to CDT on Sunday 2024-03-10).
  const span = { start: t('2024-03-01T06:00:00Z'), end: t('2024-03-19T05:00:00Z') };
  const intervals: StateInterval[] = [{ start: span.start, end: span.end, state: 'ACTIVE', reason: null }];
  const days = rollupDays(chicago, buildRollups({ machineId: 'm', intervals }, rollupBuckets(chicago, span)));

  it('gives each company week one row per shift, and sums to what the days sum to in every week cell', () => {
    const weeks = rollupWeeks(chicago, days);
    expect(weeks.map((w) => [new Date(w.start).toISOString(), w.durationMs / HOUR_MS])).toEqual([
      ['2024-03-01T06:00:00.000Z', 72], // Friday to Sunday: what the span holds of that week
      ['2024-03-04T06:00:00.000Z', 167], // the week of the 23-hour Sunday
      ['2024-03-11T05:00:00.000Z', 168],
      ['2024-03-18T05:00:00.000Z', 24],
    ]);
    for (const cell of [span, ...reportIntervals(chicago, span, 'week')])
      expect(sumRollups(weeks, { ...cell, shiftIds: null })).toEqual(
        sumRollups(days, { ...cell, shiftIds: null }),
      );
  });

  it('finds the whole weeks inside each cell: none in day cells, the inner weeks of a week or month cell', () => {
    const starts = (unit: 'day' | 'week' | 'month') =>
      reportIntervals(chicago, span, unit).map((i) => i.start);
    const iso = (ws: Array<{ start: number; end: number }>) =>
      ws.map((w) => [new Date(w.start).toISOString(), new Date(w.end).toISOString()]);
    expect(wholeWeeksOfCells(chicago, starts('day'), span.end)).toEqual([]);
    // The partial first week (from Friday) and the partial last (Monday only) are left to day rows.
    expect(iso(wholeWeeksOfCells(chicago, starts('week'), span.end))).toEqual([
      ['2024-03-04T06:00:00.000Z', '2024-03-18T05:00:00.000Z'],
    ]);
    expect(iso(wholeWeeksOfCells(chicago, starts('month'), span.end))).toEqual([
      ['2024-03-04T06:00:00.000Z', '2024-03-18T05:00:00.000Z'],
    ]);
    // Month cells split a week that straddles them: Feb 26 – Mar 4 is in no whole-week range.
    const febMar = reportIntervals(chicago, { start: t('2024-02-01T06:00:00Z'), end: span.end }, 'month');
    expect(
      iso(
        wholeWeeksOfCells(
          chicago,
          febMar.map((i) => i.start),
          span.end,
        ),
      ),
    ).toEqual([
      ['2024-02-05T06:00:00.000Z', '2024-02-26T06:00:00.000Z'],
      ['2024-03-04T06:00:00.000Z', '2024-03-18T05:00:00.000Z'],
    ]);
  });
});
