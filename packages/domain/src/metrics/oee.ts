import { goodOf } from './production';

// METRICS.md §2–§3: the time bases and the OEE factors. Inputs are sums over a range (rollup totals or a
// direct computation); nothing here rounds (METRICS.md §6: rounding happens only when formatting).

/** Sums over a range R (optionally shift-filtered) that every efficiency figure is computed from. */
export interface EfficiencyTotals {
  /** T_all: length of R, or with a shift filter the selected shifts' time inside R. */
  allTimeMs: number;
  /** T_shift: time inside R covered by the shift calendar (the selected shifts when filtered). */
  shiftTimeMs: number;
  /** T_pdt: planned downtime inside shift time (METRICS.md §2, §5). */
  plannedDowntimeMs: number;
  /** T_run: ACTIVE time inside planned production time. */
  runTimeMs: number;
  /** Σ idealCycleTime of the cycles completed in shift time (METRICS.md §3 Performance). */
  idealTimeMs: number;
  /**
   * The part of T_run covered by a job run with an ideal cycle time: P's denominator. Run time with no
   * standard (no job, or no ideal cycle time) is not slow: it is left out of both sides of P (METRICS.md §3,
   * decision 1002).
   */
  standardRunTimeMs: number;
  /** Parts counted by the machine + Σ part adjustment count, in shift time (METRICS.md §3 Quality). */
  totalParts: number;
  /** Σ scrapcount of scrap and non-conforming rejects, in shift time. */
  rejectedParts: number;
  /** ACTIVE, spindle-rotating and in-cut time over all of T_all (utilization, METRICS.md §3). */
  inCycleMs: number;
  spindleMs: number;
  inCutMs: number;
  /** Smallest expected part time of the runs in range; 0 = a run without standards; null = no runs. */
  minExpectedPartTime: number | null;
}

/** reports-admin §3 Efficiency aggregate. Factors are fractions (0.888…), null renders as '-'. */
export interface Efficiency {
  oee: number | null;
  ooe: number | null;
  teep: number | null;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  minExpectedPartTime: number | null;
  /**
   * Some run time in the range has no standard, or a run in it has none (minExpectedPartTime 0): screens
   * show MISSING_STANDARDS_WARNING (METRICS.md §3, reports-admin §2).
   */
  missingStandards: boolean;
  /** Utilization (in-cycle), spindle-rotating and in-cut as fractions of T_all. */
  inCycle: number | null;
  spindleRotating: number | null;
  inCut: number | null;
  /** T_all in ms. */
  totalDuration: number;
  /** Same as inCycle (the utilization report's headline). */
  utilization: number | null;
}

/** METRICS.md §3: a factor whose denominator is 0 is null. */
export function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/** T_ppt = T_shift − T_pdt. */
export const plannedProductionTime = (
  t: Pick<EfficiencyTotals, 'shiftTimeMs' | 'plannedDowntimeMs'>,
): number => t.shiftTimeMs - t.plannedDowntimeMs;

/** A = T_run / T_ppt. */
export const availability = (t: EfficiencyTotals): number | null =>
  ratio(t.runTimeMs, plannedProductionTime(t));

/**
 * P = Σ ideal / run time with a standard; null when no run time has one (METRICS.md §3: never 0 %). Above 1
 * means the ideal is wrong: shown as is, never clamped.
 */
export const performance = (t: EfficiencyTotals): number | null => ratio(t.idealTimeMs, t.standardRunTimeMs);

/** METRICS.md §3: some run time lacks a standard, or a run in the range has none: show the warning. */
export const lacksStandards = (
  t: Pick<EfficiencyTotals, 'runTimeMs' | 'standardRunTimeMs' | 'minExpectedPartTime'>,
): boolean => t.runTimeMs > t.standardRunTimeMs || showsMissingStandardsWarning(t.minExpectedPartTime);

/**
 * Q = good / total, good = total − rejected. Within [0, 1] (METRICS.md §3: good parts are never negative; rows
 * stored before decision 0997 may reject more than was made); null without a positive total.
 */
