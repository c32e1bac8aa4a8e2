import type { DurationMs, EpochMs } from '../brand';
import { HOUR_MS } from '../brand';
import type { DayNumber } from '../time/civil';
import { addDays, addMonths, formatDay, startOfIsoWeek, startOfMonth, startOfQuarter } from '../time/civil';
import type { ShiftDefinition } from './shifts';
import { shiftOccurrences } from './shifts';
import type { CompanyClock } from './time-context';
import { companyDayStart, shopDateOf } from './time-context';

// reports-admin §3 Interval and §2 report horizons: hour, shift, day, ISO week, month, quarter, each labelled
// with its shop date (the company day it starts on).

export const REPORT_INTERVAL_UNITS = ['hour', 'shift', 'day', 'week', 'month', 'quarter'] as const;
export type ReportIntervalUnit = (typeof REPORT_INTERVAL_UNITS)[number];

/** The company calendar: zone, start-of-day contexts and shifts. */
export interface CompanyCalendar extends CompanyClock {
  shifts: readonly ShiftDefinition[];
}

export interface TimeRange {
  start: EpochMs;
  end: EpochMs;
}

/** reports-admin §3 Interval: start, end, shopDate, labelTime, duration, unitDuration. */
export interface ReportInterval {
  start: EpochMs;
  end: EpochMs;
  /** 'YYYY-MM-DD' company day the unit starts on. */
  shopDate: string;
  /** Where the label points: the unit's own start (before clipping to the range). */
  labelTime: EpochMs;
  /** Length of the part inside the requested range. */
  duration: DurationMs;
  /** Length of the whole unit (23 h / 25 h on DST days, 28–31 days for months). */
  unitDuration: DurationMs;
  /** For shift intervals. */
  shiftId?: string;
  shiftName?: string;
}

/** Start of the unit containing shop date `day`, as a shop date. */
function unitStartDay(unit: 'day' | 'week' | 'month' | 'quarter', day: DayNumber): DayNumber {
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      return startOfIsoWeek(day);
    case 'month':
      return startOfMonth(day);
    case 'quarter':
      return startOfQuarter(day);
  }
}

function nextUnitDay(unit: 'day' | 'week' | 'month' | 'quarter', start: DayNumber): DayNumber {
  switch (unit) {
    case 'day':
      return addDays(start, 1);
    case 'week':
      return addDays(start, 7);
    case 'month':
      return addMonths(start, 1);
    case 'quarter':
      return addMonths(start, 3);
  }
}

function clipped(range: TimeRange, start: number, end: number, shopDate: DayNumber): ReportInterval | null {
  const s = Math.max(start, range.start);
  const e = Math.min(end, range.end);
  if (e <= s) return null;
  return {
    start: s as EpochMs,
    end: e as EpochMs,
    shopDate: formatDay(shopDate),
    labelTime: start as EpochMs,
    duration: (e - s) as DurationMs,
    unitDuration: (end - start) as DurationMs,
  };
}

/** Hours of company day `day`: steps of one hour from the day start; the last may be shorter. */
function hoursOfDay(clock: CompanyClock, day: DayNumber): { start: number; end: number }[] {
  const start = companyDayStart(clock, day);
  const end = companyDayStart(clock, addDays(day, 1));
  const out: { start: number; end: number }[] = [];
  for (let t: number = start; t < end; t += HOUR_MS) out.push({ start: t, end: Math.min(t + HOUR_MS, end) });
  return out;
}

/**
 * The report intervals of `unit` covering `range`, clipped to it. Hours are counted from the company day
 * start (so a day of 23 h has 23 hours, and hours nest in days even with a 06:30 day start).
 */
export function reportIntervals(
  calendar: CompanyCalendar,
  range: TimeRange,
  unit: ReportIntervalUnit,
): ReportInterval[] {
  if (range.end <= range.start) return [];
  const out: ReportInterval[] = [];
  if (unit === 'shift') {
    for (const o of shiftOccurrences(calendar, calendar.shifts, range.start, range.end)) {
      out.push({
        start: o.start,
        end: o.end,
        shopDate: formatDay(o.shopDate),
        labelTime: o.start,
        duration: (o.end - o.start) as DurationMs,
        unitDuration: (o.end - o.start) as DurationMs,
        shiftId: o.shiftId,
        shiftName: o.name,
      });
    }
    return out;
  }
  const firstDay = shopDateOf(calendar, range.start);
  const lastDay = shopDateOf(calendar, (range.end - 1) as EpochMs);
  if (unit === 'hour') {
    for (let d = firstDay; d <= lastDay; d = addDays(d, 1)) {
      for (const h of hoursOfDay(calendar, d)) {
        const i = clipped(range, h.start, h.end, d);
        if (i) out.push(i);
      }
    }
    return out;
  }
  for (let d = unitStartDay(unit, firstDay); d <= lastDay; d = nextUnitDay(unit, d)) {
    const i = clipped(
      range,
      companyDayStart(calendar, d),
      companyDayStart(calendar, nextUnitDay(unit, d)),
      d,
    );
    if (i) out.push(i);
  }
  return out;
}

/** A rollup bucket: a piece of time wholly inside one hour and wholly inside or outside one shift. */
export interface Bucket {
  start: EpochMs;
  end: EpochMs;
  /** The shift occurrence the bucket belongs to, or null outside shift time. */
  shiftId: string | null;
}

/**
 * Rollup buckets for [range): edges are the union of the company's hour boundaries (which include every
 * day, week, month and quarter boundary) and its shift boundaries, so every report
 * interval, shift-filtered or not, is an exact union of buckets.
 */
export function rollupBuckets(calendar: CompanyCalendar, range: TimeRange): Bucket[] {
  const hours = reportIntervals(calendar, range, 'hour');
  const shifts = shiftOccurrences(calendar, calendar.shifts, range.start, range.end);
  const out: Bucket[] = [];
  let si = 0;
  for (const h of hours) {
    let t: number = h.start;
    while (t < h.end) {
      while (si < shifts.length && (shifts[si] as { end: number }).end <= t) si++;
      const s = shifts[si];
      let end: number = h.end;
      let shiftId: string | null = null;
      if (s && s.start <= t) {
        shiftId = s.shiftId;
        end = Math.min(end, s.end);
      } else if (s && s.start < end) {
        end = s.start;
      }
      out.push({ start: t as EpochMs, end: end as EpochMs, shiftId });
      t = end;
    }
  }
  return out;
}
