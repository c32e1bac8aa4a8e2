import { jobRunChanged } from '@takt/db';
import { emptyJobTally, runSetupTime } from '@takt/domain';
import type { JobTally, ProductionRun, RunLaborActivity, RunParts, ScheduleRunSave } from '@takt/domain';
import { invalidInput, notFound } from '../http/errors';
import { getJobRun, insertJobRun, updateJobRun } from '../repositories/dispatch';
import type { JobRunRecord } from '../repositories/dispatch';
import { companySettings } from '../repositories/company';
import { getJob } from '../repositories/jobs';
import { jobRunsOverlapping } from '../repositories/jobs-report';
import type { JobReportRun } from '../repositories/jobs-report';
import {
  countCompanyShifts,
  deleteJobRun,
  laborActivitiesOfRuns,
  runHasLaborActivities,
  scheduleFieldsOfRuns,
  setRunLaborActivities,
  setRunShifts,
} from '../repositories/job-runs';
import type { RunScheduleFields } from '../repositories/job-runs';
import { getMachine } from '../repositories/machines';
import { setupStagesByIds } from '../repositories/setup-stages';
import type { ServiceCtx } from './context';
import { runTallies } from './jobs-report';

// Production runs: the job runs ("job schedule groups", reports-admin §3) listed by range and edited one at a
// time (reports-admin §2 /reports/production-runs and /app/production/production-runs/{id}/edit; decision
// 0850). An edit changes the machine's history from the run's earlier start on, so it marks the rollups of
// that machine dirty in the same transaction (the rollup worker recomputes them).

const NO_SCHEDULE: RunScheduleFields = { partChangeoverMs: 0, shiftIds: [] };

/** METRICS.md §3 parts of a run's tally, as the job report has them. */
const partsOf = (t: JobTally): RunParts => ({
  total: t.totalParts,
  rejected: t.rejectedParts,
  good: t.goodParts,
});

const toProductionRun = (
  r: JobReportRun | (JobRunRecord & { jobName: string; machineName: string }),
  tally: JobTally,
  sched: RunScheduleFields = NO_SCHEDULE,
  laborActivities: RunLaborActivity[] = [],
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
    setuptime: runSetupTime(r.setupMode, r.expectedSetupMs),
    setupend: r.setupMode === 'none' ? r.startAt : r.setupEnd,
    cycletime: r.expectedCycleTime,
    idealcycletime: r.idealCycleTime,
    partcount_multiplier: r.partCountMultiplier,
    actualParts: r.actualParts,
    partchangeovertime: sched.partChangeoverMs,
    shifts: sched.shiftIds,
    laborActivities,
    parts: partsOf(tally),
  }) satisfies ProductionRun;

/** The runs overlapping [start, end), of one machine when given, by start (reports-admin §2 production runs). */
export async function listProductionRuns(
  ctx: ServiceCtx,
  q: { start: number; end: number; machineId?: string | undefined },
): Promise<ProductionRun[]> {
  if (q.machineId && !(await getMachine(ctx.scope, q.machineId))) throw notFound('Machine');
  const rows = await jobRunsOverlapping(ctx.scope, q.machineId ? { machineIds: [q.machineId] } : {}, q);
  const ids = rows.map((r) => r.id);
  // The runs' parts inside the range, tallied as the job report tallies them (decision 1020).
  const [sched, labor, tallies] = await Promise.all([
    scheduleFieldsOfRuns(ctx.scope, ids),
    laborActivitiesOfRuns(ctx.scope, ids),
    runTallies(ctx, rows, { start: q.start, end: q.end }),
  ]);
  return rows
    .map((r) => toProductionRun(r, tallies.get(r.id) ?? emptyJobTally(), sched.get(r.id), labor.get(r.id)))
    .sort((a, b) => a.startdate - b.startdate || a.machine_name.localeCompare(b.machine_name));
}

