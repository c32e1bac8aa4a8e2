import {
  buildRollups,
  efficiency,
  efficiencyTotals,
  epochMs,
  expectedPartsNow,
  goalStatus,
  partCountMultiplier,
  partsAheadBehind,
  percentOfGoal,
  piecesOf,
  productionRuntimeMs,
  rollupBuckets,
  segmentsOf,
  SETUP_REASON_NAME,
  sumRollups,
  utilizationStatus,
} from '@takt/domain';
import type { CompanyCalendar, PartsEntry, RollupSource, UtilizationEntry } from '@takt/domain';
import type { CompanyScope } from '../db/scope';
import { companyLimits, openRunsOn } from '../repositories/dashboard-live';
import type { JobRunRecord } from '../repositories/job-runs';
import { loadCalendar, loadDowntimeFacts, loadRollupSources } from '../rollups/recompute';
import { currentWindow } from './workcenter';

// live-operations §2, §7: GET /api/dashboard/utilization and /api/dashboard/parts, one entry per machine.
// The same numbers as the workcenter card (services/workcenter.ts workcenterLive), but for every machine of a
// dashboard at once: one calendar, one query for the open job runs and a handful for the stored facts of
// all machines, instead of about ten queries per machine. Every number comes from packages/domain.

// The answer shapes are shared with the floor app (packages/domain dashboard.ts).

/** What one machine's card figures are computed from; pure, so the batch and its test share it. */
export interface MachineFigures {
  utilization: UtilizationEntry;
  parts: PartsEntry;
}

const pct = (x: number | null | undefined) => (x == null ? null : x * 100);

function sumOver(calendar: CompanyCalendar, source: RollupSource, start: number, end: number) {
  if (end <= start) return null;
  const range = { start: epochMs(start), end: epochMs(end) };
  return sumRollups(buildRollups(source, rollupBuckets(calendar, range)), range);
}

/** One machine's dashboard figures at `now` from its stored facts (same rules as workcenterLive). */
export function machineFigures(input: {
  calendar: CompanyCalendar;
  machineId: string;
  source: RollupSource;
  run: JobRunRecord | undefined;
  window: { start: number; end: number };
  now: number;
  limits: {
    warningPercent: number;
    failurePercent: number;
    utilizationWarningPercent: number;
    utilizationFailurePercent: number;
  };
}): MachineFigures {
  const { calendar, machineId, source, run, window, now, limits } = input;
  const shiftSum = sumOver(calendar, source, window.start, now);
  const shift = shiftSum ? efficiency(efficiencyTotals(shiftSum), { shiftFiltered: false }) : null;
  const duration = shiftSum?.all.durationMs ?? 0;
  const activeMs = shiftSum?.all.stateMs.ACTIVE ?? 0;
  const utilization = duration > 0 ? (activeMs / duration) * 100 : null;

  const inSetup = run != null && run.setupEnd == null;
  const productionStart = run?.setupEnd ?? null;
  const runSum = run && productionStart != null ? sumOver(calendar, source, productionStart, now) : null;
  const multiplier = run ? partCountMultiplier(run) : 1;
  const total = runSum ? runSum.all.parts + runSum.all.adjustmentCount : 0;
  const good = total - (runSum ? runSum.all.rejected : 0);
  const runtime = productionRuntimeMs(productionStart, now, runSum?.all.plannedDowntimeMs ?? 0);
  const expected = run ? expectedPartsNow(runtime, run.expectedCycleTime, multiplier) : null;
  const percent = percentOfGoal(good, expected);

  return {
    utilization: {
      machineId,
      start: window.start,
      end: now,
      utilization,
      status:
        utilization == null
          ? 'unavailable'
          : utilizationStatus(utilization, {
              warningPercent: limits.utilizationWarningPercent,
              failurePercent: limits.utilizationFailurePercent,
            }),
      oee: pct(shift?.oee),
      availability: pct(shift?.availability),
      performance: pct(shift?.performance),
      quality: pct(shift?.quality),
    },
    parts: {
      machineId,
      scheduled: run != null,
      jobId: run?.jobId ?? null,
      jobScheduleGroupId: run?.id ?? null,
      inSetup,
      setupSince: inSetup ? run.startAt : null,
      expectedParts: inSetup ? null : expected,
      actualParts: run ? good : null,
      percent: inSetup ? null : percent,
      aheadBehind: expected == null || inSetup ? null : partsAheadBehind(good, expected),
      productionRuntimeMs: runtime,
      status: run
        ? goalStatus({
            scheduled: true,
            hasJobStandards: run.expectedCycleTime > 0,
            percentOfGoal: percent,
            productionRuntimeMs: runtime,
            warningPercent: limits.warningPercent,
            failurePercent: limits.failurePercent,
          })
        : 'unavailable',
    },
  };
}

