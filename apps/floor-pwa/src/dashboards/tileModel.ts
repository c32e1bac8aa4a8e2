import { formatPartTime, performanceRingText, ringDegrees, tileView } from '@takt/domain';
import type { DashboardType, EpochMs, GoalStatus, TileInput, TileStatus } from '@takt/domain';
import type { PartsEntry, UtilizationEntry } from '@takt/domain';
import { t } from '@takt/ui';

// What one live-dashboard tile shows (live-operations §2, §3, §4), from the three feeds: the machine (5 s),
// its utilization and OEE (15 s) and its parts against goal (15 s). Pure: the tile only renders this.

/** A tile's machine fields (GET /api/dashboard element). */
export interface TileMachine extends TileInput {
  id: string;
  name: string;
  progress: number | null;
  expectedParts: number | null;
  actualParts: number | null;
  setupSince: number | null;
  jobId: string | null;
  jobScheduleGroupId: string | null;
}

export interface TileRing {
  /** Percent drawn (100 = one lap); the domain caps the sweep at 405°. */
  percent: number;
  degrees: number;
  /** Big text in the middle: "87.5%", or the performance ring's "N Parts Behind". */
  main: string;
  /** Small text under it: "of N expected", or null. */
  sub: string | null;
  /** Colour of the arc: the dashboard's status of this figure (live-operations §4). */
  status: TileStatus;
}

export interface TileModel {
  /** The tile class from the machine (tileView): what the simulated machine is doing. */
  status: TileStatus;
  description: string;
  /** The dashboard's figure status: utilization or goal status; null on Downtime. */
  figureStatus: GoalStatus | TileStatus | null;
  /** null on Downtime (time in state instead); an empty ring (no data) otherwise, so the box never moves. */
  ring: TileRing | null;
  scheduled: boolean;
  inSetup: boolean;
  /** Percent of goal, null without a goal. */
  progress: number | null;
  /** Parts ahead (> 0) or behind (< 0) of goal. */
  aheadBehind: number | null;
  aheadBehindText: string | null;
  /**
   * METRICS.md §1 No data of the tile's window (the current shift, else the company day; decision 1012), as a
   * duration: on the Downtime board only (null elsewhere), '-' until the feed answers. The same total as the
   * office's downtime report and waterfall for that window (decision 1061).
   */
  noData: string | null;
}

/** One decimal in tiles (live-operations §9); '-' without a value. */
export const tilePercent = (p: number | null | undefined): string =>
  p == null || !Number.isFinite(p) ? '-' : `${p.toFixed(1)}%`;

/**
 * METRICS.md §3 (decision 1031): the OEE board's warning when some machine on it has run time without a standard
 * (its OEE tile reads the P of the rest, or '-'); null on other boards and when every run time has one.
 */
export function boardStandardsWarning(
  type: DashboardType | null,
  machineIds: readonly string[],
  utilization: ReadonlyMap<string, Pick<UtilizationEntry, 'missingStandards'>>,
): string | null {
  if (type !== 'oee') return null;
  return machineIds.some((id) => utilization.get(id)?.missingStandards === true)
    ? t('oee.noStandards')
    : null;
}

/** A goal status as a colour of the status tokens (noJobStandards has none of its own). */
export const goalTone = (s: GoalStatus): TileStatus => (s === 'noJobStandards' ? 'inactive' : s);

