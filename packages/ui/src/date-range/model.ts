import {
  addDays,
  addMonths,
  civilFromDay,
  companyDayStart,
  dayFromCivil,
  DAY_MS,
  epochMs,
  formatDay,
  fromWall,
  HOUR_MS,
  quickLinks,
  shopDateOf,
  snapRange,
  startOfIsoWeek,
  startOfMonth,
  toWall,
} from '@takt/domain';
import type {
  CompanyClock,
  DayNumber,
  EpochMs,
  QuickLink,
  QuickLinkOptions,
  QuickLinkSet,
  TimeRange,
} from '@takt/domain';

// The date range picker's pure rules (reports-admin §2 "Shared report tools"). Dates, quick links and
// snapping come from packages/domain (decision 0104); this module only maps them onto the picker's modes,
// its calendar grids and time lists, and the URL.

/** Report horizons (the `interval` query parameter, reports-admin §2 "Common query parameters"). */
export const HORIZONS = ['hour', 'shift', 'day', 'week', 'month', 'quarter'] as const;
export type Horizon = (typeof HORIZONS)[number];

/** Picker select modes: day, week and month, plus hour (which adds the hour picker). */
export type SelectMode = 'hour' | 'day' | 'week' | 'month';

export function selectModeFor(horizon: Horizon): SelectMode {
  switch (horizon) {
    case 'hour':
      return 'hour';
    case 'shift':
    case 'day':
      return 'day';
    case 'week':
      return 'week';
    case 'month':
    case 'quarter':
      return 'month';
  }
}

/** Which quick-link set of reports-admin §2 a horizon shows. */
export function quickLinkSetFor(horizon: Horizon): QuickLinkSet {
  const mode = selectModeFor(horizon);
  return mode;
}

/** reports-admin §9: 15-minute time-of-day list, 96 slots per day. */
export const SLOT_MS = 15 * 60_000;
export const TIME_SLOTS: readonly number[] = Array.from({ length: 96 }, (_, i) => i * SLOT_MS);
export const HOUR_SLOTS: readonly number[] = Array.from({ length: 24 }, (_, i) => i * HOUR_MS);

/** 'HH:MM' of a wall-clock offset into the day. */
export function formatSlot(msOfDay: number): string {
  const minutes = Math.floor(msOfDay / 60_000);
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** The slot at or before a wall-clock offset (a 06:07 day start shows as 06:00 in the list). */
export const slotOf = (msOfDay: number): number => Math.floor(msOfDay / SLOT_MS) * SLOT_MS;

/** Monday-first weeks covering the month that starts on `monthStart` (4 to 6 rows of 7 days). */
export function monthGrid(monthStart: DayNumber): DayNumber[][] {
  const first = startOfMonth(monthStart);
  const next = addMonths(first, 1);
  const weeks: DayNumber[][] = [];
  for (let w = startOfIsoWeek(first); w < next; w = addDays(w, 7))
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(w, i)));
  return weeks;
}

/** The twelve month starts of a year (the year calendar of month mode). */
export function yearGrid(year: number): DayNumber[] {
  return Array.from({ length: 12 }, (_, i) => dayFromCivil(year, i + 1, 1));
}

/** Short day names Monday to Sunday in a locale (1970-01-05 was a Monday). */
export function weekdayNames(locale?: string): string[] {
  const f = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => f.format(new Date((4 + i) * DAY_MS)));
}

export function monthName(monthStart: DayNumber, locale?: string, style: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(
    new Date(monthStart * DAY_MS),
  );
}

/**
 * The picker's working selection. `anchor` is the first clicked day of a two-click range (null when the
 * next click starts a new range).
 */
export interface Selection extends TimeRange {
  anchor: DayNumber | null;
}

/** The selected days [from, to] (inclusive) as a range in the mode's units, snapped by the domain. */
function daysToRange(clock: CompanyClock, from: DayNumber, to: DayNumber, mode: SelectMode): TimeRange {
  const raw = { start: companyDayStart(clock, from), end: companyDayStart(clock, addDays(to, 1)) };
  // Week mode snaps to ISO weeks, month mode to months (reports-admin §2); day and hour keep whole days.
  return mode === 'week' || mode === 'month' ? snapRange(clock, raw, mode) : raw;
}