/**
 * Dashboard figures of the given machines at `now`. Facts are loaded in at most two batches: machines whose
 * run began inside the window share the window's range; the others share one range from their earliest run
 * start, so a week-long job on one machine does not make every machine load a week.
 */
export async function dashboardFigures(
  scope: CompanyScope,
  machineIds: readonly string[],
  now: number,
  /** The machines' open runs when the caller has read them already (openRunsOn). */
  knownRuns?: ReadonlyMap<string, JobRunRecord>,
): Promise<Map<string, MachineFigures>> {
  const out = new Map<string, MachineFigures>();
  if (machineIds.length === 0) return out;
  const [calendar, limits, runs] = await Promise.all([
    loadCalendar(scope.db, scope.companyId),
    companyLimits(scope),
    knownRuns ?? openRunsOn(scope, machineIds),
  ]);
  const window = currentWindow(calendar, now);
  const inWindow: string[] = [];
  const older: string[] = [];
  let olderStart = window.start;
  for (const id of machineIds) {
    const run = runs.get(id);
    if (run && run.startAt < window.start) {
      older.push(id);
      olderStart = Math.min(olderStart, run.startAt);
    } else inWindow.push(id);
  }
  const [a, b] = await Promise.all([
    loadRollupSources(scope.db, inWindow, { start: window.start, end: now }, { now }),
    loadRollupSources(scope.db, older, { start: olderStart, end: now }, { now }),
  ]);
  for (const id of machineIds) {
    const source = a.get(id) ?? b.get(id)!;
    out.set(id, machineFigures({ calendar, machineId: id, source, run: runs.get(id), window, now, limits }));
  }
  return out;
}

/**
 * The reason of the downtime each machine is in at `now` (the tile's `downtime_reason`, live-operations §3,
 * §4 "Idle … with an idle reason"): the name of the reason of the annotation covering that instant, split
 * exactly as GET /api/downtime splits it (packages/domain derive/downtime-pieces.ts), so the tile and the
 * downtime list never name different reasons. "Setup" for a setup annotation. Machines in uncategorized
 * downtime or not in downtime are left out. A fixed number of queries for all machines.
 */
export async function currentDowntimeReasons(
  scope: CompanyScope,
  machineIds: readonly string[],
  now: number,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (machineIds.length === 0) return out;
  // Machine ids come from the caller's company (listMachines), so the bare db reads only its rows.
  const facts = await loadDowntimeFacts(scope.db, machineIds, { start: now, end: now });
  const groupBy = <T>(rows: readonly T[], key: (r: T) => string) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return m;
  };
  const annotationsOf = groupBy(facts.annotations, (a) => a.machineId);
  const intervalsOf = groupBy(facts.intervals, (r) => r.machine_id);
  for (const [id, annotations] of annotationsOf) {
    const intervals = intervalsOf.get(id) ?? [];
    const piece = piecesOf(
      segmentsOf(intervals.map((r) => ({ start: r.start_at, end: r.end_at, state: r.state }))),
      annotations,
    ).find((p) => p.start <= now && (p.end === null || p.end > now));
    const a = piece?.annotation;
    if (!a) continue;
    const reason = a.setup ? SETUP_REASON_NAME : a.category_id ? facts.types.get(a.category_id)?.name : null;
    if (reason) out.set(id, reason);
  }
  return out;
}
