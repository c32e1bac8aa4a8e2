import { dayFromCivil, epochMs, formatDay, isoWeekday, parseDay } from '@takt/domain';
import type { CompanyClock, EpochMs } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import {
  defaultRange,
  draftAfterApplied,
  formatRangeLabel,
  formatSlot,
  HOUR_SLOTS,
  isStale,
  maxRangeLabel,
  monthGrid,
  pickDay,
  pickHour,
  quickLinkId,
  quickLinkSetFor,
  quickLinksFor,
  rangeForHorizon,
  readRangeParams,
  selectModeFor,
  setField,
  slotOf,
  TIME_SLOTS,
  weekdayNames,
  writeRangeParams,
  yearGrid,
} from './model';
import type { AppliedRange, Selection } from './model';

const UTC: CompanyClock = { timezone: 'UTC' };
/** A 06:00 company day in Berlin, to see that boundaries follow the company day, not midnight UTC. */
const BERLIN: CompanyClock = {
  timezone: 'Europe/Berlin',
  currentTimeContext: { offset_millis: 6 * 3_600_000 },
};
const at = (iso: string): EpochMs => epochMs(Date.parse(iso));
const day = (iso: string) => parseDay(iso);
const iso = (t: number) => new Date(t).toISOString();

describe('horizons', () => {
  it.each([
    ['hour', 'hour', 'hour'],
    ['shift', 'day', 'day'],
    ['day', 'day', 'day'],
    ['week', 'week', 'week'],
    ['month', 'month', 'month'],
    ['quarter', 'month', 'month'],
  ] as const)('%s → mode %s, quick links %s', (h, mode, set) => {
    expect(selectModeFor(h)).toBe(mode);
    expect(quickLinkSetFor(h)).toBe(set);
  });

  it('offers the spec quick-link set of each horizon, from the domain', () => {
    const now = at('2026-11-25T12:00:00Z');
    expect(quickLinksFor(UTC, 'week', now).map((l) => l.label)).toEqual([
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
    expect(quickLinksFor(UTC, 'quarter', now)[0]?.label).toBe('This month');
    // Machine reports: one week or less.
    expect(quickLinksFor(UTC, 'day', now, { machineReport: true }).map((l) => l.label)).toEqual([
      'Today',
      'Yesterday',
      'Last 2 days',
      'Last 3 days',
      'This week',
      'Last week',
    ]);
    expect(quickLinkId('Last 2 weeks')).toBe('last-2-weeks');
  });
});

describe('time lists', () => {
  it('has 96 quarter-hour slots and 24 hours', () => {
    expect(TIME_SLOTS).toHaveLength(96);
    expect(formatSlot(TIME_SLOTS[0]!)).toBe('00:00');
    expect(formatSlot(TIME_SLOTS[1]!)).toBe('00:15');
    expect(formatSlot(TIME_SLOTS[95]!)).toBe('23:45');
    expect(HOUR_SLOTS).toHaveLength(24);
    expect(slotOf(6 * 3_600_000 + 7 * 60_000)).toBe(6 * 3_600_000);
  });
});

describe('calendars', () => {
  it('lays months out Monday first', () => {
    // November 2026 starts on a Sunday: the first row begins Monday 26 October.
    const weeks = monthGrid(dayFromCivil(2026, 11, 1));
    expect(formatDay(weeks[0]![0]!)).toBe('2026-10-26');
    expect(weeks.every((w) => isoWeekday(w[0]!) === 0 && w.length === 7)).toBe(true);
    expect(formatDay(weeks.at(-1)!.at(-1)!)).toBe('2026-12-06');
    expect(weeks).toHaveLength(6);
    expect(monthGrid(dayFromCivil(2021, 2, 1))).toHaveLength(4); // Feb 2021: Monday 1st, 28 days
  });

  it('lists the twelve months of a year and Monday-first day names', () => {
    expect(yearGrid(2026).map(formatDay).slice(0, 2)).toEqual(['2026-01-01', '2026-02-01']);
    expect(weekdayNames('en-US')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
  });
});

describe('pickDay', () => {
  const none: Selection = {
    start: at('2026-01-01T00:00:00Z'),
    end: at('2026-01-02T00:00:00Z'),
    anchor: null,
  };

  it('day mode: first click selects the company day, the second extends to the later day', () => {
    const one = pickDay(BERLIN, none, day('2026-11-10'), 'day');
    expect([iso(one.start), iso(one.end), one.anchor]).toEqual([
      '2026-11-10T05:00:00.000Z',
      '2026-11-11T05:00:00.000Z',
      day('2026-11-10'),
    ]);
    // Clicking an earlier day second still gives an ordered range.
    const two = pickDay(BERLIN, one, day('2026-11-08'), 'day');
    expect([iso(two.start), iso(two.end), two.anchor]).toEqual([
      '2026-11-08T05:00:00.000Z',
      '2026-11-11T05:00:00.000Z',
      null,
    ]);
  });

  it('week mode snaps to ISO weeks', () => {
    const one = pickDay(UTC, none, day('2026-11-25'), 'week'); // a Wednesday
    expect([iso(one.start), iso(one.end)]).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
    const two = pickDay(UTC, one, day('2026-12-02'), 'week');
    expect([iso(two.start), iso(two.end)]).toEqual(['2026-11-23T00:00:00.000Z', '2026-12-07T00:00:00.000Z']);
  });

  it('month mode snaps to months', () => {
    const one = pickDay(UTC, none, day('2026-02-01'), 'month');
    expect([iso(one.start), iso(one.end)]).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
    const two = pickDay(UTC, one, day('2026-04-01'), 'month');
    expect([iso(two.start), iso(two.end)]).toEqual(['2026-02-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z']);
  });
});

describe('fields and hours', () => {
  const r = { start: at('2026-11-10T00:00:00Z'), end: at('2026-11-11T00:00:00Z') };

  it('sets a field from a wall date and slot in the company zone', () => {
    const next = setField(BERLIN, r, 'end', day('2026-11-12'), 7.5 * 3_600_000);
    expect(iso(next.end)).toBe('2026-11-12T06:30:00.000Z');
    expect(next.start).toBe(r.start);
  });

  it('hour picker selects one hour, then extends to a later one', () => {
    const one = pickHour(UTC, r, 8 * 3_600_000, false);
    expect([iso(one.start), iso(one.end)]).toEqual(['2026-11-10T08:00:00.000Z', '2026-11-10T09:00:00.000Z']);
    const two = pickHour(UTC, one, 11 * 3_600_000, true);
    expect([iso(two.start), iso(two.end)]).toEqual(['2026-11-10T08:00:00.000Z', '2026-11-10T12:00:00.000Z']);
  });
});

describe('maxRangeLabel', () => {
  it.each([
    [1, '1 day'],
    [31, '31 days'],
    [7, '1 week'],
    [14, '2 weeks'],
  ])('%i → %s', (days, text) => expect(maxRangeLabel(days)).toBe(text));
});

describe('URL', () => {
  const now = at('2026-11-25T12:00:00Z');
  const defaults = { interval: 'day' as const };

  it('reads interval, start and end', () => {
    const q = new URLSearchParams('interval=week&start=1000&end=2000&group=g1');
    expect(readRangeParams(q, UTC, now, defaults)).toEqual({
      interval: 'week',
      start: 1000,
      end: 2000,
      quicklink: null,
    });
  });

  it('falls back to the 30-day default window and the default interval', () => {
    const q = new URLSearchParams('interval=fortnight&start=5&end=1');
    const r = readRangeParams(q, UTC, now, defaults);
    expect(r).toEqual({ interval: 'day', ...defaultRange(UTC, now), quicklink: null });
    expect([iso(r.start), iso(r.end)]).toEqual(['2026-10-26T00:00:00.000Z', '2026-11-26T00:00:00.000Z']);
  });

  it('recomputes a bookmarked quick link at the time it is opened', () => {
    const q = new URLSearchParams('interval=day&quicklink=yesterday&start=1&end=2');
    const r = readRangeParams(q, UTC, now, defaults);
    expect([iso(r.start), iso(r.end), r.quicklink]).toEqual([
      '2026-11-24T00:00:00.000Z',
      '2026-11-25T00:00:00.000Z',
      'yesterday',
    ]);
  });

  it('only accepts the horizons the report allows', () => {
    const q = new URLSearchParams('interval=shift');
    expect(readRangeParams(q, UTC, now, { interval: 'day', allowed: ['day', 'week'] }).interval).toBe('day');
  });

  it('writes interval, start and end and keeps other parameters', () => {
    const applied: AppliedRange = {
      interval: 'month',
      start: epochMs(10),
      end: epochMs(20),
      quicklink: null,
    };
    const out = writeRangeParams(new URLSearchParams('group=g1&quicklink=today'), applied);
    expect(out.toString()).toBe('group=g1&interval=month&start=10&end=20');
  });

  it('is stale while the draft differs', () => {
    const a: AppliedRange = { interval: 'day', start: epochMs(1), end: epochMs(2), quicklink: null };
    expect(isStale(a, { ...a })).toBe(false);
    expect(isStale(a, { ...a, interval: 'week' })).toBe(true);
    expect(isStale(a, { ...a, end: epochMs(3) })).toBe(true);
  });

  it('keeps unapplied changes when the page rebuilds a range ending now, and nothing else', () => {
    const seen: AppliedRange = { interval: 'day', start: epochMs(1), end: epochMs(60), quicklink: null };
    const nextMinute = { ...seen, start: epochMs(2), end: epochMs(120) };
    // Nothing changed by the user: the new minute replaces the draft.
    expect(draftAfterApplied(seen, nextMinute, { ...seen })).toEqual(nextMinute);
    // The horizon just picked stays; the ends follow the minute.
    expect(draftAfterApplied(seen, nextMinute, { ...seen, interval: 'week' })).toEqual({
      ...nextMinute,
      interval: 'week',
    });
    // Dates the user chose stay as chosen.
    const chosen = { ...seen, start: epochMs(5), end: epochMs(9) };
    expect(draftAfterApplied(seen, nextMinute, chosen)).toEqual(chosen);
    // Another horizon or quick link applied (Apply, back button, drill-down) replaces the draft.
    const other = { ...nextMinute, interval: 'month' as const };
    expect(draftAfterApplied(seen, other, { ...seen, interval: 'week' })).toEqual(other);
    const linked = { ...nextMinute, quicklink: 'today' };
    expect(draftAfterApplied(seen, linked, { ...seen, interval: 'week' })).toEqual(linked);
  });
});

describe('formatRangeLabel', () => {
  it('shows both ends on the company wall clock', () => {
    const r = { start: at('2026-11-10T05:00:00Z'), end: at('2026-11-11T05:00:00Z') };
    expect(formatRangeLabel(r, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe(
      '10 Nov 2026, 06:00 – 11 Nov 2026, 06:00',
    );
  });

  it('shows whole company days as days, the last one included, after the quick link', () => {
    const clock = { timezone: 'America/Chicago' };
    // Monday 2026-11-16 to Monday 2026-11-23, Chicago midnights (CST, UTC−6).
    const week = { start: at('2026-11-16T06:00:00Z'), end: at('2026-11-23T06:00:00Z') };
    const opts = { locale: 'en-US', timeZone: clock.timezone, clock };
    // ICU puts thin spaces around the range dash.
    const label = (r: typeof week, o: Parameters<typeof formatRangeLabel>[1]) =>
      formatRangeLabel(r, o).replace(/\s/g, ' ');
    expect(label(week, opts)).toBe('Nov 16 – 22, 2026');
    expect(label(week, { ...opts, quickLink: 'Last week' })).toBe('Last week: Nov 16 – 22, 2026');
    const day = { start: week.start, end: at('2026-11-17T06:00:00Z') };
    expect(label(day, opts)).toBe('Nov 16, 2026');
    // Not on day boundaries: both ends with their times.
    const hours = { start: at('2026-11-16T12:00:00Z'), end: at('2026-11-16T15:00:00Z') };
    expect(label(hours, opts)).toBe('Nov 16, 2026, 06:00 – Nov 16, 2026, 09:00');
  });
});

describe('rangeForHorizon', () => {
  const r = { start: at('2026-10-26T00:00:00Z'), end: at('2026-11-26T00:00:00Z') }; // Monday to a Thursday
  it.each([
    ['week', '2026-10-26T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['month', '2026-10-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['day', '2026-10-26T00:00:00.000Z', '2026-11-26T00:00:00.000Z'],
  ] as const)('%s', (h, start, end) => {
    const out = rangeForHorizon(UTC, r, h);
    expect([iso(out.start), iso(out.end)]).toEqual([start, end]);
  });
});
