import { epochMs } from '../brand';
import type { Bucket, CompanyCalendar } from '../calendar/intervals';
import { rollupBuckets } from '../calendar/intervals';
import type { Efficiency } from '../metrics/oee';
import { efficiency } from '../metrics/oee';
import {
  expectedPartsNow,
  partsAheadBehind,
  percentOfGoal,
  productionRuntimeMs,
} from '../metrics/parts-goal';
import type { PartBehaviorFields } from '../metrics/production';
import { goodOf, partCountMultiplier } from '../metrics/production';
import type { Rollup, RollupSource, RollupSum } from '../rollup/rollup';
import { addMeasuresInto } from '../rollup/measures';
import { buildRollups, efficiencyTotals, sumRollups } from '../rollup/rollup';
import type { GoalStatus } from './status';
import { goalStatus, utilizationStatus } from './status';

// live-operations §2–§3: the figures a machine's dashboard tile and its workcenter card show, computed once
// here so the two cannot disagree, and with the same METRICS.md definitions the reports use for a range:
// utilization and OEE over the current window (METRICS.md §3), parts against goal of the running job
// (METRICS.md §4).

/** The job run on the machine, as the parts goal needs it. */
export interface LiveGoalRun extends PartBehaviorFields {
  /**
   * When the run started, its setup included: its parts count from there (the parts kept from setup are the
   * job's, decision 1020), as the jobs report counts a run. Absent: from the production start.
   */
  startAt?: number;
  /** When the run went into production (setup end); null while in setup. */
  productionStart: number | null;
  expectedCycleTime: number;
  /** 0 = no ideal cycle time: the run's time is out of Performance and the OEE tile has no standard. */
  idealCycleTime: number;
}

/** The company's goal (parts goal, OEE) and utilization percents (live-operations §4). */
export interface LiveLimits {
  warningPercent: number;
  failurePercent: number;
  utilizationWarningPercent: number;
  utilizationFailurePercent: number;
  /** The OEE dashboard's own cut-offs (reports-admin §3 warningpercent_oee, failurepercent_oee; decision 1087). */
  oeeWarningPercent?: number;
  oeeFailurePercent?: number;
}

export interface LiveFiguresInput {
  calendar: CompanyCalendar;
  /** The machine's stored facts, covering the window and the run's production up to `now`. */
  source: RollupSource;
  /** Start of the window the utilization and OEE cover (the current shift, else the company day). */
  windowStart: number;
  /** The open job run, or null when the machine is unscheduled. */
  run: LiveGoalRun | null;
  now: number;
  limits: LiveLimits;
}

/** METRICS.md §4 parts goal of the running job at `now`. */
export interface LivePartsGoal {
  scheduled: boolean;
  inSetup: boolean;
  multiplier: number;
  productionRuntimeMs: number;
  /**
   * Of the run since it started (setup parts less the setup removal, then production): parts counted + Σ
   * adjustment count, rejected, and good = total − rejected, as the jobs report counts the run (decision 1020).
   */
  totalParts: number;
  rejectedParts: number;
  goodParts: number;
  /** Whole parts expected now; null unscheduled, while in setup or without a cycle-time standard. */
  expectedParts: number | null;
  /** actual good / expected × 100; null while nothing is expected. */
  percent: number | null;
  /** good − expected: ahead (> 0) or behind (< 0); null while nothing is expected. */
  aheadBehind: number | null;
  status: GoalStatus;
}

/** The window's utilization and OEE figures as percents (0..100), as the tile and the card carry them. */
export interface LivePercents {
  utilization: number | null;
  oee: number | null;
  availability: number | null;
  performance: number | null;
  quality: number | null;
}

export interface LiveFigures {
  window: { start: number; end: number };
  /** METRICS.md §3 over the window, fractions as the reports carry them; null when the window is empty. */
  efficiency: Efficiency | null;
  /** ACTIVE time and T_all of the window (ms), and the downtime in it (every non-ACTIVE instant). */
  activeMs: number;
  durationMs: number;
  downtimeMs: number;
  /**
   * The same figures ×100. Utilization is a share of T_all (METRICS.md §3) and the company's utilization
   * percents are percents, so the status is judged on the percent, never on the fraction.
   */
  percents: LivePercents;
  utilizationStatus: 'success' | 'warning' | 'danger' | 'unavailable';
  goal: LivePartsGoal;
  /**
   * The OEE dashboard's status (live-operations §4): the goal status against the company's OEE warning and
   * failure percents (decision 1087), noJobStandards when the running job has no ideal cycle time (METRICS.md
   * §3: its Performance is unknown, never 0 %, decision 1003).
   */
  oeeStatus: GoalStatus;
}

