import { addDays, formatDay, parseDay, shiftOverlapMessage, shiftOverlaps } from '@takt/domain';
import type { ShiftVersionView, ShiftView } from '@takt/domain';
import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { missingField, nameError, setErrors } from './form';

// Shifts (reports-admin §2 "Shifts", §3 Shift, §4 "effective from a date at least tomorrow, edited as a new
// pending version, terminated, termination undone, pending change deleted; terminated hidden by default",
// §5 "effective date required when times or days change, from tomorrow to 1 month ahead; at least one
// weekday", §9 "New shift defaults to 8 hours starting at last shift end", "Time pickers 5-minute steps").

/** GET /api/shifts/defaults: 8 hours from the last shift's end, effective tomorrow (the company's day). */
export interface ShiftDefaults {
  name: string;
  startoffsetminutes: number;
  endoffsetminutes: number;
  byweekday: number[];
  effectivedate: string;
}

export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export const WEEKDAY_LABEL: readonly MessageKey[] = [
  'admin.weekday.0',
  'admin.weekday.1',
  'admin.weekday.2',
  'admin.weekday.3',
  'admin.weekday.4',
  'admin.weekday.5',
  'admin.weekday.6',
];

/** reports-admin §9 "Time pickers 5-minute steps". */
export const TIME_STEP_MINUTES = 5;

const DAY_MINUTES = 1440;

