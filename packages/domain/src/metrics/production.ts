import type { EpochMs } from '../brand';
import type { MachineCycle } from '../derive/outputs';

// live-operations §3 JobMachine / reports-admin §3 job run: part behaviors and standards, applied to the
// machine's cycles. Decision 0102 explains the part-behavior arithmetic.

export const PART_BEHAVIORS = ['one', 'manyparts', 'manycycles'] as const;
export type PartBehavior = (typeof PART_BEHAVIORS)[number];

export const START_IN_SETUP_MODES = ['none', 'planned', 'unplanned'] as const;
export type StartInSetupMode = (typeof START_IN_SETUP_MODES)[number];

/** live-operations §9 defaults. */
export const DEFAULT_CYCLE_TIME_MS = 60_000;

/**
 * The longest cycle-time standard (decision 0998): 7 days. Longer is a typo or a probe (8.64e15 ms), never
 * a part; parts per hour would show 0.0 long before it.
 */
export const MAX_CYCLE_TIME_MS = 7 * 86_400_000;
/** A stored cycle-time standard of 0 means "no standard" (METRICS.md §3: not slow; the goal has none). */
export const NO_STANDARD_MS = 0;

export interface PartBehaviorFields {
  partBehavior: PartBehavior;
  /** manyparts: parts made by one cycle. */
  actualParts?: number | null;
  /** manycycles: `requiredCycles` cycles make `reportedParts` parts. */
  reportedParts?: number | null;
  requiredCycles?: number | null;
}

/** A job run on a machine with its standards, as the metrics need it. */
export interface RunStandards extends PartBehaviorFields {
  id: string;
  jobId: string | null;
  start: EpochMs;
  /** null while the run is going on. */
  end: EpochMs | null;
  /** When the run went into production (setup end); equals start when started in production. */
  productionStart: EpochMs | null;
  expectedCycleTime: number;
  idealCycleTime: number;
  startInSetup: StartInSetupMode;
}

/**
 * Parts per cycle (METRICS.md §3 partCountMultiplier): one → 1, manyparts → actualParts,
 * manycycles → reportedParts / requiredCycles (may be fractional; parts are still credited whole).
 */
export function partCountMultiplier(b: PartBehaviorFields): number {
  switch (b.partBehavior) {
    case 'one':
      return 1;
    case 'manyparts':
      return Math.max(1, b.actualParts ?? 1);
    case 'manycycles':
      return Math.max(1, b.reportedParts ?? 1) / Math.max(1, b.requiredCycles ?? 1);
  }
}

/**
 * Whole parts credited after `cycles` cycles of a run. manycycles: every requiredCycles-th cycle credits
 * reportedParts, so parts stay whole and additive (decision 0102).
 */
export function partsAfterCycles(b: PartBehaviorFields, cycles: number): number {
  if (b.partBehavior === 'manycycles') {
    const reported = Math.max(1, b.reportedParts ?? 1);
    const required = Math.max(1, b.requiredCycles ?? 1);
    return Math.floor(cycles / required) * reported;
  }
  return cycles * partCountMultiplier(b);
}

/** A machine cycle with its run's standards applied (live-operations §3 Cycle). */
export interface ProductionCycle extends MachineCycle {
  runId: string | null;
  jobId: string | null;
  /** Parts this cycle credits (whole). */
  parts: number;
  /** Per-cycle standards (ms); 0 when no run covers the cycle (no standard). */
  expectedCycleTime: number;
  idealCycleTime: number;
  /** Σ ideal time this cycle contributes to Performance: idealCycleTime × count, 0 for setup cycles. */
  idealMs: number;
  expectedMs: number;
}

/** Sorted by end without copying when already in order (the deriver emits cycles in end order). */
function byEnd(cycles: readonly MachineCycle[]): readonly MachineCycle[] {
  for (let i = 1; i < cycles.length; i++) {
    if ((cycles[i] as MachineCycle).end < (cycles[i - 1] as MachineCycle).end)
      return [...cycles].sort((a, b) => a.end - b.end);
  }
  return cycles;
}

function withStandards(c: MachineCycle, run: RunStandards | null, parts: number): ProductionCycle {
  // One literal in a fixed field order: the result rows share one hidden class.
  const expected = run ? run.expectedCycleTime : 0;
  const ideal = run ? run.idealCycleTime : 0;
  return {
    start: c.start,
    end: c.end,
    duration: c.duration,
    count: c.count,
    source: c.source,
    setup: c.setup,
    runId: run ? run.id : null,
    jobId: run ? run.jobId : null,
    parts,
    expectedCycleTime: expected,
    idealCycleTime: ideal,
    idealMs: c.setup ? 0 : ideal * c.count,
    expectedMs: c.setup ? 0 : expected * c.count,
  };
}

