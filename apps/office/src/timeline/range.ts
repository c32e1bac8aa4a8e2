import {
  companyDayStart,
  DAY_MS,
  epochMs,
  maxRangeEnd,
  shopDateOf,
  addDays,
  wallDurationMs,
} from '@takt/domain';
import type { CompanyClock, EpochMs } from '@takt/domain';
import type { Horizon } from '@takt/ui';

// The machine timeline's range in its URL (split from model.ts).

// ---- The range in the URL (reports-admin §5: at most 7 days; links older than 1 year hidden)

export const TIMELINE_HORIZONS: readonly Horizon[] = ['hour', 'day'];
export const TIMELINE_MAX_DAYS = 7;
/** reports-admin §9 "Timeline links hidden beyond 1 year". */
export const LINK_HORIZON_MS = 365 * DAY_MS;

export interface TimelineRange {
  start: EpochMs;
  end: EpochMs;
  interval: Horizon;
}

export const msParam = (v: string | null): number | null =>
  v != null && /^-?\d+$/.test(v) ? Number(v) : null;

/**
 * The range of a timeline URL: start and end as given (cut to 7 days on the company's wall clock), else
 * today on the company clock. The interval is hour or day (the picker's mode), hour by default.
 */
export function readTimelineRange(q: URLSearchParams, clock: CompanyClock, now: EpochMs): TimelineRange {
  const interval = TIMELINE_HORIZONS.find((h) => h === q.get('interval')) ?? 'hour';
  const start = msParam(q.get('start'));
  const end = msParam(q.get('end'));
  if (start == null || end == null || !(start < end)) {
    const today = shopDateOf(clock, now);
    return {
      start: companyDayStart(clock, today),
      end: companyDayStart(clock, addDays(today, 1)),
      interval,
    };
  }
  const s = epochMs(start);
  if (wallDurationMs(clock, { start: s, end: epochMs(end) }) > TIMELINE_MAX_DAYS * DAY_MS)
    return { start: s, end: maxRangeEnd(clock, s, 'timeline'), interval };
  return { start: s, end: epochMs(end), interval };
}

/** The URL of a timeline range (other parameters kept). */
export function writeTimelineRange(q: URLSearchParams, r: TimelineRange): URLSearchParams {
  const next = new URLSearchParams(q);
  next.set('start', String(r.start));
  next.set('end', String(r.end));
  next.set('interval', r.interval);
  next.delete('quicklink');
  return next;
}

/** reports-admin §5: links and selections older than 1 year are hidden or cleared. */
export const withinLinkHorizon = (t: number, now: number): boolean => t >= now - LINK_HORIZON_MS;

/**
 * Previous and next period of the same length. Previous is null (hidden) when it would start more than a year
 * back; next is disabled when the range's end is in the future (reports-admin §5).
 */
export function periodLinks(
  r: TimelineRange,
  now: number,
): { previous: TimelineRange | null; next: TimelineRange; nextDisabled: boolean } {
  const span = r.end - r.start;
  const previous = { ...r, start: epochMs(r.start - span), end: r.start };
  return {
    previous: withinLinkHorizon(previous.start, now) ? previous : null,
    next: { ...r, start: r.end, end: epochMs(r.end + span) },
    nextDisabled: r.end > now,
  };
}

/**
 * The timeline around an event (the Downtime report's "Selecting a row opens the timeline around the
 * event"): an hour either side, at least the event itself, at most 7 days; null past the 1-year horizon.
 */
export function timelineAround(
  event: { start: number; end: number | null },
  now: number,
): { start: number; end: number } | null {
  if (!withinLinkHorizon(event.start, now)) return null;
  const end = Math.min(event.end ?? now, event.start + TIMELINE_MAX_DAYS * DAY_MS - 2 * 3_600_000);
  return { start: event.start - 3_600_000, end: end + 3_600_000 };
}