/** Minutes after midnight (offsets reach 48 h) as the time of day 'HH:MM'. */
export function minutesToTime(minutes: number): string {
  const m = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** 'HH:MM' → minutes after midnight, or null when it is not a time. */
export function timeToMinutes(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return null;
  return h * 60 + min;
}

/** The version the list shows: the one in force today, or the latest (a pending change) when asked. */
export const shownVersion = (s: ShiftView, context: 'current' | 'latest'): ShiftVersionView | null =>
  context === 'latest' ? (s.latest ?? s.current) : (s.current ?? s.latest);

/** A pending change: a latest version that starts after the one in force (or the shift has not started). */
export const pendingVersion = (s: ShiftView): ShiftVersionView | null =>
  s.latest && (s.current === null || s.latest.effectivedate !== s.current.effectivedate) ? s.latest : null;

/** 'Mon, Tue, Wed' */
export const daysText = (days: readonly number[]): string =>
  [...new Set(days)]
    .sort((a, b) => a - b)
    .map((d) => t(WEEKDAY_LABEL[d]!))
    .join(', ');

/** '22:00–06:00' */
export const timesText = (v: Pick<ShiftVersionView, 'startoffsetminutes' | 'endoffsetminutes'>): string =>
  `${minutesToTime(v.startoffsetminutes)}–${minutesToTime(v.endoffsetminutes)}`;

/** From tomorrow to one month ahead (the API allows up to today + 31 days). */
export function effectiveBounds(tomorrow: string): { min: string; max: string } {
  return { min: tomorrow, max: formatDay(addDays(parseDay(tomorrow), 30)) };
}

export function dateInBounds(text: string, bounds: { min: string; max: string }): boolean {
  // 'YYYY-MM-DD' dates compare by day number, never as strings (STYLE.md).
  try {
    const d = parseDay(text);
    return d >= parseDay(bounds.min) && d <= parseDay(bounds.max);
  } catch {
    return false;
  }
}

export interface ShiftForm {
  name: string;
  start: string;
  end: string;
  days: number[];
  effectivedate: string;
}

export const newShiftForm = (d: ShiftDefaults): ShiftForm => ({
  name: d.name,
  start: minutesToTime(d.startoffsetminutes),
  end: minutesToTime(d.endoffsetminutes),
  days: [...d.byweekday],
  effectivedate: d.effectivedate,
});

/** Editing starts from the latest version: a new change replaces a pending one (decision 0704). */
export const shiftFormOf = (s: ShiftView, tomorrow: string): ShiftForm => {
  const v = s.latest ?? s.current;
  return {
    name: s.name,
    start: minutesToTime(v?.startoffsetminutes ?? 0),
    end: minutesToTime(v?.endoffsetminutes ?? 0),
    days: [...(v?.byweekday ?? [])],
    effectivedate: tomorrow,
  };
};

/** Whether the times or days differ from `v` (then the change needs an effective date, §5). */
export function timesChanged(f: ShiftForm, v: ShiftVersionView | null): boolean {
  if (!v) return true;
  const same = (a: readonly number[], b: readonly number[]) =>
    [...new Set(a)].sort().join(',') === [...new Set(b)].sort().join(',');
  return (
    timeToMinutes(f.start) !== v.startoffsetminutes % DAY_MINUTES ||
    timeToMinutes(f.end) !== v.endoffsetminutes % DAY_MINUTES ||
    !same(f.days, v.byweekday)
  );
}

function timeError(text: string): string | null {
  const m = timeToMinutes(text);
  if (m === null) return t('admin.shifts.timeInvalid');
  if (m % TIME_STEP_MINUTES !== 0) return t('admin.shifts.timeStep');
  return null;
}

/** The form's problems; `needsDate`: a new shift, or an edit of the times or days. */
export function shiftErrors(f: ShiftForm, needsDate: boolean, bounds: { min: string; max: string }) {
  const start = timeError(f.start);
  const end = timeError(f.end);
  return setErrors({
    name: nameError(f.name),
    start,
    end:
      end ??
      (!start && timeToMinutes(f.start) === timeToMinutes(f.end) ? t('admin.shifts.emptyTimes') : null),
    days: f.days.length === 0 ? t('admin.shifts.noDays') : null,
    effectivedate: !needsDate
      ? null
      : f.effectivedate.trim() === ''
        ? missingField(t('admin.shifts.effectiveDate'))
        : dateInBounds(f.effectivedate, bounds)
          ? null
          : t('admin.shifts.effectiveRange'),
  });
}

const times = (f: ShiftForm) => ({
  startoffsetminutes: timeToMinutes(f.start)!,
  endoffsetminutes: timeToMinutes(f.end)!,
  byweekday: [...new Set(f.days)].sort((a, b) => a - b),
});

/** POST /api/shifts. */
export const createShiftBody = (f: ShiftForm) => ({
  name: f.name.trim(),
  ...times(f),
  effectivedate: f.effectivedate,
});

/** PUT /api/shifts/:id: a new name applies at once; new times or days as a version from the effective date. */
export const updateShiftBody = (f: ShiftForm, latest: ShiftVersionView | null) => ({
  name: f.name.trim(),
  ...(timesChanged(f, latest) ? { ...times(f), effectivedate: f.effectivedate } : {}),
});

export type ShiftStatus =
  | { kind: 'terminated'; date: string }
  | { kind: 'ending'; date: string }
  | { kind: 'notStarted'; date: string }
  | { kind: 'changing'; date: string }
  | { kind: 'running' };

/** What the status column says about a shift (reports-admin §4 Shift states). */
export function shiftStatus(s: ShiftView): ShiftStatus {
  const end = s.latest?.terminationdate ?? null;
  if (s.terminated) return { kind: 'terminated', date: s.current?.terminationdate ?? end ?? '' };
  if (end) return { kind: 'ending', date: end };
  if (!s.current && s.latest) return { kind: 'notStarted', date: s.latest.effectivedate };
  const pending = pendingVersion(s);
  if (pending) return { kind: 'changing', date: pending.effectivedate };
  return { kind: 'running' };
}

/**
 * The warning the shift form shows while its times overlap another running shift (decision 1050), or null.
 * Saving with it shown keeps the overlap (the body then carries allowOverlap).
 */
export function overlapWarning(
  f: ShiftForm,
  shift: ShiftView | null,
  all: readonly ShiftView[],
): string | null {
  if (timeToMinutes(f.start) === null || timeToMinutes(f.end) === null || f.days.length === 0) return null;
  const others = all.flatMap((s) =>
    s.id !== shift?.id && !s.terminated && s.latest && !s.latest.is_termination_set
      ? [{ ...s.latest, id: s.id, name: s.name }]
      : [],
  );
  const found = shiftOverlaps({ name: f.name, ...times(f) }, others);
  return found.length > 0 ? shiftOverlapMessage(found) : null;
}
