import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EpochMs } from '../brand';
import { DAY_MS, epochMs, HOUR_MS } from '../brand';
import { dayFromCivil, formatDay, isoWeekday, parseDay } from '../time/civil';
import { fromWall, toWall } from '../time/zone';
import type { CompanyCalendar } from './intervals';
import { reportIntervals, rollupBuckets } from './intervals';
import type { ShiftDefinition } from './shifts';
import { shiftDefinitionFromEntity, shiftOccurrences, shiftVersionOn } from './shifts';
import type { CompanyClock } from './time-context';
import { companyDayRange, companyDayStart, shopDateOf } from './time-context';
import {
  adoptServerInterval,
  chartLabelInterval,
  checkRange,
  maxRangeEnd,
  parseReportInterval,
  quickLinks,
  snapRange,
} from './quick-links';

const iso = (s: string): EpochMs => epochMs(Date.parse(s));
const isoOf = (t: number) => new Date(t).toISOString();
const chicago: CompanyClock = { timezone: 'America/Chicago' };
const berlin: CompanyClock = { timezone: 'Europe/Berlin' };
const d = parseDay;

describe('civil dates', () => {
  it.each([
    ['2024-01-15', 0], // Monday
    ['2024-01-21', 6], // Sunday
    ['1970-01-01', 3], // Thursday
  ])('%s is weekday %i (0 = Monday)', (day, wd) => {
    expect(isoWeekday(d(day))).toBe(wd);
  });
  it('formats and parses civil days', () => {
    expect(formatDay(dayFromCivil(2024, 2, 29))).toBe('2024-02-29');
    expect(() => parseDay('2023-02-29')).toThrow();
  });
});

describe('time zone and DST', () => {
  it.each([
    { clock: chicago, day: '2024-03-10', hours: 23 },
    { clock: chicago, day: '2024-11-03', hours: 25 },
    { clock: chicago, day: '2024-07-01', hours: 24 },
    { clock: berlin, day: '2024-03-31', hours: 23 },
    { clock: berlin, day: '2024-10-27', hours: 25 },
  ])('$clock.timezone $day has $hours h', ({ clock, day, hours }) => {
    const r = companyDayRange(clock, d(day));
    expect((r.end - r.start) / HOUR_MS).toBe(hours);
  });

  it('a wall time in the spring-forward gap moves forward; a repeated one resolves to the first', () => {
    expect(isoOf(fromWall('America/Chicago', d('2024-03-10'), 2.5 * HOUR_MS))).toBe(
      '2024-03-10T08:30:00.000Z',
    );
    expect(isoOf(fromWall('America/Chicago', d('2024-11-03'), 1.5 * HOUR_MS))).toBe(
      '2024-11-03T06:30:00.000Z',
    );
    expect(toWall('Europe/Berlin', iso('2024-10-27T00:30:00Z'))).toEqual({
      day: d('2024-10-27'),
      msOfDay: 2.5 * HOUR_MS,
    });
  });

  it('the company day starts at local midnight + offset_millis, as wall time', () => {
    const six: CompanyClock = {
      timezone: 'America/Chicago',
      currentTimeContext: { offset_millis: 6 * HOUR_MS },
    };
    expect(isoOf(companyDayStart(six, d('2024-03-10')))).toBe('2024-03-10T11:00:00.000Z'); // 06:00 CDT
    expect(isoOf(companyDayStart(six, d('2024-03-09')))).toBe('2024-03-09T12:00:00.000Z'); // 06:00 CST
    // 05:59 local on the 10th still belongs to the 9th.
    expect(formatDay(shopDateOf(six, iso('2024-03-10T10:59:00Z')))).toBe('2024-03-09');
    expect(formatDay(shopDateOf(six, iso('2024-03-10T11:00:00Z')))).toBe('2024-03-10');
  });

  it('a negative offset starts the company day the evening before', () => {
    const c: CompanyClock = {
      timezone: 'Europe/Berlin',
      currentTimeContext: { offset_millis: -2 * HOUR_MS },
    };
    expect(isoOf(companyDayStart(c, d('2024-07-02')))).toBe('2024-07-01T20:00:00.000Z'); // 22:00 CEST on the 1st
    expect(formatDay(shopDateOf(c, iso('2024-07-01T21:00:00Z')))).toBe('2024-07-02');
  });

  it('a future time context takes over on its effective date', () => {
    const c: CompanyClock = {
      timezone: 'UTC',
      currentTimeContext: { offset_millis: 0 },
      futureTimeContext: { offset_millis: 7 * HOUR_MS, effectivedate: '2024-05-02' },
    };
    expect(isoOf(companyDayStart(c, d('2024-05-01')))).toBe('2024-05-01T00:00:00.000Z');
    expect(isoOf(companyDayStart(c, d('2024-05-02')))).toBe('2024-05-02T07:00:00.000Z');
    const changeover = companyDayRange(c, d('2024-05-01'));
    expect((changeover.end - changeover.start) / HOUR_MS).toBe(31);
  });
});