/** The OEE tile's status from the parts goal status and the running job's ideal cycle time (decision 1003). */
export function oeeGoalStatus(run: Pick<LiveGoalRun, 'idealCycleTime'> | null, goal: GoalStatus): GoalStatus {
  if (run === null || goal === 'unavailable') return 'unavailable';
  return run.idealCycleTime > 0 ? goal : 'noJobStandards';
}

/**
 * Stored rollup rows that still hold (decision 1155): whole buckets, contiguous, over [from, to), with the facts
 * from `to` on (`tail`). The goal's sums then build rows from facts only before `from` (from the source) and from
 * `to` (from the tail): the same rows a build from the facts alone gives, since buckets never straddle an hour.
 */
export interface HeldRollups {
  rows: readonly Rollup[];
  from: number;
  to: number;
  tail: RollupSource;
  /**
   * sumRollups of `rows` over [from, to), when the caller has it already (kept between answers, decision 1191); it
   * must be the sum of exactly these rows.
   */
  sum?: RollupSum;
}

/**
 * Buckets already cut for one calendar, by range (decision 1191): the goals of many machines at one `now` cut the
 * same tail range (from the hour the rollup worker has not reached yet) again and again, and cutting is mostly the
 * calendar's shift occurrences. A caller makes one per answer (`bucketMemo`) and passes it to every liveGoal; a
 * memo of another calendar is not used. Mutated by liveGoal (ranges added).
 */
export interface BucketMemo {
  readonly calendar: CompanyCalendar;
  readonly byRange: Map<string, readonly Bucket[]>;
}

export const bucketMemo = (calendar: CompanyCalendar): BucketMemo => ({ calendar, byRange: new Map() });

/** The buckets of [from, to), from the memo when it has them for this calendar (and kept there). */
function bucketsOf(
  calendar: CompanyCalendar,
  from: number,
  to: number,
  memo: BucketMemo | undefined,
): readonly Bucket[] {
  const range = { start: epochMs(from), end: epochMs(to) };
  if (!memo || memo.calendar !== calendar) return rollupBuckets(calendar, range);
  const key = `${from}:${to}`;
  let buckets = memo.byRange.get(key);
  if (!buckets) {
    buckets = rollupBuckets(calendar, range);
    memo.byRange.set(key, buckets);
  }
  return buckets;
}

function sumOver(
  calendar: CompanyCalendar,
  source: RollupSource,
  start: number,
  end: number,
  memo?: BucketMemo,
): RollupSum | null {
  if (end <= start) return null;
  const range = { start: epochMs(start), end: epochMs(end) };
  return sumRollups(buildRollups(source, bucketsOf(calendar, start, end, memo)), range);
}

/**
 * sumOver with held rows (decision 1155): rows built from the facts before `held.from`, the held rows and rows built
 * from the tail from `held.to`. `shared` is what two sums of one goal (from the production start and from the run's
 * start) have in common, made once (decision 1191): the held rows' sum (every one of them starts inside both ranges)
 * and the tail's rows. The goal reads only counts and milliseconds (integers), so summing the held rows apart gives
 * the same figures as summing them in turn.
 */
function sumOverHeld(
  calendar: CompanyCalendar,
  source: RollupSource,
  start: number,
  end: number,
  shared: { held: RollupSum; tail: readonly Rollup[]; from: number },
  memo: BucketMemo | undefined,
): RollupSum | null {
  if (end <= start) return null;
  const range = { start: epochMs(start), end: epochMs(end) };
  const headEnd = Math.min(shared.from, end);
  const head = headEnd > start ? buildRollups(source, bucketsOf(calendar, start, headEnd, memo)) : [];
  const sum = sumRollups(head, range);
  addMeasuresInto(sum.all, shared.held.all);
  addMeasuresInto(sum.inShift, shared.held.inShift);
  const tail = sumRollups(shared.tail, range);
  addMeasuresInto(sum.all, tail.all);
  addMeasuresInto(sum.inShift, tail.inShift);
  return { ...sum, aligned: sum.aligned && shared.held.aligned && tail.aligned };
}

/** What the goal's two sums share: the held rows' sum and the tail's rows from `held.to` (the caller's `start`s are at or before `held.from`). */
function heldShared(
  calendar: CompanyCalendar,
  held: HeldRollups,
  now: number,
  memo: BucketMemo | undefined,
): { held: RollupSum; tail: readonly Rollup[]; from: number } {
  const tail = now > held.to ? buildRollups(held.tail, bucketsOf(calendar, held.to, now, memo)) : [];
  return {
    held:
      held.sum ?? sumRollups(held.rows, { start: epochMs(held.from), end: epochMs(Math.max(held.to, now)) }),
    tail,
    from: held.from,
  };
}

const percent = (fraction: number | null | undefined): number | null =>
  fraction == null ? null : fraction * 100;

/**
 * METRICS.md §4 from the run, the sum over its production so far (planned downtime) and the sum of its parts
 * (from its start, setup included; the production sum when not given).
 */
