// METRICS.md §4 Parts goal.

/**
 * Production runtime of a job run at `now`: time since it went into production (setup excluded), less
 * planned downtime in that time. 0 before production starts.
 */
export function productionRuntimeMs(
  productionStart: number | null,
  now: number,
  plannedDowntimeMs: number,
): number {
  if (productionStart === null || now <= productionStart) return 0;
  return Math.max(0, now - productionStart - plannedDowntimeMs);
}

/**
 * expected parts now = ⌊ production runtime / expectedCycleTime ⌋ × partCountMultiplier (whole parts;
 * a fractional manycycles multiplier is floored after multiplying). null without a cycle-time standard.
 */
export function expectedPartsNow(
  runtimeMs: number,
  expectedCycleTimeMs: number,
  multiplier: number,
): number | null {
  if (!(expectedCycleTimeMs > 0)) return null;
  return Math.floor(Math.floor(runtimeMs / expectedCycleTimeMs) * multiplier);
}

/**
 * parts ahead (> 0) or behind (< 0) = actual good parts − expected parts now. Good parts count from 0
 * (METRICS.md §3: never negative), so a run can be at most its expected parts behind.
 */
export const partsAheadBehind = (actualGood: number, expected: number): number =>
  Math.max(0, actualGood) - expected;

/** percent of goal = actual / expected × 100, never negative; null when nothing (or nothing sane) is expected. */
export function percentOfGoal(actual: number, expected: number | null): number | null {
  if (expected === null || !(expected > 0)) return null;
  return (Math.max(0, actual) / expected) * 100;
}