/**
 * A click on day (or month start) `day`: the first click selects that unit and becomes the anchor; the
 * second extends the range to the later of the two units and clears the anchor.
 */
export function pickDay(clock: CompanyClock, sel: Selection, day: DayNumber, mode: SelectMode): Selection {
  if (sel.anchor == null) return { ...daysToRange(clock, day, day, mode), anchor: day };
  const from = Math.min(sel.anchor, day) as DayNumber;
  const to = Math.max(sel.anchor, day) as DayNumber;
  const lastDay = mode === 'month' ? addDays(addMonths(startOfMonth(to), 1), -1) : to;
  return { ...daysToRange(clock, from, lastDay, mode), anchor: null };
}

/** Sets the start or end field from a wall date and time of day, in the company zone. */
export function setField(
  clock: CompanyClock,
  range: TimeRange,
  which: 'start' | 'end',
  day: DayNumber,
  msOfDay: number,
): TimeRange {
  const t = fromWall(clock.timezone, day, msOfDay);
  return which === 'start' ? { start: t, end: range.end } : { start: range.start, end: t };
}

/** The wall date and slot a field shows. */
export function fieldOf(clock: CompanyClock, t: EpochMs): { day: DayNumber; msOfDay: number } {
  const w = toWall(clock.timezone, t);
  return { day: w.day, msOfDay: w.msOfDay };
}

/**
 * Hour picker (hour mode only): the first pick selects that hour of the start day, a second later pick
 * extends the end to the end of that hour.
 */
export function pickHour(clock: CompanyClock, range: TimeRange, hourMs: number, extend: boolean): TimeRange {
  const day = toWall(clock.timezone, range.start).day;
  const start = fromWall(clock.timezone, day, hourMs);
  if (extend && start >= range.start) return { start: range.start, end: epochMs(start + HOUR_MS) };
  return { start, end: epochMs(start + HOUR_MS) };
}

/** The quick links of a horizon (machine reports: one week or less; job reports: All Time). */
export function quickLinksFor(
  clock: CompanyClock,
  horizon: Horizon,
  now: EpochMs,
  opts: QuickLinkOptions = {},
): QuickLink[] {
  return quickLinks(clock, quickLinkSetFor(horizon), now, opts);
}

/** A quick link's URL id: 'Last 2 weeks' → 'last-2-weeks'. */
export const quickLinkId = (label: string): string => label.toLowerCase().replace(/\s+/g, '-');

/** 'Select up to 7 days' (reports-admin §2): the maximum range in whole days or weeks. */
export function maxRangeLabel(days: number): string {
  if (days % 7 === 0 && days >= 7) {
    const weeks = days / 7;
    return weeks === 1 ? '1 week' : `${weeks} weeks`;
  }
  return days === 1 ? '1 day' : `${days} days`;
}

/** What a report shows: the applied range, read from and written to the URL. */
export interface AppliedRange extends TimeRange {
  interval: Horizon;
  /** The quick link the range came from (so a bookmark of "This week" stays this week), or null. */
  quicklink: string | null;
}

/** reports-admin §9: default report window 30 days, ending with today (company days). */
export const DEFAULT_WINDOW_DAYS = 30;

export function defaultRange(clock: CompanyClock, now: EpochMs): TimeRange {
  const today = shopDateOf(clock, now);
  return {
    start: companyDayStart(clock, addDays(today, -DEFAULT_WINDOW_DAYS)),
    end: companyDayStart(clock, addDays(today, 1)),
  };
}

const toMs = (v: string | null): EpochMs | null => {
  if (v == null || !/^-?\d+$/.test(v)) return null;
  return epochMs(Number(v));
};

/**
 * The applied range of a report URL (interval, start, end, quicklink). A known quick link wins over start
 * and end, recomputed at `now`; a missing or broken range falls back to the default window.
 */
export function readRangeParams(
  query: URLSearchParams,
  clock: CompanyClock,
  now: EpochMs,
  defaults: { interval: Horizon; allowed?: readonly Horizon[] },
): AppliedRange {
  const allowed = defaults.allowed ?? HORIZONS;
  const asked = query.get('interval');
  const interval = allowed.find((h) => h === asked) ?? defaults.interval;
  const ql = query.get('quicklink');
  if (ql) {
    const link = quickLinksFor(clock, interval, now).find((l) => quickLinkId(l.label) === ql);
    if (link) return { interval, start: link.start, end: link.end, quicklink: ql };
  }
  const start = toMs(query.get('start'));
  const end = toMs(query.get('end'));
  if (start != null && end != null && start < end) return { interval, start, end, quicklink: null };
  return { interval, ...defaultRange(clock, now), quicklink: null };
}

