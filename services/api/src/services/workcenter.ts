import {
  buildRollups,
  companyDayRange,
  efficiency,
  efficiencyTotals,
  epochMs,
  expectedPartsNow,
  goalStatus,
  HEARTBEAT_TIMEOUT_MS,
  partCountMultiplier,
  percentOfGoal,
  productionRuntimeMs,
  rollupBuckets,
  shiftOccurrences,
  shopDateOf,
  sumRollups,
} from '@takt/domain';
import type { CompanyCalendar, EpochMs, RollupSource, WorkcenterLive, WorkcenterType } from '@takt/domain';
import { notFound } from '../http/errors';
import { companyLimits } from '../repositories/dashboard-live';
import { openRunOnMachine } from '../repositories/job-runs';
import { getJob } from '../repositories/jobs';
import { liveByMachine } from '../repositories/live';
import { openOperatorRun } from '../repositories/operators';
import { openSubprogram } from '../repositories/production';
import { getMachine } from '../repositories/machines';
import { loadCalendar, loadRollupSource } from '../rollups/recompute';
import type { ServiceCtx } from './context';

/** The window the card's utilization, OEE and downtime cover: the current shift, else the company day. */
export function currentWindow(
  calendar: CompanyCalendar,
  now: number,
): { start: number; end: number; shiftId: string | null } {
  const around = shiftOccurrences(calendar, calendar.shifts, epochMs(now - 86_400_000), epochMs(now + 1));
  const shift = around.find((s) => s.start <= now && now < s.end);
  if (shift) return { start: shift.start, end: now, shiftId: shift.shiftId };
  const day = companyDayRange(calendar, shopDateOf(calendar, epochMs(now)));
  return { start: day.start, end: now, shiftId: null };
}

function sumOver(calendar: CompanyCalendar, source: RollupSource, start: number, end: number) {
  if (end <= start) return null;
  const range = { start: epochMs(start), end: epochMs(end) };
  return sumRollups(buildRollups(source, rollupBuckets(calendar, range)), range);
}

const pct = (x: number | null) => (x == null ? null : x * 100);

/** GET /api/workcenter/:machineId: the §3 fields, the run they belong to and the machine's workcenter type. */
export type WorkcenterAnswer = WorkcenterLive & {
  machineId: string;
  jobRunId: string | null;
  inSetup: boolean;
  workcenterType: WorkcenterType;
};

/**
 * live-operations §3 "Work center live data" for the workcenter card, computed by the domain engine from
 * what is stored: utilization, downtime and OEE over the current shift; parts, goal and setup of the job
 * running on the machine; cycle times; the logged-in operator.
 */
export async function workcenterLive(ctx: ServiceCtx, machineId: string): Promise<WorkcenterAnswer> {
  const { scope, now } = ctx;
  const machine = await getMachine(scope, machineId);
  if (!machine) throw notFound('Machine');
  const [calendar, limits, run, live, operatorRun, subprogram] = await Promise.all([
    loadCalendar(scope.db, scope.companyId),
    companyLimits(scope),
    openRunOnMachine(scope, machineId),
    liveByMachine(scope, [machineId]).then((rows) => rows.get(machineId)),
    openOperatorRun(scope, machineId),
    openSubprogram(scope, machineId),
  ]);
  const job = run ? await getJob(scope, run.jobId) : undefined;

  const window = currentWindow(calendar, now);
  const from = Math.min(window.start, run?.startAt ?? window.start);
  const source = await loadRollupSource(scope.db, machineId, { start: from, end: now });

  // Shift metrics.
  const shiftSum = sumOver(calendar, source, window.start, now);
  const shift = shiftSum ? efficiency(efficiencyTotals(shiftSum), { shiftFiltered: false }) : null;
  const duration = shiftSum?.all.durationMs ?? 0;
  const activeMs = shiftSum?.all.stateMs.ACTIVE ?? 0;
  const utilization = duration > 0 ? activeMs / duration : null;

  // The job run: parts since production began, against the goal.
  const inSetup = run != null && run.setupEnd == null;
  const productionStart = run?.setupEnd ?? null;
  const runSum = run && productionStart != null ? sumOver(calendar, source, productionStart, now) : null;
  const multiplier = run ? partCountMultiplier(run) : 1;
  const total = runSum ? runSum.all.parts + runSum.all.adjustmentCount : 0;
  const rejected = runSum ? runSum.all.rejected : 0;
  const good = total - rejected;
  const runtime = productionRuntimeMs(productionStart, now, runSum?.all.plannedDowntimeMs ?? 0);
  const expected = run ? expectedPartsNow(runtime, run.expectedCycleTime, multiplier) : null;
  const percent = percentOfGoal(good, expected);

  // Cycle times in the window.
  const cycles = (source.cycles ?? []).filter((c) => c.end >= window.start && !c.setup);
  const durations = cycles.map((c) => c.duration as number);
  const last = cycles[cycles.length - 1];
  const state = (live?.state ?? 'UNAVAILABLE') as WorkcenterLive['state'];
  const heartbeatLost = live?.last_heartbeat != null && now - live.last_heartbeat > HEARTBEAT_TIMEOUT_MS;

  return {
    machineId,
    workcenterType: machine.workcenterType,
    jobRunId: run?.id ?? null,
    inSetup,
    actualParts: total,
    scrapParts: rejected,
    quantity: job?.quantity ?? null,
    jobGoodParts: good,
    expectedPartsNow: expected,
    partPercent: percent,
    utilization: pct(utilization),
    utilizationBar: pct(utilization),
    partsBar: percent == null ? null : Math.min(percent, 100),
    cycletime: (run?.expectedCycleTime ?? null) as WorkcenterLive['cycletime'],
    currentCycle: (state === 'ACTIVE'
      ? now - (last?.end ?? live?.state_since ?? now)
      : null) as WorkcenterLive['currentCycle'],
    lastCycle: (last ? last.duration : null) as WorkcenterLive['lastCycle'],
    lastFew: durations.slice(-5) as WorkcenterLive['lastFew'],
    averageCycle: (durations.length
      ? Math.round(durations.reduce((a, b) => a + b, 0) / durations.length)
      : null) as WorkcenterLive['averageCycle'],
    oee: pct(shift?.oee ?? null),
    availability: pct(shift?.availability ?? null),
    performance: pct(shift?.performance ?? null),
    quality: pct(shift?.quality ?? null),
    totalDowntime: Math.max(0, duration - activeMs) as WorkcenterLive['totalDowntime'],
    scheduled: run != null,
    jobName: job?.name ?? null,
    program: live?.program ?? null,
    subprogram,
    setupSince: (inSetup ? run!.startAt : null) as WorkcenterLive['setupSince'],
    currentLaborActivitySet: run
      ? { expectedSetupDuration: run.expectedSetupMs as WorkcenterLive['cycletime'] }
      : null,
    operatorRun: operatorRun
      ? { operator: { name: operatorRun.operator.name }, startAt: operatorRun.startAt as EpochMs }
      : null,
    multiplier,
    cardStatus: run
      ? goalStatus({
          scheduled: true,
          hasJobStandards: run.expectedCycleTime > 0,
          percentOfGoal: percent,
          productionRuntimeMs: runtime,
          warningPercent: limits.warningPercent,
          failurePercent: limits.failurePercent,
        })
      : 'unavailable',
    stale: !live || live.connection !== 'CONNECTED' || heartbeatLost,
    state: inSetup ? 'SETUP' : heartbeatLost ? 'UNAVAILABLE' : state,
  };
}
