import { addDays, epochMs, formatDay, HOUR_MS, MINUTE_MS, shopDateOf } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import { t } from '@takt/ui';
import { missingField, setErrors } from './form';
import { dateInBounds, effectiveBounds, minutesToTime, TIME_STEP_MINUTES, timeToMinutes } from './shifts';

// Start of day (reports-admin §2 "Start-of-day (time context) change", §3 Company currentTimeContext and
// futureTimeContext { offset_millis, effectivedate }; decision 0703). offset_millis counts from local midnight
// and stays within 12 hours of it: a day that starts at 22:00 starts the evening before (-2 h).

/** GET /api/timecontext. */
export interface TimeContextAnswer {
  currentTimeContext: { offset_millis: number };
  futureTimeContext: { offset_millis: number; effectivedate: string } | null;
}

const HALF_DAY_MINUTES = 720;

/** The time of day a start-of-day offset means ('HH:MM'). */
export const offsetToTime = (offsetMs: number): string => minutesToTime(Math.round(offsetMs / MINUTE_MS));

/** 'HH:MM' → offset_millis: up to 12:00 the same day, later times the evening before. */
export function timeToOffset(text: string): number | null {
  const m = timeToMinutes(text);
  if (m === null) return null;
  return (m <= HALF_DAY_MINUTES ? m : m - 1440) * MINUTE_MS;
}

/** Whether the day starts the evening before the date it is named by. */
export const startsDayBefore = (offsetMs: number): boolean => offsetMs < 0;

/** The company's tomorrow ('YYYY-MM-DD'), from its calendar and the server's clock. */
export const companyTomorrow = (clock: CompanyClock, now: number): string =>
  formatDay(addDays(shopDateOf(clock, epochMs(now)), 1));

export interface DayForm {
  start: string;
  effectivedate: string;
}

export function dayErrors(f: DayForm, tomorrow: string) {
  const m = timeToMinutes(f.start);
  return setErrors({
    start:
      f.start.trim() === ''
        ? missingField(t('admin.day.start'))
        : m === null
          ? t('admin.shifts.timeInvalid')
          : m % TIME_STEP_MINUTES !== 0
            ? t('admin.shifts.timeStep')
            : null,
    effectivedate:
      f.effectivedate.trim() === ''
        ? missingField(t('admin.shifts.effectiveDate'))
        : dateInBounds(f.effectivedate, effectiveBounds(tomorrow))
          ? null
          : t('admin.shifts.effectiveRange'),
  });
}

/** PUT /api/timecontext. */
export const dayBody = (f: DayForm) => ({
  offset_millis: timeToOffset(f.start)!,
  effectivedate: f.effectivedate,
});

/** Sanity bound the API also keeps (reports-admin §3: within half a day of midnight). */
export const MAX_OFFSET_MS = 12 * HOUR_MS;