/**
 * Applies job standards to machine cycles (parts, part behaviors, multiplier).
 * Pass every cycle of the runs concerned from their start: manycycles credit depends on the cycle's
 * position in its run. A cycle belongs to the run covering its end timestamp (when runs touch, the later
 * one owns its start instant). Cycles outside any run count the machine's count as parts with no
 * standards (ideal 0, decision 0101). Cycles that end in setup add parts (removed later by the setup
 * removal adjustment) but no ideal time: setup is not run time (decision 0101).
 * `cyclesBefore`: for cycles that start later than a run (a report range starting mid-run), the count of the
 * run's cycles before the first one passed, so manycycles credit keeps its place in the run (decision 1022).
 */
export function applyStandards(
  cycles: readonly MachineCycle[],
  runs: readonly RunStandards[],
  cyclesBefore: ReadonlyMap<string, number> = new Map(),
): ProductionCycle[] {
  const sortedRuns = [...runs].sort((a, b) => a.start - b.start);
  // maxEnd[i]: the latest end among runs 0..i, to stop the backward search early.
  const maxEnd: number[] = [];
  for (const r of sortedRuns)
    maxEnd.push(Math.max(maxEnd[maxEnd.length - 1] ?? -Infinity, r.end ?? Infinity));
  const runAt = (t: number): RunStandards | null => {
    let lo = 0;
    let hi = sortedRuns.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sortedRuns[mid] as RunStandards).start <= t) lo = mid + 1;
      else hi = mid;
    }
    for (let j = lo - 1; j >= 0 && (maxEnd[j] as number) > t; j--) {
      const r = sortedRuns[j] as RunStandards;
      if (r.end === null || t < r.end) return r;
    }
    return null;
  };
  const cyclesInRun = new Map<string, number>();
  const out: ProductionCycle[] = [];
  for (const c of byEnd(cycles)) {
    const run = runAt(c.end);
    if (!run) {
      out.push(withStandards(c, null, c.count));
      continue;
    }
    const before = cyclesInRun.get(run.id) ?? cyclesBefore.get(run.id) ?? 0;
    const after = before + c.count;
    cyclesInRun.set(run.id, after);
    out.push(withStandards(c, run, partsAfterCycles(run, after) - partsAfterCycles(run, before)));
  }
  return out;
}

/** live-operations §3 Part adjustment, reduced to what the metrics use. */
export interface PartAdjustmentFact {
  adjustmenttime: EpochMs;
  /** Added to the machine's count (corrections, rejects not counted by the machine, setup removals). */
  count: number;
  /** Rejected parts (scrap or non-conforming); 0 for plain corrections. */
  scrapcount: number;
  /** 'scrap' | 'nonconform' for rejects, null for corrections. */
  rejectBehavior: 'scrap' | 'nonconform' | null;
  /** Reject reason (part adjustment type) id, for rejects by type. */
  categoryId: string | null;
}

/** METRICS.md §3 Quality counts. */
export interface QualityCounts {
  total: number;
  rejected: number;
  /** total − rejected, never below 0 (METRICS.md §3: good parts are never negative). */
  good: number;
  /** Parts rejected beyond the total (rejected − total when above 0): what a clamped `good` hides. */
  shortfall: number;
}

/**
 * METRICS.md §3 good = total − rejected, never negative: a reject that would take it below 0 is refused
 * when written (decision 0997), and data stored before that rule shows 0 good parts, not −9.
 */
export const goodOf = (total: number, rejected: number): number => Math.max(0, total - rejected);

/** total = machine parts + Σ count; rejected = Σ scrapcount of scrap and non-conforming rejects; good = total − rejected. */
export function qualityCounts(
  machineParts: number,
  adjustments: readonly PartAdjustmentFact[],
): QualityCounts {
  let total = machineParts;
  let rejected = 0;
  for (const a of adjustments) {
    total += a.count;
    if (a.rejectBehavior !== null) rejected += a.scrapcount;
  }
  return { total, rejected, good: goodOf(total, rejected), shortfall: Math.max(0, rejected - total) };
}
