import type { EpochMs } from '../brand';
import { MINUTE_MS } from '../brand';
import type { DayNumber } from '../time/civil';
import { addDays, isoWeekday, parseDay } from '../time/civil';
import { fromWall } from '../time/zone';
import type { CompanyClock } from './time-context';
import { shopDateOf } from './time-context';

/**
 * reports-admin §3 Shift version: one set of shift times, effective from a shop date.
 * Offsets are minutes after local midnight of the shop date the shift starts on (decision 0103), applied as
 * wall-clock time so a 22:00–06:00 shift is 9 h on a fall-back night and 7 h on a spring-forward night.
 * An end at or before the start means the shift ends the next day (overnight shift).
 */
export interface ShiftVersion {
  startoffsetminutes: number;
  endoffsetminutes: number;
  /** Days the shift starts on: 0 = Monday … 6 = Sunday. */
  byweekday: readonly number[];
  /** 'YYYY-MM-DD': first shop date this version applies to. */
  effectivedate: string;
  /** 'YYYY-MM-DD': first shop date on which the shift no longer runs (termination), or null. */
  terminationdate?: string | null;
}

export interface ShiftDefinition {
  id: string;
  name: string;
  versions: readonly ShiftVersion[];
}

/** One concrete occurrence of a shift: [start, end) in epoch ms, on shop date `shopDate`. */
export interface ShiftOccurrence {
  shiftId: string;
  name: string;
  shopDate: DayNumber;
  start: EpochMs;
  end: EpochMs;
}

/** The version of a shift in force on `day`, or null when none is (not yet effective, or terminated). */
export function shiftVersionOn(shift: ShiftDefinition, day: DayNumber): ShiftVersion | null {
  let best: ShiftVersion | null = null;
  let bestDay = -Infinity;
  for (const v of shift.versions) {
    const eff = parseDay(v.effectivedate);
    if (eff <= day && eff > bestDay) {
      best = v;
      bestDay = eff;
    }
  }
  if (!best) return null;
  if (best.terminationdate && day >= parseDay(best.terminationdate)) return null;
  return best;
}

/** Length in minutes of a version, with overnight wrap (end ≤ start → next day). */
export function shiftLengthMinutes(v: Pick<ShiftVersion, 'startoffsetminutes' | 'endoffsetminutes'>): number {
  const end = v.endoffsetminutes <= v.startoffsetminutes ? v.endoffsetminutes + 1440 : v.endoffsetminutes;
  return end - v.startoffsetminutes;
}

function occurrenceOn(clock: CompanyClock, shift: ShiftDefinition, day: DayNumber): ShiftOccurrence | null {
  const v = shiftVersionOn(shift, day);
  if (!v || !v.byweekday.includes(isoWeekday(day))) return null;
  const startMin = v.startoffsetminutes;
  const endMin = startMin + shiftLengthMinutes(v);
  const start = fromWall(clock.timezone, day, startMin * MINUTE_MS);
  const end = fromWall(clock.timezone, day, endMin * MINUTE_MS);
  if (end <= start) return null;
  return { shiftId: shift.id, name: shift.name, shopDate: day, start, end };
}

/**
 * Every shift occurrence overlapping [from, to), sorted by start, clipped to the range and made
 * non-overlapping: where two shifts overlap, the one that started first keeps the time (decision 0103), so
 * shift time is never counted twice.
 */
export function shiftOccurrences(
  clock: CompanyClock,
  shifts: readonly ShiftDefinition[],
  from: EpochMs,
  to: EpochMs,
): ShiftOccurrence[] {
  if (to <= from) return [];
  // Shifts may start up to a day before the range's first shop date and last into it (overnight, offsets ≥ 24 h).
  const first = addDays(shopDateOf(clock, from), -2);
  const last = addDays(shopDateOf(clock, to), 1);
  const all: ShiftOccurrence[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    for (const s of shifts) {
      const o = occurrenceOn(clock, s, day);
      if (o && o.end > from && o.start < to) all.push(o);
    }
  }
  all.sort((a, b) => a.start - b.start || (a.shiftId < b.shiftId ? -1 : a.shiftId > b.shiftId ? 1 : 0));
  const out: ShiftOccurrence[] = [];
  let covered = from as number;
  for (const o of all) {
    const start = Math.max(o.start, covered, from);
    const end = Math.min(o.end, to);
    if (end <= start) continue;
    out.push({ ...o, start: start as EpochMs, end: end as EpochMs });
    covered = end;
  }
  return out;
}

/** reports-admin §3 Shift entity (current and latest versions) to the calendar's version list. */
export interface ShiftEntityVersionLike {
  startoffsetminutes: number;
  endoffsetminutes: number;
  byweekday: readonly number[];
  is_termination_set?: boolean;
  terminationdate?: string | null;
  effectivedate: string;
}
export function shiftDefinitionFromEntity(shift: {
  id: string;
  name: string;
  current?: ShiftEntityVersionLike | null;
  latest?: ShiftEntityVersionLike | null;
}): ShiftDefinition {
  const versions: ShiftVersion[] = [];
  for (const v of [shift.current, shift.latest]) {
    if (!v) continue;
    if (versions.some((x) => x.effectivedate === v.effectivedate)) continue;
    versions.push({
      startoffsetminutes: v.startoffsetminutes,
      endoffsetminutes: v.endoffsetminutes,
      byweekday: v.byweekday,
      effectivedate: v.effectivedate,
      terminationdate: v.is_termination_set === false ? null : (v.terminationdate ?? null),
    });
  }
  return { id: shift.id, name: shift.name, versions };
}
