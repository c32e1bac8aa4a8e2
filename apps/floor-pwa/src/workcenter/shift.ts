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

/** Where the current shift started, or null when no shift runs now (the list then has one section). */
export function currentShiftStart(
  now: number,
  cached: CachedShift | null,
  shifts: unknown,
  clock: CompanyClock,
): number | null {
  if (cached && cached.start <= now && now < cached.end) return cached.start;
  const list = Array.isArray(shifts) ? shifts.filter(isShift) : null;
  if (!list) {
    // No calendar cached: the shift that followed the cached one started when it ended.
    return cached && now >= cached.end ? cached.end : (cached?.start ?? null);
  }
  const defs = list.map(shiftDefinitionFromEntity);
  const found = shiftOccurrences(clock, defs, epochMs(now - 3 * DAY_MS), epochMs(now + 3 * DAY_MS)).find(
    (o) => o.start <= now && now < o.end,
  );
  return found ? found.start : null;
}
