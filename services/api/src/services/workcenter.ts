import { companyDayRange, epochMs, liveFigures, liveLink, shiftOccurrences, shopDateOf } from '@takt/domain';
import type {
  CompanyCalendar,
  EpochMs,
  LiveFigures,
  LiveGoalRun,
  LiveLimits,
  RollupSource,
  WorkcenterLive,
  WorkcenterType,
} from '@takt/domain';
import { notFound } from '../http/errors';
import { companyLimits } from '../repositories/dashboard';
import { openRunOnMachine } from '../repositories/dispatch';
import type { JobRunRecord } from '../repositories/dispatch';
import { getJob } from '../repositories/jobs';
import { liveByMachine } from '../repositories/live';
import { openOperatorRun } from '../repositories/operators';
import { openSubprogram } from '../repositories/production';
import { getMachine } from '../repositories/machines';
import type { MachineLiveTable } from '@takt/db';
import { loadCalendar, loadRollupSource } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import { runExpectedSetupMs } from './dispatch';

/**
 * The link heartbeat rule (packages/domain live/link.ts) over the live row ingest keeps: the one reading of a
 * machine's status and connection for the workcenter card and the dashboard tile (live-operations §3).
 */
export const machineLink = (live: MachineLiveTable | undefined, now: number) =>
  liveLink(
    live && {
      connection: live.connection,
      lastHeartbeat: live.last_heartbeat,
      state: live.state,
      stateSince: live.state_since,
    },
    now,
  );

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

/**
 * The live figures of a machine running `run` (null or undefined: unscheduled) over the window up to `now`:
 * the one place where the tile (GET /api/dashboard, /utilization, /parts through services/dashboard.ts)
 * and the card (GET /api/workcenter/:id) get their parts goal, utilization and OEE, so they cannot disagree.
 * `source` must hold the machine's facts from the window's start and from the run's start up to `now`.
 */
export function runFigures(input: {
  calendar: CompanyCalendar;
  source: RollupSource;
  run: JobRunRecord | null | undefined;
  windowStart: number;
  now: number;
  limits: LiveLimits;
}): LiveFigures {
  return liveFigures({
    calendar: input.calendar,
    source: input.source,
    windowStart: input.windowStart,
    run: goalRun(input.run),
    now: input.now,
    limits: input.limits,
  });
}

/** A job run as the parts goal reads it: it goes into production at its setup end (null while in setup). */
export const goalRun = (run: JobRunRecord | null | undefined): LiveGoalRun | null =>
  run ? { ...run, productionStart: run.setupEnd } : null;

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
  // The card's expected setup: the run's, else the job's standard (decision 1083).
  const expectedSetup = run ? await runExpectedSetupMs(scope, run) : null;

  const window = currentWindow(calendar, now);
  const from = Math.min(window.start, run?.startAt ?? window.start);
  const source = await loadRollupSource(scope, machineId, { start: from, end: now });

  const figures = runFigures({ calendar, source, run, windowStart: window.start, now, limits });
  const { goal, percents } = figures;
  const inSetup = goal.inSetup;

  // Cycle times in the window.
  const cycles = (source.cycles ?? []).filter((c) => c.end >= window.start && !c.setup);
  const durations = cycles.map((c) => c.duration as number);
  const last = cycles[cycles.length - 1];
  const link = machineLink(live, now);

  return {
    machineId,
    workcenterType: machine.workcenterType,
    jobRunId: run?.id ?? null,
    inSetup,
    actualParts: goal.totalParts,
    scrapParts: goal.rejectedParts,
    quantity: job?.quantity ?? null,
    jobGoodParts: goal.goodParts,
    expectedPartsNow: goal.expectedParts,
    partPercent: goal.percent,
    utilization: percents.utilization,
    utilizationBar: percents.utilization,
    partsBar: goal.percent == null ? null : Math.min(goal.percent, 100),
    cycletime: (run?.expectedCycleTime ?? null) as WorkcenterLive['cycletime'],
    currentCycle: (link.state === 'ACTIVE'
      ? now - (last?.end ?? live?.state_since ?? now)
      : null) as WorkcenterLive['currentCycle'],
    lastCycle: (last ? last.duration : null) as WorkcenterLive['lastCycle'],
    lastFew: durations.slice(-5) as WorkcenterLive['lastFew'],
    averageCycle: (durations.length
      ? Math.round(durations.reduce((a, b) => a + b, 0) / durations.length)
      : null) as WorkcenterLive['averageCycle'],
    oee: percents.oee,
    availability: percents.availability,
    performance: percents.performance,
    quality: percents.quality,
    missingStandards: figures.efficiency?.missingStandards ?? false,
    totalDowntime: figures.downtimeMs as WorkcenterLive['totalDowntime'],
    scheduled: run != null,
    jobName: job?.name ?? null,
    program: live?.program ?? null,
    subprogram,
    setupSince: (inSetup ? run!.startAt : null) as WorkcenterLive['setupSince'],
    currentLaborActivitySet: run
      ? { expectedSetupDuration: expectedSetup as WorkcenterLive['cycletime'] }
      : null,
    operatorRun: operatorRun
      ? { operator: { name: operatorRun.operator.name }, startAt: operatorRun.startAt as EpochMs }
      : null,
    multiplier: goal.multiplier,
    cardStatus: goal.status,
    // The link heartbeat rule (packages/domain live/link.ts); SETUP of the job run overrides the machine.
    stale: !link.up,
    state: inSetup ? 'SETUP' : link.state,
  };
}
