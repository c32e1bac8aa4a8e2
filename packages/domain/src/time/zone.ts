import type { EpochMs } from '../brand';
import { DAY_MS, epochMs } from '../brand';
import type { DayNumber } from './civil';
import { dayNumber } from './civil';

// METRICS.md intro: the company time zone is applied only to find shift and day boundaries and to format.
// Everything here converts between epoch ms and wall-clock time of an IANA zone, DST-correct.

// date-fns-tz's getTimezoneOffset reads its Date argument as a wall time in the *system* zone, which is not
// the offset at an instant; the ECMA-402 Intl API (pure, in every runtime) gives that directly.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new RangeError(`Unknown time zone: ${tz}`);
    }
    formatters.set(tz, f);
  }
  return f;
}

/** Memo of offsets per zone and minute: zone transitions happen on whole minutes. Bounded in size. */
const offsetMemo = new Map<string, number>();
const OFFSET_MEMO_MAX = 200_000;

/** The offset of `tz` at the whole minute holding t, from Intl (the slow path, memoized). */
function minuteOffset(tz: string, t: number): number {
  const minute = Math.floor(t / 60_000);
  const key = `${tz}|${minute}`;
  const hit = offsetMemo.get(key);
  if (hit !== undefined) return hit;
  const at = minute * 60_000;
  const parts = formatterFor(tz).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const offset = wall - at;
  if (offsetMemo.size >= OFFSET_MEMO_MAX) offsetMemo.clear();
  offsetMemo.set(key, offset);
  return offset;
}

/**
 * Per zone and UTC day: the day's one offset, or NaN on a day with a transition. Calendars ask for offsets
 * millions of times per report (every bucket and shift edge), nearly always on days without a transition, so
 * one numeric lookup answers them; only transition days go to the per-minute memo. A day whose first and last
 * minute have the same offset has no transition: no zone changes its offset twice within 24 hours.
 */
const dayOffsets = new Map<string, Map<number, number>>();

/** Offset of `tz` from UTC at instant t, in ms (positive east of Greenwich). */
export function zoneOffset(tz: string, t: number): number {
  const day = Math.floor(t / DAY_MS);
  let days = dayOffsets.get(tz);
  if (!days) {
    days = new Map();
    dayOffsets.set(tz, days);
  }
  let offset = days.get(day);
  if (offset === undefined) {
    const first = minuteOffset(tz, day * DAY_MS);
    offset = first === minuteOffset(tz, (day + 1) * DAY_MS - 60_000) ? first : Number.NaN;
    days.set(day, offset);
  }
  return Number.isNaN(offset) ? minuteOffset(tz, t) : offset;
}

/** A wall-clock moment: a civil day plus milliseconds since that day's local midnight (may exceed a day). */
export interface WallTime {
  day: DayNumber;
  msOfDay: number;
}

/** The wall-clock day and time of instant t in tz. */
export function toWall(tz: string, t: EpochMs): WallTime {
  const local = t + zoneOffset(tz, t);
  const day = Math.floor(local / DAY_MS);
  return { day: dayNumber(day), msOfDay: local - day * DAY_MS };
}

/**
 * The instant at which the clocks in tz show `day` + `msOfDay` (msOfDay may be ≥ 24 h or negative; it
 * rolls into neighbouring days as wall time).
 * DST: a wall time that happens twice (fall back) resolves to the earlier instant; a wall time that never
 * happens (spring forward gap) is moved forward by the gap, like a clock set at that time would be, so the
 * mapping stays monotonic (02:30 on a spring-forward night is 03:30 new time).
 */
export function fromWall(tz: string, day: DayNumber, msOfDay: number): EpochMs {
  const wall = day * DAY_MS + msOfDay;
  const before = zoneOffset(tz, wall - DAY_MS);
  const after = zoneOffset(tz, wall + DAY_MS);
  const tBefore = wall - before;
  const tAfter = wall - after;
  const beforeValid = zoneOffset(tz, tBefore) === before;
  const afterValid = zoneOffset(tz, tAfter) === after;
  if (beforeValid && afterValid) return epochMs(Math.min(tBefore, tAfter));
  if (beforeValid) return epochMs(tBefore);
  if (afterValid) return epochMs(tAfter);
  // In the gap: neither offset maps back to this wall time. Use the offset in force before the gap.
  return epochMs(tBefore);
}

/** Local midnight of `day` in tz. */
export const startOfLocalDay = (tz: string, day: DayNumber): EpochMs => fromWall(tz, day, 0);
