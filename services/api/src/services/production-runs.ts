import { historyChanged } from '@takt/db/rollups';
import type { ProductionRun, ScheduleRunSave } from '@takt/domain';
import { invalidInput, notFound } from '../http/errors';
import { getJobRun, insertJobRun, updateJobRun } from '../repositories/dispatch';
import type { JobRunRecord } from '../repositories/dispatch';
import { getJob } from '../repositories/jobs';
import { jobRunsOverlapping } from '../repositories/jobs-report';
import type { JobReportRun } from '../repositories/jobs-report';
import {
  countCompanyShifts,
  deleteJobRun,
  runHasLaborActivities,
  scheduleFieldsOfRuns,
  setRunShifts,
} from '../repositories/job-runs';
import type { RunScheduleFields } from '../repositories/job-runs';
import { getMachine } from '../repositories/machines';
import type { ServiceCtx } from './context';

// Production runs: the job runs ("job schedule groups", reports-admin §3) listed by range and edited one at a
// time (reports-admin §2 /reports/production-runs and /app/production/production-runs/{id}/edit; decision
// 0850). An edit changes the machine's history from the run's earlier start on, so it marks the rollups of
// that machine dirty in the same transaction (the rollup worker recomputes them).

const NO_SCHEDULE: RunScheduleFields = { partChangeoverMs: 0, shiftIds: [] };

const toProductionRun = (
  r: JobReportRun | (JobRunRecord & { jobName: string; machineName: string }),
  sched: RunScheduleFields = NO_SCHEDULE,
) =>
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
    partchangeovertime: sched.partChangeoverMs,
    shifts: sched.shiftIds,
  }) satisfies ProductionRun;

/** The runs overlapping [start, end), of one machine when given, by start (reports-admin §2 production runs). */
export async function listProductionRuns(
  ctx: ServiceCtx,
  q: { start: number; end: number; machineId?: string | undefined },
): Promise<ProductionRun[]> {
  if (q.machineId && !(await getMachine(ctx.scope, q.machineId))) throw notFound('Machine');
  const rows = await jobRunsOverlapping(ctx.scope, q.machineId ? { machineIds: [q.machineId] } : {}, q);
  const sched = await scheduleFieldsOfRuns(
    ctx.scope,
    rows.map((r) => r.id),
  );
  return rows
    .map((r) => toProductionRun(r, sched.get(r.id)))
    .sort((a, b) => a.startdate - b.startdate || a.machine_name.localeCompare(b.machine_name));
}

export async function getProductionRun(ctx: ServiceCtx, id: string): Promise<ProductionRun> {
  const run = await getJobRun(ctx.scope, id);
  if (!run) throw notFound('Production run');
  const [job, machine] = await Promise.all([
    getJob(ctx.scope, run.jobId),
    getMachine(ctx.scope, run.machineId),
  ]);
  const sched = await scheduleFieldsOfRuns(ctx.scope, [id]);
  return toProductionRun(
    { ...run, jobName: job?.name ?? '', machineName: machine?.name ?? '' },
    sched.get(id),
  );
}

type Issue = { field: string; code: string; message: string };

/** The texts of the editor's cross-field rules (the office form shows the same, production/run-form.ts). */
export const RUN_RULES = {
  endBeforeStart: 'End must be after start',
  setupOutside: 'Setup end must be between start and end',
  overlap: 'Another run on this machine overlaps this time',
  runningMoved: 'A running job run cannot move to another machine',
} as const;

/** The schedule form's rules (reports-admin §5 "Schedule form: at least one shift unless labor activities"). */
export const SCHEDULE_RULES = {
  shiftRequired: 'Choose at least one shift',
  unknownShift: 'Unknown shift',
} as const;

/**
 * The checks every save of a run makes, new (id null) or not. reports-admin §4: start-in-setup none keeps no
 * setup (production from the start); planned or unplanned setup ends still in setup (null) or at a date
 * between start and end. Runs of a machine never overlap (live-operations §4: a machine runs one job at a
 * time). With shifts given, at least one unless the run has labor activities (§5). Returns the setup end.
 */
