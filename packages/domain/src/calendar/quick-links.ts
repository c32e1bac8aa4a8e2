import type { EpochMs } from '../brand';
import { DAY_MS } from '../brand';
import type { DayNumber } from '../time/civil';
import { addDays, addMonths, parseDay, startOfIsoWeek, startOfMonth, startOfYear } from '../time/civil';
import { fromWall, toWall } from '../time/zone';
import type { TimeRange } from './intervals';
import type { CompanyClock } from './time-context';
import { companyDayStart, shopDateOf } from './time-context';

// reports-admin §2 "Quick-link sets" and the date tools' snapping; §5 / live-operations §5 maximum ranges.
// Decision 0104: "This …" ends at the end of the current period; "Last N …" are the N whole periods before
// the current one; "Year to date" ends at the end of today.

export const QUICK_LINK_SETS = ['month', 'week', 'day', 'hour'] as const;
export type QuickLinkSet = (typeof QUICK_LINK_SETS)[number];

export interface QuickLink extends TimeRange {
  label: string;
}

/** reports-admin §9: earliest all-time job date. */
export const ALL_TIME_START_DATE = '2014-04-01';

const range = (clock: CompanyClock, label: string, from: DayNumber, to: DayNumber): QuickLink => ({
  label,
  start: companyDayStart(clock, from),
  end: companyDayStart(clock, to),
});

export interface QuickLinkOptions {
  /** Job reports add All Time, from 2014-04-01 (reports-admin §2). */
  allTime?: boolean;
  /** Machine reports only offer links of one week or less (reports-admin §2, live-operations §5). */
  machineReport?: boolean;
}

/** The quick links of a horizon at instant `now`, in the spec's order. */
export function quickLinks(
  clock: CompanyClock,
  set: QuickLinkSet,
  now: EpochMs,
  opts: QuickLinkOptions = {},
): QuickLink[] {
  const today = shopDateOf(clock, now);
  const tomorrow = addDays(today, 1);
  const week = startOfIsoWeek(today);
  const month = startOfMonth(today);
  const year = startOfYear(today);
  const months = (n: number, label: string) => range(clock, label, addMonths(month, -n), month);
  const weeks = (n: number, label: string) => range(clock, label, addDays(week, -7 * n), week);
  let links: QuickLink[];
  switch (set) {
    case 'month':
      links = [
        range(clock, 'This month', month, addMonths(month, 1)),
        months(1, 'Last month'),
        months(2, 'Last 2 months'),
        months(3, 'Last 3 months'),
        months(6, 'Last 6 months'),
        months(12, 'Last 12 months'),
        range(clock, 'Year to date', year, tomorrow),
        range(clock, 'Last year', addMonths(year, -12), year),
      ];
      break;
    case 'week':
      links = [
        range(clock, 'This week', week, addDays(week, 7)),
        weeks(1, 'Last week'),
        ...[2, 3, 6, 12, 25, 52].map((n) => weeks(n, `Last ${n} weeks`)),
        range(clock, 'Year to date', year, tomorrow),
      ];
      break;
    case 'day':
    case 'hour':
      links = [
        range(clock, 'Today', today, tomorrow),
        range(clock, 'Yesterday', addDays(today, -1), today),
        range(clock, 'Last 2 days', addDays(today, -2), today),
        range(clock, 'Last 3 days', addDays(today, -3), today),
        range(clock, 'This week', week, addDays(week, 7)),
        weeks(1, 'Last week'),
        weeks(2, 'Last 2 weeks'),
        range(clock, 'This month', month, addMonths(month, 1)),
        months(1, 'Last month'),
      ];
      break;
  }
  if (opts.allTime) links.push(range(clock, 'All Time', parseDay(ALL_TIME_START_DATE), tomorrow));
  if (opts.machineReport) links = links.filter((l) => wallDurationMs(clock, l) <= 7 * DAY_MS);
  return links;
}

/** Length of a range on the wall clock, so a week with a DST change is still exactly 7 days. */
export function wallDurationMs(clock: CompanyClock, r: TimeRange): number {
  const a = toWall(clock.timezone, r.start);
  const b = toWall(clock.timezone, r.end);
  return (b.day - a.day) * DAY_MS + (b.msOfDay - a.msOfDay);
}