export function livePartsGoal(
  run: LiveGoalRun | null,
  runSum: RollupSum | null,
  now: number,
  limits: Pick<LiveLimits, 'warningPercent' | 'failurePercent'>,
  partsSum: RollupSum | null = runSum,
): LivePartsGoal {
  const inSetup = run != null && run.productionStart == null;
  const multiplier = run ? partCountMultiplier(run) : 1;
  const totalParts = partsSum ? partsSum.all.parts + partsSum.all.adjustmentCount : 0;
  const rejectedParts = partsSum ? partsSum.all.rejected : 0;
  const goodParts = goodOf(totalParts, rejectedParts);
  const runtime = productionRuntimeMs(run?.productionStart ?? null, now, runSum?.all.plannedDowntimeMs ?? 0);
  const expected = run && !inSetup ? expectedPartsNow(runtime, run.expectedCycleTime, multiplier) : null;
  const pct = percentOfGoal(goodParts, expected);
  return {
    scheduled: run != null,
    inSetup,
    multiplier,
    productionRuntimeMs: runtime,
    totalParts,
    rejectedParts,
    goodParts,
    expectedParts: expected,
    percent: pct,
    aheadBehind: expected == null ? null : partsAheadBehind(goodParts, expected),
    status: runGoalStatus(run, pct, runtime, limits),
  };
}

/** A run's goal status at `percent` of goal against a pair of cut-offs (parts goal or OEE, live-operations §4). */
function runGoalStatus(
  run: LiveGoalRun | null,
  percent: number | null,
  runtimeMs: number,
  limits: { warningPercent: number; failurePercent: number },
): GoalStatus {
  if (!run) return 'unavailable';
  return goalStatus({
    scheduled: true,
    hasJobStandards: run.expectedCycleTime > 0,
    percentOfGoal: percent,
    productionRuntimeMs: runtimeMs,
    warningPercent: limits.warningPercent,
    failurePercent: limits.failurePercent,
  });
}

/**
 * The parts goal of liveFigures alone (what a dashboard tile shows of them, decision 1146): the same sums, without
 * the window's utilization and OEE. `source` must cover the run from its start up to `now`.
 */
export function liveGoal(
  input: Omit<LiveFiguresInput, 'windowStart'> & {
    /** Stored rows from a bucket boundary at or after the production start (decision 1155); `source` covers
     * the run's start up to their `from`. */
    held?: HeldRollups | null;
    /** Buckets cut for other machines' goals at the same `now` (decision 1191). Mutated: ranges added. */
    memo?: BucketMemo;
  },
): LivePartsGoal {
  const { calendar, source, run, now, limits, held, memo } = input;
  const productionStart = run?.productionStart ?? null;
  const shared = held && productionStart != null ? heldShared(calendar, held, now, memo) : null;
  const sum = (from: number) =>
    shared
      ? sumOverHeld(calendar, source, from, now, shared, memo)
      : sumOver(calendar, source, from, now, memo);
  const runSum = productionStart != null ? sum(productionStart) : null;
  // The run's parts from its start (the parts kept from setup count; the setup removal is at the production
  // start), as the jobs report and the good-parts check count the run (decision 1020).
  const partsFrom = run?.startAt ?? productionStart;
  const partsSum = partsFrom != null && partsFrom !== productionStart ? sum(partsFrom) : runSum;
  return livePartsGoal(run, runSum, now, limits, partsSum);
}

/** A machine's live figures at `now` from its stored facts. */
export function liveFigures(input: LiveFiguresInput): LiveFigures {
  const { calendar, source, windowStart, run, now, limits } = input;
  const windowSum = sumOver(calendar, source, windowStart, now);
  const e = windowSum ? efficiency(efficiencyTotals(windowSum), { shiftFiltered: false }) : null;
  const durationMs = windowSum?.all.durationMs ?? 0;
  const activeMs = windowSum?.all.stateMs.ACTIVE ?? 0;
  const utilization = percent(e?.utilization);

  const goal = liveGoal(input);

  return {
    window: { start: windowStart, end: now },
    efficiency: e,
    activeMs,
    durationMs,
    downtimeMs: Math.max(0, durationMs - activeMs),
    percents: {
      utilization,
      oee: percent(e?.oee),
      availability: percent(e?.availability),
      performance: percent(e?.performance),
      quality: percent(e?.quality),
    },
    utilizationStatus:
      utilization == null
        ? 'unavailable'
        : utilizationStatus(utilization, {
            warningPercent: limits.utilizationWarningPercent,
            failurePercent: limits.utilizationFailurePercent,
          }),
    goal,
    oeeStatus: oeeGoalStatus(
      run,
      runGoalStatus(run, goal.percent, goal.productionRuntimeMs, {
        warningPercent: limits.oeeWarningPercent ?? limits.warningPercent,
        failurePercent: limits.oeeFailurePercent ?? limits.failurePercent,
      }),
    ),
  };
}