export const quality = (t: EfficiencyTotals): number | null =>
  t.totalParts > 0 ? Math.min(1, goodOf(t.totalParts, t.rejectedParts) / t.totalParts) : null;

/** Product of factors; null as soon as one is null. */
export function product(...factors: (number | null)[]): number | null {
  let p = 1;
  for (const f of factors) {
    if (f === null) return null;
    p *= f;
  }
  return p;
}

export interface EfficiencyOptions {
  /** A shift filter is applied: OOE and TEEP are hidden (METRICS.md §3, reports-admin §2). */
  shiftFiltered: boolean;
}

/** Every efficiency figure for a range from its totals. */
export function efficiency(t: EfficiencyTotals, opts: EfficiencyOptions): Efficiency {
  const a = availability(t);
  const p = performance(t);
  const q = quality(t);
  const inCycle = ratio(t.inCycleMs, t.allTimeMs);
  return {
    oee: product(a, p, q),
    ooe: opts.shiftFiltered ? null : product(ratio(t.runTimeMs, t.shiftTimeMs), p, q),
    teep: opts.shiftFiltered ? null : product(ratio(t.runTimeMs, t.allTimeMs), p, q),
    availability: a,
    performance: p,
    quality: q,
    minExpectedPartTime: t.minExpectedPartTime,
    missingStandards: lacksStandards(t),
    inCycle,
    spindleRotating: ratio(t.spindleMs, t.allTimeMs),
    inCut: ratio(t.inCutMs, t.allTimeMs),
    totalDuration: t.allTimeMs,
    utilization: inCycle,
  };
}

/** reports-admin §2 OEE report: the warning shown when a run in range has no standards. */
export const MISSING_STANDARDS_WARNING =
  'One or more operations associated with this metric do not have operation standards applied. This metric may not be accurate.';

/** reports-admin §2: "If minExpectedPartTime is 0 a warning shows" (see also lacksStandards). */
export function showsMissingStandardsWarning(minExpectedPartTime: number | null): boolean {
  return minExpectedPartTime === 0;
}

export const emptyTotals = (): EfficiencyTotals => ({
  allTimeMs: 0,
  shiftTimeMs: 0,
  plannedDowntimeMs: 0,
  runTimeMs: 0,
  idealTimeMs: 0,
  standardRunTimeMs: 0,
  totalParts: 0,
  rejectedParts: 0,
  inCycleMs: 0,
  spindleMs: 0,
  inCutMs: 0,
  minExpectedPartTime: null,
});

/** Sum of two totals (min for minExpectedPartTime): totals are a commutative monoid. */
export function addTotals(a: EfficiencyTotals, b: EfficiencyTotals): EfficiencyTotals {
  const sum = { ...a };
  addTotalsInto(sum, b);
  return sum;
}

/** The totals that add (minExpectedPartTime takes the minimum). */
const SUMMED_TOTALS = [
  'allTimeMs',
  'shiftTimeMs',
  'plannedDowntimeMs',
  'runTimeMs',
  'idealTimeMs',
  'standardRunTimeMs',
  'totalParts',
  'rejectedParts',
  'inCycleMs',
  'spindleMs',
  'inCutMs',
] as const;

/** Mutates `into`: adds `b` to it (addTotals without a new object, for sums over many machines). */
export function addTotalsInto(into: EfficiencyTotals, b: EfficiencyTotals): void {
  for (const k of SUMMED_TOTALS) into[k] += b[k];
  into.minExpectedPartTime = minNullable(into.minExpectedPartTime, b.minExpectedPartTime);
}

/** The sums of the fields `keys` of two records, field by field. */
export function sumFields<K extends string>(
  a: Readonly<Record<K, number>>,
  b: Readonly<Record<K, number>>,
  keys: readonly K[],
): Record<K, number> {
  const sum = {} as Record<K, number>;
  for (const k of keys) sum[k] = a[k] + b[k];
  return sum;
}

export function minNullable(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}