export function tileModel(input: {
  machine: TileMachine;
  type: DashboardType;
  now: number;
  utilization?: UtilizationEntry | undefined;
  parts?: PartsEntry | undefined;
  /** FullProduct: parts goal, progress and job are shown (live-operations §6). */
  fullProduct: boolean;
}): TileModel {
  const { machine: m, type, now, utilization: u, parts: p, fullProduct } = input;
  const view = tileView(m, type, now as EpochMs);
  const scheduled = m.scheduled;
  const inSetup = m.status === 'SETUP' || (p?.inSetup ?? false);
  // The parts feed is 15 s old at most, the machine feed 5 s: the tile follows the fresher machine fields for
  // the job, and takes the goal figures from the parts feed only while both agree on the job run.
  const samePartsRun = p != null && p.jobScheduleGroupId === m.jobScheduleGroupId;
  const expected = samePartsRun ? p.expectedParts : m.expectedParts;
  const actual = samePartsRun ? p.actualParts : m.actualParts;
  const progress = !fullProduct || !scheduled || inSetup ? null : samePartsRun ? p.percent : m.progress;
  const aheadBehind =
    !fullProduct || !scheduled || inSetup || expected == null || actual == null
      ? null
      : samePartsRun && p.aheadBehind != null
        ? p.aheadBehind
        : actual - expected;
  const ringText =
    fullProduct && scheduled && (inSetup || (expected != null && actual != null))
      ? performanceRingText({ inSetup, actualParts: actual ?? 0, expectedParts: expected ?? 0 })
      : null;
  const goal: GoalStatus = !scheduled ? 'unavailable' : samePartsRun ? p.status : 'success';

  let ring: TileRing | null = null;
  let figureStatus: TileModel['figureStatus'] = null;
  if (type === 'utilization') {
    const pct = u?.utilization ?? null;
    figureStatus = u?.status ?? 'unavailable';
    ring = ringOf(pct, tilePercent(pct), null, u?.status ?? 'unavailable');
  } else if (type === 'oee') {
    // live-operations §4 / METRICS.md §3 (decision 1003): a running job without an ideal cycle time has no
    // standard to measure OEE against: noJobStandards and '-', never 0.0 %.
    const oeeStatus: GoalStatus = scheduled && u?.oeeStatus === 'noJobStandards' ? 'noJobStandards' : goal;
    const pct = oeeStatus === 'noJobStandards' ? null : (u?.oee ?? null);
    figureStatus = oeeStatus;
    ring = ringOf(pct, tilePercent(pct), null, goalTone(oeeStatus));
  } else if (type === 'partsgoal') {
    figureStatus = goal;
    ring = ringOf(
      inSetup ? null : progress,
      ringText?.main ?? tilePercent(progress),
      ringText?.sub ?? null,
      inSetup ? 'setup' : goalTone(goal),
    );
  }
  return {
    status: view.status,
    description: view.description,
    figureStatus,
    ring,
    scheduled,
    inSetup,
    progress,
    aheadBehind,
    aheadBehindText: ringText && !inSetup ? ringText.main : null,
    noData: type === 'downtime' ? noDataText(u) : null,
  };
}

/** The window's No data as the floor shows durations (live-operations §9 part time); '-' without the feed. */
export const noDataText = (u: Pick<UtilizationEntry, 'noDataMs'> | undefined): string =>
  u == null || !Number.isFinite(u.noDataMs) ? '-' : formatPartTime(u.noDataMs);

function ringOf(percent: number | null, main: string, sub: string | null, status: TileStatus): TileRing {
  const pct = percent ?? 0;
  return { percent: pct, degrees: ringDegrees(percent), main, sub, status };
}

/** Tiles that changed between two renders: the memo key of a tile (its props are compared by value). */
export function sameTile(a: TileModel, b: TileModel): boolean {
  return (
    a.status === b.status &&
    a.description === b.description &&
    a.figureStatus === b.figureStatus &&
    a.progress === b.progress &&
    a.aheadBehind === b.aheadBehind &&
    a.aheadBehindText === b.aheadBehindText &&
    a.scheduled === b.scheduled &&
    a.inSetup === b.inSetup &&
    a.noData === b.noData &&
    (a.ring === b.ring ||
      (a.ring != null &&
        b.ring != null &&
        a.ring.percent === b.ring.percent &&
        a.ring.main === b.ring.main &&
        a.ring.sub === b.ring.sub &&
        a.ring.status === b.ring.status))
  );
}
