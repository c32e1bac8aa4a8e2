import { epochMs, shiftDefinitionFromEntity, shiftOccurrences } from '@takt/domain';
import type { CompanyClock, ShiftEntityVersionLike } from '@takt/domain';

// live-operations §2 "Categorize Downtime": Current Shift and Previous Shift. Online the server's current
// shift (GET /api/shifts/current) says where the current shift starts; once that shift has ended while the
// tablet is offline, the floor finds the shift running now itself from the cached shift calendar, in the
// company's zone and start-of-day (currentTimeContext.offset_millis), as the server would.

const DAY_MS = 86_400_000;

export interface CachedShift {
  start: number;
  end: number;
}

interface ShiftEntityLike {
  id: string;
  name: string;
  current?: ShiftEntityVersionLike | null;
  latest?: ShiftEntityVersionLike | null;
}

const isShift = (v: unknown): v is ShiftEntityLike =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { id?: unknown }).id === 'string' &&
  typeof (v as { name?: unknown }).name === 'string';

/**
 * Where the list's two sections begin (live-operations §2 "Current Shift and Previous Shift"; the list covers
 * 24 h back, §9). `running`: a shift runs now and the first section is it. Between shifts the first section is
 * the time since the last shift ended and the second that shift. `currentStart` null: no shift known at all,
 * every period in the first section. `previousStart` -Infinity: the previous shift's start is unknown (no
 * calendar cached), so everything older counts under it. Periods that ended before `previousStart` are older
 * than the previous shift and are not listed.
 */
export interface ShiftBounds {
  running: boolean;
  currentStart: number | null;
  previousStart: number;
}

export function shiftBounds(
  now: number,
  cached: CachedShift | null,
  shifts: unknown,
  clock: CompanyClock,
): ShiftBounds {
  const list = Array.isArray(shifts) ? shifts.filter(isShift) : null;
  if (!list) {
    if (cached && cached.start <= now && now < cached.end)
      return { running: true, currentStart: cached.start, previousStart: -Infinity };
    // No calendar cached: the shift that followed the cached one started when it ended.
    if (cached && now >= cached.end)
      return { running: true, currentStart: cached.end, previousStart: cached.start };
    return cached
      ? { running: true, currentStart: cached.start, previousStart: -Infinity }
      : { running: false, currentStart: null, previousStart: -Infinity };
  }
  const defs = list.map(shiftDefinitionFromEntity);
  const all = shiftOccurrences(clock, defs, epochMs(now - 3 * DAY_MS), epochMs(now + 3 * DAY_MS));
  const cur =
    cached && cached.start <= now && now < cached.end
      ? cached
      : (all.find((o) => o.start <= now && now < o.end) ?? null);
  // The shift that ended last before the current one began (or before now, between shifts).
  const before = cur ? cur.start : now;
  const prev = all
    .filter((o) => o.end <= before)
    .reduce<{ start: number; end: number } | null>((a, o) => (!a || o.end > a.end ? o : a), null);
  if (cur) return { running: true, currentStart: cur.start, previousStart: prev ? prev.start : cur.start };
  return prev
    ? { running: false, currentStart: prev.end, previousStart: prev.start }
    : { running: false, currentStart: null, previousStart: -Infinity };
}
