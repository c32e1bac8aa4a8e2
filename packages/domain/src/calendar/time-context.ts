import type { EpochMs } from '../brand';
import type { DayNumber } from '../time/civil';
import { addDays, dayNumber, parseDay } from '../time/civil';
import { fromWall, toWall } from '../time/zone';

/**
 * reports-admin §3 Company.currentTimeContext / futureTimeContext: when the company day starts, as an
 * offset from local midnight (offset_millis). A future context takes over from its effective date.
 */
export interface TimeContext {
  offset_millis: number;
  /** 'YYYY-MM-DD' shop date from which this context applies; null/absent for the current one. */
  effectivedate?: string | null;
}

/** The company's calendar basics: its IANA zone and its start-of-day contexts. */
export interface CompanyClock {
  timezone: string;
  currentTimeContext?: TimeContext | null;
  futureTimeContext?: TimeContext | null;
}

/**
 * Start-of-day offset in force on shop date `day`.
 * Decision 0103: the offset is applied as wall-clock time (a 06:00 day start stays 06:00 across DST).
 */
export function dayOffsetOn(clock: CompanyClock, day: DayNumber): number {
  const future = clock.futureTimeContext;
  if (future?.effectivedate && day >= parseDay(future.effectivedate)) return future.offset_millis;
  return clock.currentTimeContext?.offset_millis ?? 0;
}

/** The instant the company day `day` starts (local midnight + offset_millis as wall time). */
export function companyDayStart(clock: CompanyClock, day: DayNumber): EpochMs {
  return fromWall(clock.timezone, day, dayOffsetOn(clock, day));
}

/** [start, end) of company day `day`. 23 h or 25 h on DST change days; may differ on a context change. */
export function companyDayRange(clock: CompanyClock, day: DayNumber): { start: EpochMs; end: EpochMs } {
  return { start: companyDayStart(clock, day), end: companyDayStart(clock, addDays(day, 1)) };
}

/** The shop date (company day) that contains instant t. */
export function shopDateOf(clock: CompanyClock, t: EpochMs): DayNumber {
  let day = toWall(clock.timezone, t).day;
  // The offset can move the day start before or after local midnight; step until t is inside.
  while (t < companyDayStart(clock, day)) day = dayNumber(day - 1);
  while (t >= companyDayStart(clock, addDays(day, 1))) day = dayNumber(day + 1);
  return day;
}
