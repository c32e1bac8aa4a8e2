// The bounded-time rule (docs/decisions/0980-bounded-times.md). Every time a client or a machine sends is
// checked against a window around the server's clock. Pure: `now` is always a parameter.

const DAY_MS = 86_400_000;

/** reports-admin §7: "Earliest all-time job date 2014-04-01". Nothing the product stores happened before. */
export const EARLIEST_TIME_MS = Date.UTC(2014, 3, 1);
/** How far ahead of the server's clock a time that happened may be (a tablet or a controller running fast). */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** Planned times (schedules, shift dates, billing, trial expiry): at most about a year ahead (reports-admin §7). */
export const PLAN_AHEAD_MS = 366 * DAY_MS;
/**
 * Longest range of a report the spec leaves open (utilization, OEE, production, parts, cycles…): two years, as
 * the production reports already had it (decision 0801: 731 days and an hour, so a daylight-saving change
 * inside still fits) and as the event export reaches back (reports-admin §7 "minimum two years back").
 */
export const MAX_REPORT_SPAN_MS = 731 * DAY_MS + 3_600_000;
/** What a report range longer than MAX_REPORT_SPAN_MS answers (decision 0801's text). */
export const REPORT_SPAN_TOO_LONG = 'Select up to 2 years';

export type TimeKind = 'happened' | 'planned';

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The latest acceptable value of a time of `kind` at `now`. */
function latestTime(kind: TimeKind, now: number): number {
  return now + (kind === 'happened' ? CLOCK_SKEW_MS : PLAN_AHEAD_MS);
}

/**
 * Why `t` is outside the window of `kind` at `now` (a sentence naming `label`), or null when it is inside.
 * Non-numbers, fractions and values outside the window all answer a problem.
 */
export function timeProblem(
  label: string,
  t: unknown,
  now: number,
  kind: TimeKind = 'happened',
): string | null {
  if (typeof t !== 'number' || !Number.isFinite(t)) return `${label} must be a time in epoch milliseconds`;
  if (!Number.isInteger(t)) return `${label} must be a whole number of milliseconds`;
  if (t < EARLIEST_TIME_MS) return `${label} must not be before ${iso(EARLIEST_TIME_MS)}`;
  if (t > latestTime(kind, now))
    return kind === 'happened'
      ? `${label} must not be in the future`
      : `${label} must not be more than a year ahead`;
  return null;
}
