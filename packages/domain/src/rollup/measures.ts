import type { EpochMs } from '../brand';
import type { MachineState } from '../machine-state';
import { MACHINE_STATES } from '../machine-state';
import { minNullable } from '../metrics/oee';

// A mergeable aggregate per machine per bucket. Buckets never straddle an hour or a shift
// boundary (calendar/intervals.ts rollupBuckets), so every report — hour, shift, day, week, month, quarter,
// shift-filtered or not, per machine, group or all — is a plain sum of rollups. Times are whole ms, so the
// sums are exact. Decision 0105.

/** Reason keys for downtime without an annotation type. Annotation type ids are used as they are. */
export const UNCATEGORIZED_REASON = 'uncategorized';
export const SETUP_REASON = 'setup';
/**
 * METRICS.md §1: UNAVAILABLE time inside a machine's monitored life (and time inside it with no stored state)
 * that no operator reason covers: unplanned downtime, kept apart from Uncategorized on every screen.
 */
export const NO_DATA_REASON = 'nodata';
export const NO_DATA_REASON_NAME = 'No data';
/** Rejects without a reason. */
export const UNCATEGORIZED_REJECT = 'uncategorized';

export type StateMs = Record<MachineState, number>;

export interface DowntimeMs {
  plannedMs: number;
  unplannedMs: number;
}

/** The additive measures of a piece of time. */
export interface RollupMeasures {
  /** The part of the bucket inside the machine's monitored life (METRICS.md §1–§2: T_all, T_shift). */
  durationMs: number;
  stateMs: StateMs;
  spindleMs: number;
  inCutMs: number;
  /** Downtime (every non-ACTIVE instant) split by planned value (METRICS.md §2, §5). */
  plannedDowntimeMs: number;
  unplannedDowntimeMs: number;
  /** By annotation type id, or 'setup' / 'uncategorized' / 'nodata'. */
  downtimeByReason: Record<string, DowntimeMs>;
  /** Machine cycles ending here. */
  cycles: number;
  idealMs: number;
  /**
   * ACTIVE time covered by a job run with an ideal cycle time: Performance's denominator (METRICS.md §3: run
   * time with no standard is left out of both sides of P, decision 1002).
   */
  standardRunMs: number;
  expectedMs: number;
  /** Parts counted by the machine (after part behaviors). */
  parts: number;
  /** Σ part adjustment count (corrections, rejects not counted by the machine, setup removals). */
  adjustmentCount: number;
  /** Σ scrapcount of scrap and non-conforming rejects. */
  rejected: number;
  /** Rejected parts by reject reason id. */
  rejectsByType: Record<string, number>;
  /** min expected part time of the runs and cycles here (0 = without standards), null = none. */
  minExpectedPartTime: number | null;
}

/** One rollup row: a machine × bucket. */
export interface Rollup extends RollupMeasures {
  machineId: string;
  start: EpochMs;
  end: EpochMs;
  /** The shift this bucket belongs to, or null outside shift time. */
  shiftId: string | null;
}

export const emptyStateMs = (): StateMs => ({ ACTIVE: 0, SETUP: 0, INACTIVE: 0, FAULT: 0, UNAVAILABLE: 0 });

export function emptyMeasures(): RollupMeasures {
  return {
    durationMs: 0,
    stateMs: emptyStateMs(),
    spindleMs: 0,
    inCutMs: 0,
    plannedDowntimeMs: 0,
    unplannedDowntimeMs: 0,
    downtimeByReason: {},
    cycles: 0,
    idealMs: 0,
    standardRunMs: 0,
    expectedMs: 0,
    parts: 0,
    adjustmentCount: 0,
    rejected: 0,
    rejectsByType: {},
    minExpectedPartTime: null,
  };
}

/**
 * A zeroed rollup row. Written as one literal with every field in a fixed order (no spread), so all rows
 * share one hidden class and summing a year of them stays a tight loop (bench/domain-rollups.ts).
/** Mutates `into`: adds `m`. Measures form a commutative monoid (sum, and min for minExpectedPartTime). */
export function addMeasuresInto(into: RollupMeasures, m: RollupMeasures): RollupMeasures {
  into.durationMs += m.durationMs;
  for (const s of MACHINE_STATES) into.stateMs[s] += m.stateMs[s];
  into.spindleMs += m.spindleMs;
  into.inCutMs += m.inCutMs;
  into.plannedDowntimeMs += m.plannedDowntimeMs;
  into.unplannedDowntimeMs += m.unplannedDowntimeMs;
  addDowntimeByReasonInto(into.downtimeByReason, m.downtimeByReason);
  into.cycles += m.cycles;
  into.idealMs += m.idealMs;
  into.standardRunMs += m.standardRunMs;
  into.expectedMs += m.expectedMs;
  into.parts += m.parts;
  into.adjustmentCount += m.adjustmentCount;
  into.rejected += m.rejected;
  for (const [k, v] of Object.entries(m.rejectsByType))
    into.rejectsByType[k] = (into.rejectsByType[k] ?? 0) + v;
  into.minExpectedPartTime = minNullable(into.minExpectedPartTime, m.minExpectedPartTime);
  return into;
}

/** Mutates `into`: adds the downtime of `byReason` reason by reason (as addMeasuresInto does). */
export function addDowntimeByReasonInto(
  into: Record<string, DowntimeMs>,
  byReason: Readonly<Record<string, DowntimeMs>>,
): Record<string, DowntimeMs> {
  for (const [k, v] of Object.entries(byReason)) {
    const d = (into[k] ??= { plannedMs: 0, unplannedMs: 0 });
    d.plannedMs += v.plannedMs;
    d.unplannedMs += v.unplannedMs;
  }
  return into;
}