async function checkRun(
  ctx: ServiceCtx,
  id: string | null,
  old: JobRunRecord | null,
  s: ScheduleRunSave,
): Promise<number | null> {
  if (!(await getJob(ctx.scope, s.job_id))) throw notFound('Job');
  if (!(await getMachine(ctx.scope, s.machine_id))) throw notFound('Machine');
  const issues: Issue[] = [];
  if (s.enddate !== null && s.enddate <= s.startdate)
    issues.push({ field: 'enddate', code: 'range', message: RUN_RULES.endBeforeStart });
  const setupEnd = s.startInSetup === 'none' ? s.startdate : s.setupend;
  if (setupEnd !== null && (setupEnd < s.startdate || (s.enddate !== null && setupEnd > s.enddate)))
    issues.push({ field: 'setupend', code: 'range', message: RUN_RULES.setupOutside });
  if (old && old.endAt === null && s.machine_id !== old.machineId)
    issues.push({ field: 'machine_id', code: 'running', message: RUN_RULES.runningMoved });
  if (s.shifts !== undefined) {
    const shifts = [...new Set(s.shifts)];
    if (shifts.length === 0 && !(id !== null && (await runHasLaborActivities(ctx.scope, id))))
      issues.push({ field: 'shifts', code: 'required', message: SCHEDULE_RULES.shiftRequired });
    else if ((await countCompanyShifts(ctx.scope, shifts)) !== shifts.length)
      issues.push({ field: 'shifts', code: 'unknown', message: SCHEDULE_RULES.unknownShift });
  }
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
  return setupEnd;
}

/** reports-admin §4 "none (setuptime null), planned, unplanned (setuptime 0)": planned keeps the time given. */
const setupTimeOf = (s: ScheduleRunSave, given: number | null | undefined): number | null =>
  s.startInSetup === 'none' ? null : s.startInSetup === 'unplanned' ? 0 : (given ?? 0);

const columnsOf = (s: ScheduleRunSave, setupEnd: number | null) => ({
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

/**
 * Save every field of a run (the production-run editor and the schedule form). The editor leaves out shifts,
 * part changeover time and setup time; they are kept then.
 */
export async function saveProductionRun(
  ctx: ServiceCtx,
  id: string,
  s: ScheduleRunSave,
): Promise<ProductionRun> {
  const old = await getJobRun(ctx.scope, id);
  if (!old) throw notFound('Production run');
  const setupEnd = await checkRun(ctx, id, old, s);
  await updateJobRun(ctx.scope, id, {
    ...columnsOf(s, setupEnd),
    // The editor sends no setup time: the stored one stays, as before the schedule form existed.
    ...(s.setuptime === undefined ? {} : { expected_setup_ms: setupTimeOf(s, s.setuptime) }),
    ...(s.partchangeovertime === undefined ? {} : { part_changeover_ms: s.partchangeovertime }),
  });
  if (s.shifts !== undefined) await setRunShifts(ctx.scope, id, [...new Set(s.shifts)]);
  // The rollups of every machine whose history changed, from the earlier of the old and the new start.
  await historyChanged(ctx.scope, old.machineId, Math.min(old.startAt, s.startdate));
  if (s.machine_id !== old.machineId) await historyChanged(ctx.scope, s.machine_id, s.startdate);
  return getProductionRun(ctx, id);
}

/**
 * Create a run from the schedule (reports-admin §2 Schedule: create, duplicate). A run made here has no job
 * machine standard behind it: its standards are the ones typed; parts count one per cycle (dispatch's default).
 */
export async function createProductionRun(ctx: ServiceCtx, s: ScheduleRunSave): Promise<ProductionRun> {
  // A new run has no labor activities yet, so the schedule form's shifts are required (§5).
  const withShifts = { ...s, shifts: s.shifts ?? [] };
  const setupEnd = await checkRun(ctx, null, null, withShifts);
  const id = crypto.randomUUID();
  await insertJobRun(ctx.scope, {
    id,
    ...columnsOf(s, setupEnd),
    job_machine_id: null,
    reported_parts: null,
    required_cycles: null,
    // As a job machine made from a job (services/jobs.ts): many parts per cycle when actual parts exceed 1.
    part_behavior: s.actualParts > 1 ? 'manyparts' : 'one',
    expected_setup_ms: setupTimeOf(s, s.setuptime),
    setup_note: null,
    created_at: ctx.now,
    part_changeover_ms: s.partchangeovertime ?? 0,
  });
  await setRunShifts(ctx.scope, id, [...new Set(withShifts.shifts)]);
  await historyChanged(ctx.scope, s.machine_id, s.startdate);
  return getProductionRun(ctx, id);
}

/** Delete a run (reports-admin §2 Schedule: delete); the machine's figures from its start are recomputed. */
export async function deleteProductionRun(ctx: ServiceCtx, id: string): Promise<void> {
  const old = await getJobRun(ctx.scope, id);
  if (!old) throw notFound('Production run');
  await deleteJobRun(ctx.scope, id);
  await historyChanged(ctx.scope, old.machineId, old.startAt);
}