/** reports-admin §2: week mode snaps to ISO week boundaries, month mode to month boundaries. */
export function snapRange(clock: CompanyClock, r: TimeRange, mode: 'day' | 'week' | 'month'): TimeRange {
  const unitStart = (d: DayNumber) =>
    mode === 'week' ? startOfIsoWeek(d) : mode === 'month' ? startOfMonth(d) : d;
  const next = (d: DayNumber) =>
    mode === 'week' ? addDays(d, 7) : mode === 'month' ? addMonths(d, 1) : addDays(d, 1);
  const start = companyDayStart(clock, unitStart(shopDateOf(clock, r.start)));
  const lastUnit = unitStart(shopDateOf(clock, Math.max(r.start, r.end - 1) as EpochMs));
  return { start, end: companyDayStart(clock, next(lastUnit)) };
}

/** Maximum ranges in days (live-operations §5 and §9, reports-admin §5 and §9). */
export const MAX_RANGE_DAYS = {
  downtime: 31,
  parts: 7,
  timeline: 7,
  /** Decision 0807: the overrides report reads raw observations, as the timeline does. */
  overrides: 7,
  timelineList: 1,
  machineQuickLinks: 7,
} as const;
export type RangeLimitedReport = keyof typeof MAX_RANGE_DAYS;

export type RangeCheck =
  { ok: true } | { ok: false; error: 'START_NOT_BEFORE_END' | 'RANGE_TOO_LONG'; message: string };

/** Date range Apply rules: start before end, and at most the report's maximum range (wall-clock days). */
export function checkRange(clock: CompanyClock, r: TimeRange, report?: RangeLimitedReport): RangeCheck {
  if (!(r.start < r.end))
    return { ok: false, error: 'START_NOT_BEFORE_END', message: 'Start must be before end.' };
  if (report) {
    const days = MAX_RANGE_DAYS[report];
    if (wallDurationMs(clock, r) > days * DAY_MS) {
      return {
        ok: false,
        error: 'RANGE_TOO_LONG',
        message: `Select up to ${days} ${days === 1 ? 'day' : 'days'}`,
      };
    }
  }
  return { ok: true };
}

/** The latest end allowed for a start (the picker's max): start + the maximum range on the wall clock. */
export function maxRangeEnd(clock: CompanyClock, start: EpochMs, report: RangeLimitedReport): EpochMs {
  const w = toWall(clock.timezone, start);
  const endDay = addDays(w.day, MAX_RANGE_DAYS[report]);
  // Same wall time, `days` later.
  return fromWall(clock.timezone, endDay, w.msOfDay);
}

// reports-admin §4 interval fallback rules.

export const REPORT_QUERY_INTERVALS = ['hour', 'shift', 'day', 'week', 'month', 'quarter'] as const;
export type ReportQueryInterval = (typeof REPORT_QUERY_INTERVALS)[number];

/** An interval query parameter: anything not allowed for this report falls back to day. */
export function parseReportInterval(
  value: string | null | undefined,
  allowed: readonly ReportQueryInterval[] = ['hour', 'day', 'week', 'month', 'quarter'],
): ReportQueryInterval {
  return allowed.find((a) => a === value) ?? 'day';
}

/** Chart interval labels accept hour, shift, day, week, month, otherwise hour. */
export function chartLabelInterval(
  value: string | null | undefined,
): 'hour' | 'shift' | 'day' | 'week' | 'month' {
  const ok = ['hour', 'shift', 'day', 'week', 'month'] as const;
  return ok.find((a) => a === value) ?? 'hour';
}

/** If the server answers with a different interval or range than asked, the page adopts the server's. */
export function adoptServerInterval<T extends { interval: string; start: number; end: number }>(
  asked: T,
  answered: Partial<T>,
): T {
  return {
    ...asked,
    interval: answered.interval ?? asked.interval,
    start: answered.start ?? asked.start,
    end: answered.end ?? asked.end,
  };
}
