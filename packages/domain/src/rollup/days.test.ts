import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EpochMs } from '../brand';
import { HOUR_MS, MINUTE_MS } from '../brand';
import type { CompanyCalendar } from '../calendar/intervals';
import { reportIntervals, rollupBuckets } from '../calendar/intervals';
import type { StateInterval } from '../derive/outputs';
import { isCompanyDayStart, rollupDays, rollupWeeks, splitAtDays, wholeWeeksOfCells } from './days';
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

// Decision 1125: a range as its whole company days and the partial days at its edges.
describe('splitAtDays', () => {
  // America/Chicago, the company day starting 06:00, a future context moving it to 05:00 on 2024-11-06; the
  // end of DST (Sunday 2024-11-03, a 25-hour company day) on the way.
  const clock = {
    timezone: 'America/Chicago',
    currentTimeContext: { offset_millis: 6 * HOUR_MS },
    futureTimeContext: { offset_millis: 5 * HOUR_MS, effectivedate: '2024-11-06' },
  };
  const from = t('2024-10-28T00:00:00Z');
  const to = t('2024-11-12T00:00:00Z');
  it('gives back exactly the range: whole company days in the middle, less than a day at each edge', () => {
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), fc.integer({ min: from, max: to }), (x, y) => {
        const range = { start: Math.min(x, y), end: Math.max(x, y) };
        const s = splitAtDays(clock, range);
        const pieces = [s.head, s.days, s.tail].filter((p) => p !== null);
        if (range.end === range.start) {
          expect(pieces).toEqual([]);
          return;
        }
        // Contiguous, in order, covering the range.
        expect(pieces[0]!.start).toBe(range.start);
        expect(pieces.at(-1)!.end).toBe(range.end);
        for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.start).toBe(pieces[i - 1]!.end);
        if (!s.days) {
          expect(s.head).toEqual(range);
          return;
        }
        expect(isCompanyDayStart(clock, s.days.start as EpochMs)).toBe(true);
        expect(isCompanyDayStart(clock, s.days.end as EpochMs)).toBe(true);
        // No company-day start inside the head or the tail: they are partial days.
        for (const p of [s.head, s.tail])
          if (p)
            for (let at = p.start + 1; at < p.end; at += 15 * MINUTE_MS)
              expect(isCompanyDayStart(clock, at as EpochMs)).toBe(false);
      }),
      { numRuns: 300, seed: 1125 },
    );
  });
  it('cuts at 06:00 local, in daylight and standard time, and at 05:00 once the future context applies', () => {
    const s = splitAtDays(clock, { start: t('2024-11-01T15:17:00Z'), end: t('2024-11-07T10:30:00Z') });
    // Saturday 06:00 CDT = 11:00Z; Tuesday 06:00 CST = 12:00Z (a 23-hour day); Wednesday 05:00 CST = 11:00Z.
    expect(s.head).toEqual({ start: t('2024-11-01T15:17:00Z'), end: t('2024-11-02T11:00:00Z') });
    expect(s.days).toEqual({ start: t('2024-11-02T11:00:00Z'), end: t('2024-11-06T11:00:00Z') });
    expect(s.tail).toEqual({ start: t('2024-11-06T11:00:00Z'), end: t('2024-11-07T10:30:00Z') });
    expect(isCompanyDayStart(clock, t('2024-11-05T12:00:00Z'))).toBe(true);
  });
});
