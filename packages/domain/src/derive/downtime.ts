import type { EpochMs } from '../brand';
import type { MachineState } from '../machine-state';
import { MACHINE_STATES } from '../machine-state';
import type { StateInterval } from './outputs';

// METRICS.md §1: downtime is every instant that is not ACTIVE; a downtime period is a maximal run of
// non-ACTIVE time.

export interface DowntimeRun {
  start: EpochMs;
  end: EpochMs;
  /** Still going on at the end of the intervals (the last interval was open). */
  open: boolean;
  /** Time by state inside the period (INACTIVE, FAULT, SETUP, UNAVAILABLE). */
  stateMs: Record<MachineState, number>;
}

/** Maximal runs of non-ACTIVE time in state intervals (sorted, tiling); gaps between intervals end a run. */
export function downtimePeriods(intervals: readonly StateInterval[]): DowntimeRun[] {
  const out: DowntimeRun[] = [];
  let current: DowntimeRun | null = null;
  for (const iv of intervals) {
    if (iv.state === 'ACTIVE' || (current && iv.start !== current.end)) {
      if (current) out.push(current);
      current = null;
      if (iv.state === 'ACTIVE') continue;
    }
    if (!current) {
      current = {
        start: iv.start,
        end: iv.end,
        open: false,
        stateMs: { ACTIVE: 0, SETUP: 0, INACTIVE: 0, FAULT: 0, UNAVAILABLE: 0 },
      };
    }
    current.end = iv.end;
    current.open = iv.open === true;
    current.stateMs[iv.state] += iv.end - iv.start;
  }
  if (current) out.push(current);
  return out;
}

/** Time by state inside [from, to) (the replay summary's stateMs, a machine report's bars). */
export function stateDurations(
  intervals: readonly StateInterval[],
  from: number,
  to: number,
): Record<MachineState, number> {
  const out = Object.fromEntries(MACHINE_STATES.map((s) => [s, 0])) as Record<MachineState, number>;
  for (const iv of intervals) {
    const a = Math.max(from, iv.start);
    const b = Math.min(to, iv.end);
    if (b > a) out[iv.state] += b - a;
  }
  return out;
}