export async function getProductionRun(ctx: ServiceCtx, id: string): Promise<ProductionRun> {
  const run = await getJobRun(ctx.scope, id);
  if (!run) throw notFound('Production run');
  const [job, machine] = await Promise.all([
    getJob(ctx.scope, run.jobId),
    getMachine(ctx.scope, run.machineId),
  ]);
  const named = { ...run, jobName: job?.name ?? '', machineName: machine?.name ?? '' };
  // One run: its parts over all of it up to now (decision 1020).
  const [sched, labor, tallies] = await Promise.all([
    scheduleFieldsOfRuns(ctx.scope, [id]),
    laborActivitiesOfRuns(ctx.scope, [id]),
    runTallies(ctx, [named], { start: run.startAt, end: run.endAt ?? Math.max(ctx.now, run.startAt) }),
  ]);
  return toProductionRun(named, tallies.get(id) ?? emptyJobTally(), sched.get(id), labor.get(id));
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
 * The schedule forms' rules (reports-admin §5 "Schedule form: at least one shift unless labor activities; with
 * setup stages, non-none setup needs at least one saved labor activity with a stage"; decisions 0910, 0940).
 */
export const SCHEDULE_RULES = {
  shiftRequired: 'Choose at least one shift',
  unknownShift: 'Unknown shift',
  stageRequired: 'A run that starts in setup needs at least one setup stage',
  stageWithoutSetup: 'A setup stage needs a start in setup.',
  unknownStage: 'Unknown setup stage',
  firstStageAtStart: 'The first setup stage must start when the run starts',
  stagesInSequence: 'Each setup stage must start when the one before it ends',
  stageLength: 'Each setup stage must end after it starts',
  setupEndAtLastStage: 'Setup end must be where the last setup stage ends',
  setupTimeIsStagesTotal: "A planned setup time must be the setup stages' total",
} as const;

const stageArchived = (name: string) => `Setup stage ${name} is archived.`;

/**
 * The second form's setup stages (decision 0940): from the run's start, each where the one before ends, each
 * longer than nothing, only the last still going on, the setup ending where the last ends; stages of the
 * company, not archived unless the run had the stage already; a planned setup time is their total.
 */
async function checkStages(
  ctx: ServiceCtx,
  id: string | null,
  s: ScheduleRunSave,
  stages: NonNullable<ScheduleRunSave['laborActivities']>,
  issues: Issue[],
): Promise<void> {
  const issue = (code: string, message: string): void => {
    issues.push({ field: 'laborActivities', code, message });
  };
  if (s.startInSetup === 'none') {
    if (stages.length > 0) issue('stage_without_setup', SCHEDULE_RULES.stageWithoutSetup);
    return;
  }
  if (stages.length === 0) {
    issue('required', SCHEDULE_RULES.stageRequired);
    return;
  }
  if (stages[0]!.startAt !== s.startdate) issue('start', SCHEDULE_RULES.firstStageAtStart);
  if (stages.some((a, k) => k > 0 && a.startAt !== stages[k - 1]!.endAt))
    issue('sequence', SCHEDULE_RULES.stagesInSequence);
  if (stages.some((a) => a.endAt !== null && a.endAt <= a.startAt))
    issue('length', SCHEDULE_RULES.stageLength);
  const last = stages.at(-1)!;
  if (s.setupend !== last.endAt) issue('setup_end', SCHEDULE_RULES.setupEndAtLastStage);
  const total = stages.reduce((sum, a) => sum + (a.endAt ?? a.startAt) - a.startAt, 0);
  if (s.startInSetup === 'planned' && last.endAt !== null && s.setuptime != null && s.setuptime !== total)
    issue('setup_time', SCHEDULE_RULES.setupTimeIsStagesTotal);
  const ids = [...new Set(stages.map((a) => a.setupStageId))];
  const known = await setupStagesByIds(ctx.scope, ids);
  if (known.length !== ids.length) {
    issue('unknown', SCHEDULE_RULES.unknownStage);
    return;
  }
  const had = id === null ? [] : ((await laborActivitiesOfRuns(ctx.scope, [id])).get(id) ?? []);
  for (const stage of known)
    if (stage.archivedAt !== null && !had.some((a) => a.setupStageId === stage.id))
      issue('stage_archived', stageArchived(stage.name));
}

/**
 * §5 "with setup stages, non-none setup needs at least one saved labor activity with a stage", for the form with
 * shifts (it sends no labor activities): the run's saved ones must name a stage when the company uses stages.
 */
async function checkSavedStage(ctx: ServiceCtx, id: string | null, s: ScheduleRunSave, issues: Issue[]) {
  if (s.startInSetup === 'none' || !(await companySettings(ctx.scope)).enableSetupStages) return;
  const saved = id === null ? [] : ((await laborActivitiesOfRuns(ctx.scope, [id])).get(id) ?? []);
  if (!saved.some((a) => a.setupStageId !== null))
    issues.push({ field: 'laborActivities', code: 'required', message: SCHEDULE_RULES.stageRequired });
}

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
  if (s.laborActivities !== undefined) await checkStages(ctx, id, s, s.laborActivities, issues);
  else if (s.shifts !== undefined) await checkSavedStage(ctx, id, s, issues);
  if (s.shifts !== undefined) {
    const shifts = [...new Set(s.shifts)];
    // The second form saves labor activities (its stages, production after them): they stand in for shifts.
    const labor =
      s.laborActivities !== undefined || (id !== null && (await runHasLaborActivities(ctx.scope, id)));
    if (shifts.length === 0 && !labor)
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

/** reports-admin §4 "none (setuptime null), planned, unplanned (setuptime 0)", the domain's rule (decision 1083). */
const setupTimeOf = (s: ScheduleRunSave, given: number | null | undefined): number | null =>
  runSetupTime(s.startInSetup, given);

/**
 * The labor activities the second form saves (decision 0940): each setup stage (setup true), then production
 * (no stage) from the setup end to the run's end, as the floor app's setup and Start Production leave them
 * (services/setup.ts), so the floor's stages and the job report's setup time read the same plan.
 */
const laborActivitiesOf = (
  s: ScheduleRunSave,
  stages: NonNullable<ScheduleRunSave['laborActivities']>,
  setupEnd: number | null,
): RunLaborActivity[] => [
  ...stages.map((a) => ({ startAt: a.startAt, endAt: a.endAt, setupStageId: a.setupStageId, setup: true })),
  ...(setupEnd === null ? [] : [{ startAt: setupEnd, endAt: s.enddate, setupStageId: null, setup: false }]),
];

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
  if (s.laborActivities !== undefined)
    await setRunLaborActivities(ctx.scope, id, laborActivitiesOf(s, s.laborActivities, setupEnd));
  // The rollups of every machine whose history changed, from the earlier of the old and the new start.
  await jobRunChanged(ctx.scope, old.machineId, Math.min(old.startAt, s.startdate));
  if (s.machine_id !== old.machineId) await jobRunChanged(ctx.scope, s.machine_id, s.startdate);
  return getProductionRun(ctx, id);
}

/**
 * Create a run from the schedule (reports-admin §2 Schedule: create, duplicate). A run made here has no job
 * machine standard behind it: its standards are the ones typed; parts count one per cycle (dispatch's default).
 */
export async function createProductionRun(ctx: ServiceCtx, s: ScheduleRunSave): Promise<ProductionRun> {
  // A new run has no saved labor activities: shifts are required (§5) unless the second form gives them.
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
  if (s.laborActivities !== undefined)
    await setRunLaborActivities(ctx.scope, id, laborActivitiesOf(s, s.laborActivities, setupEnd));
  await jobRunChanged(ctx.scope, s.machine_id, s.startdate);
  return getProductionRun(ctx, id);
}

/** Delete a run (reports-admin §2 Schedule: delete); the machine's figures from its start are recomputed. */
export async function deleteProductionRun(ctx: ServiceCtx, id: string): Promise<void> {
  const old = await getJobRun(ctx.scope, id);
  if (!old) throw notFound('Production run');
  await deleteJobRun(ctx.scope, id);
  await jobRunChanged(ctx.scope, old.machineId, old.startAt);
}