/** reports-admin §2: Apply writes interval, start and end into the URL; other parameters are kept. */
export function writeRangeParams(query: URLSearchParams, r: AppliedRange): URLSearchParams {
  const next = new URLSearchParams(query);
  next.set('interval', r.interval);
  next.set('start', String(r.start));
  next.set('end', String(r.end));
  if (r.quicklink) next.set('quicklink', r.quicklink);
  else next.delete('quicklink');
  return next;
}

/** The view is stale while the draft differs from what is applied (reports-admin §2). */
export function isStale(applied: AppliedRange, draft: AppliedRange): boolean {
  return (
    applied.interval !== draft.interval ||
    applied.start !== draft.start ||
    applied.end !== draft.end ||
    applied.quicklink !== draft.quicklink
  );
}

/**
 * The draft once the page applies a new range. A range that ends now is rebuilt by the page every minute: when only
 * its ends moved (same horizon, same quick link or none) and the user has unapplied changes, they are kept (the
 * horizon just picked, other dates), the untouched ends following the new minute. Anything else the page applies (Apply,
 * the back button, a drill-down link) replaces the draft.
 */
export function draftAfterApplied(
  seen: AppliedRange,
  applied: AppliedRange,
  draft: AppliedRange,
): AppliedRange {
  const rolled = seen.interval === applied.interval && seen.quicklink === applied.quicklink;
  if (!rolled || !isStale(seen, draft)) return applied;
  const sameEnds = draft.start === seen.start && draft.end === seen.end;
  return sameEnds ? { ...draft, start: applied.start, end: applied.end } : draft;
}

/** 'YYYY-MM-DD' of a field, for `<input type="date">`. */
export const dayInputValue = (day: DayNumber): string => formatDay(day);

/** The month start shown first: the month of the selection's start. */
export function visibleMonthOf(clock: CompanyClock, t: EpochMs): DayNumber {
  return startOfMonth(shopDateOf(clock, t));
}

export const yearOf = (day: DayNumber): number => civilFromDay(day).year;

/** The range as the picker's button shows it, on the company's wall clock: '26 Oct 2026, 00:00 – …'. */
export function formatRangeLabel(
  r: TimeRange,
  opts: { locale?: string; timeZone: string; clock?: CompanyClock; quickLink?: string | null },
): string {
  // Whole company days read as days, the last one included ("Nov 16 – 22, 2026", not "… Nov 23, 00:00"),
  // after the quick link's name when one is chosen.
  if (opts.clock && r.end > r.start) {
    const first = shopDateOf(opts.clock, r.start);
    const last = shopDateOf(opts.clock, epochMs(r.end - 1));
    if (
      companyDayStart(opts.clock, first) === r.start &&
      companyDayStart(opts.clock, addDays(last, 1)) === r.end
    ) {
      const d = new Intl.DateTimeFormat(opts.locale, {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      });
      const days = first === last ? d.format(first * DAY_MS) : d.formatRange(first * DAY_MS, last * DAY_MS);
      return opts.quickLink ? `${opts.quickLink}: ${days}` : days;
    }
  }
  const f = new Intl.DateTimeFormat(opts.locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: opts.timeZone,
  });
  return `${f.format(r.start)} – ${f.format(r.end)}`;
}

/** The hour picker marks the hours of the start day that lie inside the range. */
export function hourSelected(clock: CompanyClock, r: TimeRange, hourMs: number): boolean {
  const day = toWall(clock.timezone, r.start).day;
  const t = fromWall(clock.timezone, day, hourMs);
  return t >= r.start && t < r.end;
}

/** Choosing the week or month horizon snaps the draft to whole ISO weeks or months (reports-admin §2). */
export function rangeForHorizon(clock: CompanyClock, r: TimeRange, horizon: Horizon): TimeRange {
  const mode = selectModeFor(horizon);
  return mode === 'week' || mode === 'month' ? snapRange(clock, r, mode) : { start: r.start, end: r.end };
}