const WEEKDAYS = [0, 1, 2, 3, 4];
const day: ShiftDefinition = {
  id: 'day',
  name: 'Day',
  versions: [
    {
      startoffsetminutes: 7 * 60,
      endoffsetminutes: 15 * 60,
      byweekday: WEEKDAYS,
      effectivedate: '2020-01-01',
    },
  ],
};
const night: ShiftDefinition = {
  id: 'night',
  name: 'Night',
  versions: [
    {
      startoffsetminutes: 22 * 60,
      endoffsetminutes: 6 * 60,
      byweekday: [0, 1, 2, 3, 4, 5, 6],
      effectivedate: '2020-01-01',
    },
  ],
};

describe('shift calendar', () => {
  it('an overnight shift ends the next morning and is 25 h / 23 h aware', () => {
    const occ = (date: string, clock: CompanyClock) =>
      shiftOccurrences(
        clock,
        [night],
        companyDayStart(clock, d(date)),
        companyDayStart(clock, (d(date) + 2) as never),
      ).filter((o) => formatDay(o.shopDate) === date)[0];
    const fallBack = occ('2024-11-02', chicago); // Sat 22:00 → Sun 06:00 over the fall-back night
    expect(fallBack && (fallBack.end - fallBack.start) / HOUR_MS).toBe(9);
    const springForward = occ('2024-03-09', chicago);
    expect(springForward && (springForward.end - springForward.start) / HOUR_MS).toBe(7);
    const berlinFall = occ('2024-10-26', berlin);
    expect(berlinFall && isoOf(berlinFall.start)).toBe('2024-10-26T20:00:00.000Z');
    expect(berlinFall && isoOf(berlinFall.end)).toBe('2024-10-27T05:00:00.000Z');
  });

  it('byweekday uses 0 = Monday and the occurrence belongs to the day it starts', () => {
    const week = shiftOccurrences(chicago, [day], iso('2024-01-15T00:00:00Z'), iso('2024-01-22T12:00:00Z'));
    expect(week.map((o) => formatDay(o.shopDate))).toEqual([
      '2024-01-15',
      '2024-01-16',
      '2024-01-17',
      '2024-01-18',
      '2024-01-19',
    ]);
    expect(isoOf(week[0]?.start as number)).toBe('2024-01-15T13:00:00.000Z');
  });

  it('versions take effect on their effective date; termination stops the shift', () => {
    const s: ShiftDefinition = {
      id: 's',
      name: 'S',
      versions: [
        { startoffsetminutes: 360, endoffsetminutes: 840, byweekday: WEEKDAYS, effectivedate: '2024-01-01' },
        {
          startoffsetminutes: 480,
          endoffsetminutes: 960,
          byweekday: WEEKDAYS,
          effectivedate: '2024-02-01',
          terminationdate: '2024-03-01',
        },
      ],
    };
    expect(shiftVersionOn(s, d('2023-12-31'))).toBeNull();
    expect(shiftVersionOn(s, d('2024-01-31'))?.startoffsetminutes).toBe(360);
    expect(shiftVersionOn(s, d('2024-02-01'))?.startoffsetminutes).toBe(480);
    expect(shiftVersionOn(s, d('2024-03-01'))).toBeNull();
  });

  it('maps the spec entity (current and latest versions)', () => {
    const def = shiftDefinitionFromEntity({
      id: 'x',
      name: 'X',
      current: {
        startoffsetminutes: 0,
        endoffsetminutes: 480,
        byweekday: [0],
        effectivedate: '2024-01-01',
        is_termination_set: false,
      },
      latest: {
        startoffsetminutes: 60,
        endoffsetminutes: 540,
        byweekday: [0],
        effectivedate: '2024-06-01',
        is_termination_set: true,
        terminationdate: '2024-09-01',
      },
    });
    expect(def.versions).toHaveLength(2);
    expect(def.versions[1]?.terminationdate).toBe('2024-09-01');
  });

  it('overlapping shifts: the one that started first keeps the overlap', () => {
    const late: ShiftDefinition = {
      id: 'late',
      name: 'Late',
      versions: [
        {
          startoffsetminutes: 14 * 60,
          endoffsetminutes: 18 * 60,
          byweekday: WEEKDAYS,
          effectivedate: '2020-01-01',
        },
      ],
    };
    const utc: CompanyClock = { timezone: 'UTC' };
    const occ = shiftOccurrences(utc, [late, day], iso('2024-01-15T00:00:00Z'), iso('2024-01-16T00:00:00Z'));
    expect(occ.map((o) => [o.shiftId, isoOf(o.start).slice(11, 16), isoOf(o.end).slice(11, 16)])).toEqual([
      ['day', '07:00', '15:00'],
      ['late', '15:00', '18:00'],
    ]);
  });
});

