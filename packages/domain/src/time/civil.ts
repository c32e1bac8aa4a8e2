import type { Brand } from '../brand';

/**
 * A civil (calendar) date as a whole number of days since 1970-01-01, independent of any time zone.
 * Shop dates, shift effective dates and report labels use it, so dates are compared as numbers, never as
 * strings (STYLE.md "Two kinds of period encoded in one string type" is what we avoid).
 */
export type DayNumber = Brand<number, 'DayNumber'>;

export const dayNumber = (n: number): DayNumber => n as DayNumber;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 for a proleptic Gregorian year/month(1-12)/day. */
export function dayFromCivil(year: number, month: number, day: number): DayNumber {
  return dayNumber(Math.floor(Date.UTC(year, month - 1, day) / 86_400_000));
}

export interface CivilDate {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

export function civilFromDay(d: DayNumber): CivilDate {
  const date = new Date(d * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Parses 'YYYY-MM-DD' (or the date part of an ISO timestamp); throws on anything else. */
export function parseDay(text: string): DayNumber {
  const m = ISO_DATE.exec(text.slice(0, 10));
  if (!m) throw new RangeError(`Not a date (YYYY-MM-DD): ${text}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = dayFromCivil(y, mo, d);
  const back = civilFromDay(day);
  if (back.year !== y || back.month !== mo || back.day !== d)
    throw new RangeError(`Not a valid date: ${text}`);
  return day;
}

export function formatDay(d: DayNumber): string {
  const { year, month, day } = civilFromDay(d);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** reports-admin §3 Shift.byweekday: 0 = Monday … 6 = Sunday (ISO order, zero-based). */
export function isoWeekday(d: DayNumber): number {
  // 1970-01-01 was a Thursday (ISO weekday index 3).
  return (((d + 3) % 7) + 7) % 7;
}

export const addDays = (d: DayNumber, n: number): DayNumber => dayNumber(d + n);

/** The Monday of d's ISO week. */
export const startOfIsoWeek = (d: DayNumber): DayNumber => dayNumber(d - isoWeekday(d));

export function startOfMonth(d: DayNumber): DayNumber {
  const c = civilFromDay(d);
  return dayFromCivil(c.year, c.month, 1);
}

/** First day of the month `n` months after d's month (n may be negative). */
export function addMonths(monthStart: DayNumber, n: number): DayNumber {
  const c = civilFromDay(monthStart);
  const index = c.year * 12 + (c.month - 1) + n;
  return dayFromCivil(Math.floor(index / 12), (((index % 12) + 12) % 12) + 1, 1);
}

export function startOfQuarter(d: DayNumber): DayNumber {
  const c = civilFromDay(d);
  return dayFromCivil(c.year, Math.floor((c.month - 1) / 3) * 3 + 1, 1);
}

export function startOfYear(d: DayNumber): DayNumber {
  return dayFromCivil(civilFromDay(d).year, 1, 1);
}
