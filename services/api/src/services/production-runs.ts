import { historyChanged } from '@takt/db/rollups';
import type { ProductionRun, ProductionRunSave } from '@takt/domain';
import { invalidInput, notFound } from '../http/errors';
import { getJobRun, updateJobRun } from '../repositories/dispatch';
import type { JobRunRecord } from '../repositories/dispatch';
import { getJob } from '../repositories/jobs';
import { jobRunsOverlapping } from '../repositories/jobs-report';
import type { JobReportRun } from '../repositories/jobs-report';
import { getMachine } from '../repositories/machines';
import type { ServiceCtx } from './context';

// Production runs: the job runs ("job schedule groups", reports-admin §3) listed by range and edited one at a
// time (reports-admin §2 /reports/production-runs and /app/production/production-runs/{id}/edit; decision
// 0850). An edit changes the machine's history from the run's earlier start on, so it marks the rollups of
// that machine dirty in the same transaction (the rollup worker recomputes them).

const toProductionRun = (r: JobReportRun | (JobRunRecord & { jobName: string; machineName: string })) =>
  ({
    id: r.id,
    job_id: r.jobId,
    job_name: r.jobName,
    machine_id: r.machineId,
    machine_name: r.machineName,
    startdate: r.startAt,
    enddate: r.endAt,
    startInSetup: r.setupMode,
    setuptime: r.setupMode === 'none' ? null : (r.expectedSetupMs ?? 0),
    setupend: r.setupMode === 'none' ? r.startAt : r.setupEnd,
    cycletime: r.expectedCycleTime,
    idealcycletime: r.idealCycleTime,
    partcount_multiplier: r.partCountMultiplier,
    actualParts: r.actualParts,
  }) satisfies ProductionRun;

/** The runs overlapping [start, end), of one machine when given, by start (reports-admin §2 production runs). */
export async function listProductionRuns(
  ctx: ServiceCtx,
  q: { start: number; end: number; machineId?: string | undefined },
): Promise<ProductionRun[]> {
  if (q.machineId && !(await getMachine(ctx.scope, q.machineId))) throw notFound('Machine');
  const rows = await jobRunsOverlapping(ctx.scope, q.machineId ? { machineIds: [q.machineId] } : {}, q);
  return rows
    .map(toProductionRun)
    .sort((a, b) => a.startdate - b.startdate || a.machine_name.localeCompare(b.machine_name));
}

export async function getProductionRun(ctx: ServiceCtx, id: string): Promise<ProductionRun> {
  const run = await getJobRun(ctx.scope, id);
  if (!run) throw notFound('Production run');
  const [job, machine] = await Promise.all([
    getJob(ctx.scope, run.jobId),
    getMachine(ctx.scope, run.machineId),
  ]);
  return toProductionRun({ ...run, jobName: job?.name ?? '', machineName: machine?.name ?? '' });
}

type Issue = { field: string; code: string; message: string };

/** The texts of the editor's cross-field rules (the office form shows the same, production/run-form.ts). */
export const RUN_RULES = {
  endBeforeStart: 'End must be after start',
  setupOutside: 'Setup end must be between start and end',
  overlap: 'Another run on this machine overlaps this time',
  runningMoved: 'A running job run cannot move to another machine',
} as const;

/**
 * Save every field of a run. reports-admin §4: start-in-setup none keeps no setup (production from the
 * start); planned or unplanned setup ends still in setup (null) or at a date between start and end. Runs of a
 * machine never overlap (live-operations §4: a machine runs one job at a time).
 */
export async function saveProductionRun(
  ctx: ServiceCtx,
  id: string,
  s: ProductionRunSave,
): Promise<ProductionRun> {
  const old = await getJobRun(ctx.scope, id);
  if (!old) throw notFound('Production run');
  if (!(await getJob(ctx.scope, s.job_id))) throw notFound('Job');
  if (!(await getMachine(ctx.scope, s.machine_id))) throw notFound('Machine');
  const issues: Issue[] = [];
  if (s.enddate !== null && s.enddate <= s.startdate)
    issues.push({ field: 'enddate', code: 'range', message: RUN_RULES.endBeforeStart });
  const setupEnd = s.startInSetup === 'none' ? s.startdate : s.setupend;
  if (setupEnd !== null && (setupEnd < s.startdate || (s.enddate !== null && setupEnd > s.enddate)))
    issues.push({ field: 'setupend', code: 'range', message: RUN_RULES.setupOutside });
  if (old.endAt === null && s.machine_id !== old.machineId)
    issues.push({ field: 'machine_id', code: 'running', message: RUN_RULES.runningMoved });
  if (issues.length === 0) {
    const others = await jobRunsOverlapping(
      ctx.scope,
      { machineIds: [s.machine_id] },
      { start: s.startdate, end: s.enddate ?? Number.MAX_SAFE_INTEGER },
    );
    if (others.some((r) => r.id !== id))
      issues.push({ field: 'startdate', code: 'overlap', message: RUN_RULES.overlap });
  }
  if (issues.length > 0) throw invalidInput(issues);
  await updateJobRun(ctx.scope, id, {
    job_id: s.job_id,
    machine_id: s.machine_id,
    start_at: s.startdate,
    end_at: s.enddate,
    setup_mode: s.startInSetup,
    setup_end: setupEnd,
    expected_cycle_time: s.cycletime,
    ideal_cycle_time: s.idealcycletime,
    part_count_multiplier: s.partcount_multiplier,
    actual_parts: s.actualParts,
  });
  // The rollups of every machine whose history changed, from the earlier of the old and the new start.
  await historyChanged(ctx.scope, old.machineId, Math.min(old.startAt, s.startdate));
  if (s.machine_id !== old.machineId) await historyChanged(ctx.scope, s.machine_id, s.startdate);
  return getProductionRun(ctx, id);
}