const calendar: CompanyCalendar = { timezone: 'America/Chicago', shifts: [day, night] };

describe('report intervals', () => {
  it.each([
    { date: '2024-03-10', hours: 23 },
    { date: '2024-11-03', hours: 25 },
  ])('$date has $hours hour intervals, labelled with the shop date', ({ date, hours }) => {
    const r = companyDayRange(calendar, d(date));
    const list = reportIntervals(calendar, r, 'hour');
    expect(list).toHaveLength(hours);
    expect(new Set(list.map((i) => i.shopDate))).toEqual(new Set([date]));
  });

  it('days, ISO weeks, months and quarters with shop dates and unit durations', () => {
    const range = { start: iso('2024-03-08T18:00:00Z'), end: iso('2024-04-03T12:00:00Z') };
    const days = reportIntervals(calendar, range, 'day');
    expect(days[0]).toMatchObject({
      shopDate: '2024-03-08',
      start: range.start,
      duration: 12 * HOUR_MS,
      unitDuration: 24 * HOUR_MS,
    });
    expect(days.find((x) => x.shopDate === '2024-03-10')?.unitDuration).toBe(23 * HOUR_MS);
    const weeks = reportIntervals(calendar, range, 'week');
    expect(weeks.map((w) => w.shopDate)).toEqual([
      '2024-03-04',
      '2024-03-11',
      '2024-03-18',
      '2024-03-25',
      '2024-04-01',
    ]);
    expect(weeks[0]?.labelTime).toBe(iso('2024-03-04T06:00:00Z'));
    expect(reportIntervals(calendar, range, 'month').map((m) => m.shopDate)).toEqual([
      '2024-03-01',
      '2024-04-01',
    ]);
    expect(reportIntervals(calendar, range, 'quarter').map((m) => m.shopDate)).toEqual([
      '2024-01-01',
      '2024-04-01',
    ]);
    const shifts = reportIntervals(
      calendar,
      { start: iso('2024-03-11T00:00:00Z'), end: iso('2024-03-12T00:00:00Z') },
      'shift',
    );
    expect(shifts.map((s) => [s.shiftName, s.shopDate])).toEqual([
      ['Night', '2024-03-10'],
      ['Day', '2024-03-11'],
    ]);
  });

  const rangeArb = fc
    .tuple(fc.integer({ min: 0, max: 400 * 24 }), fc.integer({ min: 1, max: 40 * 24 * 60 }))
    .map(([h, lenMin]) => {
      const start = iso('2024-01-01T00:00:00Z') + h * HOUR_MS + (h % 7) * 60_000;
      return { start: start as EpochMs, end: (start + lenMin * 60_000) as EpochMs };
    });

  it('every unit tiles the range with no gap or overlap', () => {
    fc.assert(
      fc.property(
        rangeArb,
        fc.constantFrom('hour', 'day', 'week', 'month', 'quarter' as const),
        (range, unit) => {
          const list = reportIntervals(calendar, range, unit);
          let cursor: number = range.start;
          for (const i of list) {
            expect(i.start).toBe(cursor);
            expect(i.duration).toBe(i.end - i.start);
            cursor = i.end;
          }
          expect(cursor).toBe(range.end);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rollup buckets tile the range, sit inside one hour and one shift, and every interval is a union of them', () => {
    fc.assert(
      fc.property(rangeArb, (r) => {
        const range = { start: r.start, end: Math.min(r.end, r.start + 10 * DAY_MS) as EpochMs };
        const buckets = rollupBuckets(calendar, range);
        const edges = new Set(buckets.map((b) => b.start as number));
        edges.add(range.end);
        let cursor: number = range.start;
        for (const b of buckets) {
          expect(b.start).toBe(cursor);
          expect(b.end - b.start).toBeLessThanOrEqual(HOUR_MS);
          cursor = b.end;
        }
        expect(cursor).toBe(range.end);
        for (const unit of ['hour', 'shift', 'day', 'week'] as const) {
          for (const i of reportIntervals(calendar, range, unit)) {
            expect(edges.has(i.start)).toBe(true);
            expect(edges.has(i.end)).toBe(true);
          }
        }
        const shiftMs = buckets.filter((b) => b.shiftId !== null).reduce((s, b) => s + b.end - b.start, 0);
        const direct = shiftOccurrences(calendar, calendar.shifts, range.start, range.end).reduce(
          (s, o) => s + o.end - o.start,
          0,
        );
        expect(shiftMs).toBe(direct);
      }),
      { numRuns: 40 },
    );
  });
});

describe('quick links, snapping and range rules (reports-admin §2, §4, §5)', () => {
  const now = iso('2024-03-13T15:00:00Z'); // Wednesday, Chicago 10:00
  const fmt = (links: { label: string; start: number; end: number }[]) =>
    links.map((l) => [
      l.label,
      formatDay(shopDateOf(chicago, l.start as EpochMs)),
      formatDay(shopDateOf(chicago, (l.end - 1) as EpochMs)),
    ]);

  it('month set', () => {
    expect(fmt(quickLinks(chicago, 'month', now))).toEqual([
      ['This month', '2024-03-01', '2024-03-31'],
      ['Last month', '2024-02-01', '2024-02-29'],
      ['Last 2 months', '2024-01-01', '2024-02-29'],
      ['Last 3 months', '2023-12-01', '2024-02-29'],
      ['Last 6 months', '2023-09-01', '2024-02-29'],
      ['Last 12 months', '2023-03-01', '2024-02-29'],
      ['Year to date', '2024-01-01', '2024-03-13'],
      ['Last year', '2023-01-01', '2023-12-31'],
    ]);
  });

  it('week set', () => {
    const links = fmt(quickLinks(chicago, 'week', now));
    expect(links.map((l) => l[0])).toEqual([
      'This week',
      'Last week',
      'Last 2 weeks',
      'Last 3 weeks',
      'Last 6 weeks',
      'Last 12 weeks',
      'Last 25 weeks',
      'Last 52 weeks',
      'Year to date',
    ]);
    expect(links[0]).toEqual(['This week', '2024-03-11', '2024-03-17']);
    expect(links[2]).toEqual(['Last 2 weeks', '2024-02-26', '2024-03-10']);
  });

  it('day and hour set; All Time for job reports; machine reports keep links of a week or less', () => {
    expect(fmt(quickLinks(chicago, 'day', now)).slice(0, 4)).toEqual([
      ['Today', '2024-03-13', '2024-03-13'],
      ['Yesterday', '2024-03-12', '2024-03-12'],
      ['Last 2 days', '2024-03-11', '2024-03-12'],
      ['Last 3 days', '2024-03-10', '2024-03-12'],
    ]);
    expect(quickLinks(chicago, 'hour', now).map((l) => l.label)).toEqual([
      'Today',
      'Yesterday',
      'Last 2 days',
      'Last 3 days',
      'This week',
      'Last week',
      'Last 2 weeks',
      'This month',
      'Last month',
    ]);
    const job = quickLinks(chicago, 'day', now, { allTime: true });
    expect(fmt(job).at(-1)).toEqual(['All Time', '2014-04-01', '2024-03-13']);
    // The week of the spring-forward change is 167 h long and still "a week".
    expect(quickLinks(chicago, 'day', now, { machineReport: true }).map((l) => l.label)).toEqual([
      'Today',
      'Yesterday',
      'Last 2 days',
      'Last 3 days',
      'This week',
      'Last week',
    ]);
  });

  it('week and month snapping', () => {
    const r = { start: iso('2024-03-13T15:00:00Z'), end: iso('2024-03-20T15:00:00Z') };
    const w = snapRange(chicago, r, 'week');
    expect([isoOf(w.start), isoOf(w.end)]).toEqual(['2024-03-11T05:00:00.000Z', '2024-03-25T05:00:00.000Z']);
    const m = snapRange(chicago, r, 'month');
    expect([isoOf(m.start), isoOf(m.end)]).toEqual(['2024-03-01T06:00:00.000Z', '2024-04-01T05:00:00.000Z']);
    const exact = snapRange(chicago, w, 'week');
    expect(exact).toEqual(w);
  });

  it.each([
    { report: 'downtime' as const, days: 31, ok: true },
    { report: 'downtime' as const, days: 32, ok: false },
    { report: 'parts' as const, days: 7, ok: true },
    { report: 'timeline' as const, days: 8, ok: false },
    { report: 'timelineList' as const, days: 1, ok: true },
    { report: 'timelineList' as const, days: 2, ok: false },
  ])('max range $report: $days days → $ok', ({ report, days, ok }) => {
    // Across the March DST change: counted in wall-clock days.
    const start = iso('2024-03-05T06:00:00Z');
    const end = fromWall('America/Chicago', (toWall('America/Chicago', start).day + days) as never, 0);
    expect(checkRange(chicago, { start, end }, report).ok).toBe(ok);
  });

  it('start must be before end; the picker max is start + the maximum range', () => {
    expect(checkRange(chicago, { start: now, end: now })).toMatchObject({
      ok: false,
      error: 'START_NOT_BEFORE_END',
    });
    expect(checkRange(chicago, { start: now, end: (now + 1) as EpochMs })).toEqual({ ok: true });
    expect(isoOf(maxRangeEnd(chicago, iso('2024-03-05T06:00:00Z'), 'parts'))).toBe(
      '2024-03-12T05:00:00.000Z',
    );
  });

  it('interval fallbacks', () => {
    expect(parseReportInterval('week')).toBe('week');
    expect(parseReportInterval('fortnight')).toBe('day');
    expect(parseReportInterval(null)).toBe('day');
    expect(parseReportInterval('shift')).toBe('day');
    expect(parseReportInterval('shift', ['hour', 'shift', 'day'])).toBe('shift');
    expect(chartLabelInterval('quarter')).toBe('hour');
    expect(chartLabelInterval('shift')).toBe('shift');
    expect(
      adoptServerInterval({ interval: 'hour', start: 1, end: 2 }, { interval: 'day', start: 0 }),
    ).toEqual({ interval: 'day', start: 0, end: 2 });
  });
});
