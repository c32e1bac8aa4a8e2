import { isValid, parse } from 'date-fns';
import { epochMs } from '../brand';
import type { EpochMs } from '../brand';
import { addDays, civilFromDay, dayFromCivil } from './civil';
import type { DayNumber } from './civil';

// Typed date and time entry (live-operations §5 "Date input: a typed date is parsed in formats L or l and kept
// only if valid. Time input: hours up to 12 (or 23), minutes and seconds up to 59, milliseconds up to 999";
// reports-admin §5 "Calendar disables dates outside min and max (default min one year back, max now).
// Date-time select marks invalid-min and invalid-max"). Decision 1092. Pure: `now` and the locale are
// parameters.

/**
 * The locale's L and l date formats as date-fns patterns, moment's meaning: L has two-digit day and month
 * (en-US MM/dd/yyyy, de-DE dd.MM.yyyy), l one digit where one is enough (M/d/yyyy); both a four-digit year, in
 * the locale's order and separators.
 */
export function dateEntryPatterns(locale = 'en-US'): { L: string; l: string } {
  const parts = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
    numberingSystem: 'latn',
  }).formatToParts(Date.UTC(2026, 10, 3));
  const token = (type: string, short: boolean) =>
    type === 'year' ? 'yyyy' : type === 'month' ? (short ? 'M' : 'MM') : short ? 'd' : 'dd';
  const build = (short: boolean) =>
    parts
      .map((p) =>
        p.type === 'literal'
          ? p.value.replace(/'/g, "''")
          : ['year', 'month', 'day'].includes(p.type)
            ? token(p.type, short)
            : '',
      )
      .join('');
  return { L: build(false), l: build(true) };
}

/** A pattern as users read it, moment style: MM/dd/yyyy → MM/DD/YYYY. */
export const patternLabel = (pattern: string): string => pattern.replace(/d/g, 'D').replace(/y/g, 'Y');

/** A day in the locale's L format (what the date field shows). */
export function formatDateEntry(day: DayNumber, locale = 'en-US'): string {
  const { year, month, day: d } = civilFromDay(day);
  const two = (n: number) => String(n).padStart(2, '0');
  return dateEntryPatterns(locale)
    .L.replace('yyyy', String(year).padStart(4, '0'))
    .replace('MM', two(month))
    .replace('dd', two(d));
}

/**
 * A typed date in format L or l of the locale, or null when it is neither or no such day exists (02/30/2026).
 * The year has four digits (a two-digit year is not guessed); day and month one or two.
 */
export function parseDateEntry(text: string, locale = 'en-US'): DayNumber | null {
  const typed = text.trim();
  if (!/^\D*\d{1,4}\D+\d{1,4}\D+\d{1,4}\D*$/.test(typed)) return null;
  const { L, l } = dateEntryPatterns(locale);
  const digitsOk = (pattern: string) => {
    const fields = typed.match(/\d+/g) ?? [];
    const tokens = pattern.match(/y+|M+|d+/g) ?? [];
    return (
      fields.length === tokens.length &&
      tokens.every((t, i) => (t.startsWith('y') ? fields[i]!.length === 4 : fields[i]!.length <= 2))
    );
  };
  for (const pattern of [L, l]) {
    if (!digitsOk(pattern)) continue;
    const d = parse(typed, pattern, new Date(2000, 0, 1));
    if (isValid(d)) return dayFromCivil(d.getFullYear(), d.getMonth() + 1, d.getDate());
  }
  return null;
}

/** Why a typed time was refused: its shape, or the field past its limit. */
export type TimeEntryProblem = 'format' | 'hours' | 'minutes' | 'seconds' | 'milliseconds' | 'meridiem';

export type TimeEntryResult = { ok: true; msOfDay: number } | { ok: false; problem: TimeEntryProblem };

/** live-operations §5: the highest value of each time field (hours 12 on a 12-hour clock, else 23). */
export const timeEntryLimits = (hour12: boolean) =>
  ({ hours: hour12 ? 12 : 23, minutes: 59, seconds: 59, milliseconds: 999 }) as const;

/**
 * A typed time of day: `H:mm`, `H:mm:ss` or `H:mm:ss.SSS`, on a 12-hour clock followed by AM or PM (hours 1 to
 * 12), else hours 0 to 23; minutes and seconds up to 59, milliseconds up to 999 (one to three digits).
 */
export function parseTimeEntry(text: string, hour12 = false): TimeEntryResult {
  const m = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,3}))?)?\s*([AaPp][Mm])?$/.exec(text.trim());
  if (!m) return { ok: false, problem: 'format' };
  const [, hh, mm, ss, ms, meridiem] = m;
  const limits = timeEntryLimits(hour12);
  const hours = Number(hh);
  if (hour12 !== (meridiem != null)) return { ok: false, problem: 'meridiem' };
  if (hours > limits.hours || (hour12 && hours < 1)) return { ok: false, problem: 'hours' };
  if (mm!.length !== 2 || Number(mm) > limits.minutes) return { ok: false, problem: 'minutes' };
  if (ss != null && (ss.length !== 2 || Number(ss) > limits.seconds))
    return { ok: false, problem: 'seconds' };
  const millis = ms == null ? 0 : Number(ms.padEnd(3, '0'));
  if (millis > limits.milliseconds) return { ok: false, problem: 'milliseconds' };
  const h24 = hour12 ? (hours % 12) + (/^[Pp]/.test(meridiem!) ? 12 : 0) : hours;
  return { ok: true, msOfDay: ((h24 * 60 + Number(mm)) * 60 + Number(ss ?? 0)) * 1000 + millis };
}

/** A time of day as the time field shows it: HH:mm, with seconds and milliseconds when they are not zero. */
export function formatTimeEntry(msOfDay: number, hour12 = false): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const totalSeconds = Math.floor(msOfDay / 1000);
  const ms = msOfDay % 1000;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor(totalSeconds / 60) % 60;
  const s = totalSeconds % 60;
  const hours = hour12 ? String(h % 12 === 0 ? 12 : h % 12) : two(h);
  let out = `${hours}:${two(m)}`;
  if (s !== 0 || ms !== 0) out += `:${two(s)}`;
  if (ms !== 0) out += `.${String(ms).padStart(3, '0')}`;
  return hour12 ? `${out} ${h < 12 ? 'AM' : 'PM'}` : out;
}

/** The earliest and latest time a date entry accepts. */
export interface DateBounds {
  min: EpochMs;
  max: EpochMs;
}

/** reports-admin §5, §9: by default from one year back (the same date and time of the previous year) to now. */
export function defaultDateBounds(now: EpochMs): DateBounds {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return { min: epochMs(d.getTime()), max: now };
}

/** reports-admin §5: the mark of a time outside the bounds, null inside (both ends included). */
export type BoundMark = 'invalid-min' | 'invalid-max';

export function boundMark(t: number, bounds: DateBounds): BoundMark | null {
  if (t < bounds.min) return 'invalid-min';
  if (t > bounds.max) return 'invalid-max';
  return null;
}

/**
 * A calendar day's mark: disabled when none of its time lies in the bounds. `dayStart` gives the instant a day
 * starts (the company day: calendar/time-context's companyDayStart).
 */
export function dayBoundMark(
  day: DayNumber,
  bounds: DateBounds,
  dayStart: (d: DayNumber) => number,
): BoundMark | null {
  if (dayStart(addDays(day, 1)) <= bounds.min) return 'invalid-min';
  if (dayStart(day) > bounds.max) return 'invalid-max';
  return null;
}
