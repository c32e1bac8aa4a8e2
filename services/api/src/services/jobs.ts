import { partCountMultiplier } from '@takt/domain';
import type { Job, JobMachine, LaborActivitySet, SetupStage } from '@takt/domain';
import type { JobMachinesTable, PartBehavior, StartInSetup, CompanyScope } from '@takt/db';
import { historyChanged } from '@takt/db/rollups';
import { ApiError, notFound } from '../http/errors';
import type { JobRunRecord } from '../repositories/job-runs';
import {
  closeOpenLaborActivities,
  getJobRun,
  insertJobRun,
  insertLaborActivity,
  laborActivitiesOfRun,
  lastRunEnd,
  lockMachine,
  openRunOnMachine,
  updateJobRun,
} from '../repositories/job-runs';
import type { JobMachineRow, JobRow } from '../repositories/jobs';
import {
  getJob,
  getJobMachine,
  getJobMachineById,
  insertJob,
  insertJobMachine,
  jobMachinesOfJobs,
  jobMachinesOfMachine,
  queryJobs as queryJobRows,
  toJob,
  toJobMachine,
  updateJobMachine,
} from '../repositories/jobs';
import { getMachine } from '../repositories/machines';
import { getSetupStage, setupStagesByIds } from '../repositories/setup-stages';
import type { ServiceCtx } from './context';

// Jobs, job machines and dispatch (live-operations §2 Start/Stop Job, §3 Job and JobMachine, §4 Job
// dispatch, §7 "Job dispatch"). Service functions take a ServiceCtx and never read the clock: facts are
// recorded at ctx.at so the offline sync can replay a command at its occurredAt.

/** live-operations §9 defaults of a job and of a job machine. */
export const JOB_DEFAULTS = {
  expectedCycleTime: 60_000,
  idealCycleTime: 60_000,
  partCountMultiplier: 1,
  actualParts: 1,
} as const;

/** live-operations §9: job page size in the workcenter, and the admins' search / completions limit. */
export const JOB_PAGE_SIZE = 15;
export const JOB_SEARCH_LIMIT = 10;

/** live-operations §8: the text of every start failure; the reasons travel in the errors list. */
export const JOB_START_FAILED = 'Job could not be started';

type Issue = { field: string; code: string; message: string };

const startFailed = (status: 400 | 409, code: string, issues: Issue[]) =>
  new ApiError(status, code, JOB_START_FAILED, issues);

export type JobView = Job & { hidden: boolean };

// ---- Jobs

export interface JobsQueryInput {
  limit: number;
  offset: number;
  filter: string;
  machineId?: string;
  includeHidden?: boolean;
}

/** Jobs by case-insensitive name, a page at a time, with the total count (live-operations §7 jobs query). */
export async function queryJobs(
  ctx: ServiceCtx,
  q: JobsQueryInput,
): Promise<{ rows: JobView[]; count: number }> {
  if (q.machineId && !(await getMachine(ctx.scope, q.machineId))) throw notFound('Machine');
  const page = await queryJobRows(ctx.scope, {
    filter: q.filter.trim(),
    limit: q.limit,
    offset: q.offset,
    includeHidden: q.includeHidden ?? false,
    ...(q.machineId ? { machineId: q.machineId } : {}),
  });
  const jms = await jobMachinesOfJobs(
    ctx.scope,
    page.rows.map((r) => r.id),
  );
  const relevant = q.machineId ? jms.filter((jm) => jm.machine_id === q.machineId) : jms;
  return { rows: page.rows.map((r) => toJob(r, relevant)), count: page.count };
}

export interface JobCreateInput {
  name: string;
  erpJobId?: string | null;
  expectedCycleTime?: number;
  /** 0 = no standard (reports show the missing-standards warning, METRICS.md §3). */
  idealCycleTime?: number;
  /** Parts per cycle. */
  actualParts?: number;
  /** Seconds; null = no setup (start in production only). */
  setuptime?: number | null;
  quantity?: number | null;
  hidden?: boolean;
}

/** Create a job with the spec's default standards for what is not given. */
export async function createJob(ctx: ServiceCtx, input: JobCreateInput): Promise<JobView> {
  const id = crypto.randomUUID();
  const actualParts = input.actualParts ?? JOB_DEFAULTS.actualParts;
  await insertJob(ctx.scope, {
    id,
    name: input.name.trim(),
    erp_job_id: input.erpJobId ?? null,
    expected_cycle_time: input.expectedCycleTime ?? JOB_DEFAULTS.expectedCycleTime,
    ideal_cycle_time: input.idealCycleTime ?? JOB_DEFAULTS.idealCycleTime,
    // A job's multiplier is its parts per cycle (decision 0300).
    part_count_multiplier: actualParts,
    actual_parts: actualParts,
    setuptime: input.setuptime ?? null,
    quantity: input.quantity ?? null,
    hidden: input.hidden ? 1 : 0,
    created_at: ctx.now,
  });
  const row = await getJob(ctx.scope, id);
  if (!row) throw new Error('job vanished after insert');
  return toJob(row, []);
}

// ---- Job machines

/** The jobs associated with a machine (what non-admins pick from in the Start Job overlay). */
export async function listJobMachines(ctx: ServiceCtx, machineId: string): Promise<JobMachine[]> {
  if (!(await getMachine(ctx.scope, machineId))) throw notFound('Machine');
  return (await jobMachinesOfMachine(ctx.scope, machineId)).map(toJobMachine);
}

/** Every field of a job machine the save call may change; what is absent stays as it is. */
export interface JobMachineFields {
  name?: string;
  expectedCycleTime?: number;
  idealCycleTime?: number;
  /** Ignored: derived from the part behavior (decision 0300). */
  partCountMultiplier?: number;
  actualParts?: number;
  reportedParts?: number | null;
  requiredCycles?: number | null;
  /** Seconds. */
  setuptime?: number | null;
  partBehavior?: PartBehavior;
  startInSetup?: StartInSetup;
  schedule?: { ends: 'never' | number };
}

export interface JobMachineSaveInput {
  job_id: string;
  job_machine: JobMachineFields & { machine_id: string };
}

export type JobMachineValues = Pick<
  JobMachinesTable,
  | 'name'
  | 'expected_cycle_time'
  | 'ideal_cycle_time'
  | 'part_count_multiplier'
  | 'actual_parts'
  | 'reported_parts'
  | 'required_cycles'
  | 'setuptime'
  | 'part_behavior'
  | 'start_in_setup'
  | 'schedule_ends'
>;

/**
 * A new job machine starts from its job's standards, which default to the spec's 60000 ms / 60000 ms /
 * 1 / 1 (decision 0300): a job with its own standards keeps them on every machine it is dispatched to.
 */
export function jobMachineFromJob(job: JobRow): JobMachineValues {
  const actualParts = Math.max(1, job.actual_parts);
  return {
    name: job.name,
    expected_cycle_time: job.expected_cycle_time,
    ideal_cycle_time: job.ideal_cycle_time,
    part_count_multiplier: actualParts,
    actual_parts: actualParts,
    reported_parts: null,
    required_cycles: null,
    setuptime: job.setuptime,
    part_behavior: actualParts > 1 ? 'manyparts' : 'one',
    // Setup is an availability loss in OEE unless someone says it is planned.
    start_in_setup: job.setuptime == null ? 'none' : 'unplanned',
    schedule_ends: null,
  };
}

/**
 * live-operations §4 and §5: the part-behavior fields relevant to the behavior are required (min 1 is the
 * schema's), the multiplier follows the behavior, start-in-setup none clears the setup time and planned or
 * unplanned set it to 0 when missing.
 */
function mergeJobMachine(
  base: JobMachineValues,
  f: JobMachineFields,
): { values: JobMachineValues; issues: Issue[] } {
  const issues: Issue[] = [];
  const partBehavior = f.partBehavior ?? base.part_behavior;
  const actualParts = f.actualParts ?? base.actual_parts;
  const reportedParts = f.reportedParts !== undefined ? f.reportedParts : base.reported_parts;
  const requiredCycles = f.requiredCycles !== undefined ? f.requiredCycles : base.required_cycles;
  if (partBehavior === 'manycycles') {
    if (reportedParts == null)
      issues.push({
        field: 'job_machine.reportedParts',
        code: 'required',
        message: 'Missing required field: Reported Parts',
      });
    if (requiredCycles == null)
      issues.push({
        field: 'job_machine.requiredCycles',
        code: 'required',
        message: 'Missing required field: Required Cycles',
      });
  }
  let startInSetup = f.startInSetup ?? base.start_in_setup;
  if (f.startInSetup === undefined && f.setuptime !== undefined) {
    // A setup time given without a mode switches setup on (or off, when null).
    if (f.setuptime === null) startInSetup = 'none';
    else if (startInSetup === 'none') startInSetup = 'unplanned';
  }
  const setuptimeIn = f.setuptime !== undefined ? f.setuptime : base.setuptime;
  const setuptime = startInSetup === 'none' ? null : (setuptimeIn ?? 0);
  const values: JobMachineValues = {
    name: f.name?.trim() || base.name,
    expected_cycle_time: f.expectedCycleTime ?? base.expected_cycle_time,
    ideal_cycle_time: f.idealCycleTime ?? base.ideal_cycle_time,
    part_count_multiplier: partCountMultiplier({ partBehavior, actualParts, reportedParts, requiredCycles }),
    actual_parts: actualParts,
    reported_parts: reportedParts,
    required_cycles: requiredCycles,
    setuptime,
    part_behavior: partBehavior,
    start_in_setup: startInSetup,
    schedule_ends:
      f.schedule === undefined ? base.schedule_ends : f.schedule.ends === 'never' ? null : f.schedule.ends,
  };
  return { values, issues };
}

/** Associate a job with a machine or change its standards there (live-operations §7 JobMachine save). */
export async function saveJobMachine(
  ctx: ServiceCtx,
  input: JobMachineSaveInput,
): Promise<{ jobMachine: JobMachine; created: boolean }> {
  const machineId = input.job_machine.machine_id;
  if (!(await getMachine(ctx.scope, machineId))) throw notFound('Machine');
  const job = await getJob(ctx.scope, input.job_id);
  if (!job) throw notFound('Job');
  const existing = await getJobMachine(ctx.scope, job.id, machineId);
  const { values, issues } = mergeJobMachine(existing ?? jobMachineFromJob(job), input.job_machine);
  if (issues.length > 0) {
    throw new ApiError(400, 'VALIDATION_ERROR', issues.map((i) => i.message).join('; '), issues);
  }
  let id: string;
  if (existing) {
    id = existing.id;
    await updateJobMachine(ctx.scope, id, values);
  } else {
    id = crypto.randomUUID();
    await insertJobMachine(ctx.scope, {
      id,
      job_id: job.id,
      machine_id: machineId,
      created_at: ctx.now,
      ...values,
    });
  }
  const row = await getJobMachineById(ctx.scope, id);
  if (!row) throw new Error('job machine vanished after save');
  return { jobMachine: toJobMachine(row), created: !existing };
}

// ---- Job runs (dispatch)

/** reports-admin §3 Job schedule group, with its labor activity set (same id, decision 0300). */
export interface JobRunView {
  id: string;
  job_id: string;
  jobName: string;
  machine_id: string;
  startdate: number;
  enddate: number | null;
  setupMode: StartInSetup;
  /** Expected setup, seconds; null when not started in setup. */
  setuptime: number | null;
  /** When production started; null while in setup. */
  setupend: number | null;
  cycletime: number;
  idealcycletime: number;
  partcount_multiplier: number;
  actualParts: number;
  reportedParts: number | null;
  requiredCycles: number | null;
  partBehavior: PartBehavior;
  setupNote: string | null;
  laborActivitySet: LaborActivitySet;
}

/** live-operations §3 Labor activity set of a run, each activity with its setup stage object. */
export async function loadLaborActivitySet(
  scope: CompanyScope,
  run: JobRunRecord,
): Promise<LaborActivitySet> {
  const activities = await laborActivitiesOfRun(scope, run.id);
  const stageIds = [...new Set(activities.flatMap((a) => (a.setupStageId ? [a.setupStageId] : [])))];
  const stages = new Map<string, SetupStage>((await setupStagesByIds(scope, stageIds)).map((s) => [s.id, s]));
  return {
    id: run.id,
    startAt: run.startAt,
    endAt: run.endAt,
    jobId: run.jobId,
    machineId: run.machineId,
    expectedUnitDuration:
      run.partCountMultiplier > 0 ? run.expectedCycleTime / run.partCountMultiplier : null,
    expectedSetupDuration: run.expectedSetupMs,
    laborActivities: activities.map((a) => ({
      startAt: a.startAt,
      endAt: a.endAt,
      setupStageId: a.setupStageId,
      setupStage: a.setupStageId ? (stages.get(a.setupStageId) ?? null) : null,
      setup: a.setup,
    })),
  };
}

export async function jobRunView(scope: CompanyScope, run: JobRunRecord): Promise<JobRunView> {
  const job = await getJob(scope, run.jobId);
  return {
    id: run.id,
    job_id: run.jobId,
    jobName: job?.name ?? '',
    machine_id: run.machineId,
    startdate: run.startAt,
    enddate: run.endAt,
    setupMode: run.setupMode,
    setuptime: run.expectedSetupMs == null ? null : run.expectedSetupMs / 1000,
    setupend: run.setupEnd,
    cycletime: run.expectedCycleTime,
    idealcycletime: run.idealCycleTime,
    partcount_multiplier: run.partCountMultiplier,
    actualParts: run.actualParts,
    reportedParts: run.reportedParts,
    requiredCycles: run.requiredCycles,
    partBehavior: run.partBehavior,
    setupNote: run.setupNote,
    laborActivitySet: await loadLaborActivitySet(scope, run),
  };
}

/**
 * GET /api/dispatch/current: the job run open on the machine (its labor activity set included), or null when
 * the machine is not scheduled. Another company's machine is 404.
 */
export async function currentJobRun(ctx: ServiceCtx, machineId: string): Promise<JobRunView | null> {
  if (!(await getMachine(ctx.scope, machineId))) throw notFound('Machine');
  const run = await openRunOnMachine(ctx.scope, machineId);
  return run ? jobRunView(ctx.scope, run) : null;
}

async function reloadRun(scope: CompanyScope, id: string): Promise<JobRunView> {
  const run = await getJobRun(scope, id);
  if (!run) throw new Error('job run vanished');
  return jobRunView(scope, run);
}

export interface JobStartInput {
  /** The machine. */
  id: string;
  jobId: string;
  setup: boolean;
  setupStageId?: string | null;
}

/**
 * Start a job on a machine at ctx.at (sync command start_job). The machine must have no running job
 * (stop it first: nothing is stopped implicitly, decision 0300). The run copies the job machine's
 * standards; an unassociated job is associated first with its job's standards. Start in setup needs a
 * setup time and opens a setup labor activity (on the stage, if given); start in production opens a
 * production labor activity.
 */
export async function startJob(ctx: ServiceCtx, input: JobStartInput): Promise<JobRunView> {
  const { scope, at } = ctx;
  if (!(await lockMachine(scope, input.id))) throw notFound('Machine');
  const job = await getJob(scope, input.jobId);
  if (!job) throw notFound('Job');
  const stage = input.setupStageId ? await getSetupStage(scope, input.setupStageId) : null;
  if (input.setupStageId && !stage) throw notFound('Setup stage');

  const running = await openRunOnMachine(scope, input.id);
  if (running) {
    throw startFailed(409, 'JOB_ALREADY_RUNNING', [
      {
        field: 'id',
        code: 'job_running',
        message: 'A job is already running on this machine. Stop it first.',
      },
    ]);
  }
  const issues: Issue[] = [];
  const lastEnd = await lastRunEnd(scope, input.id);
  if (lastEnd != null && at < lastEnd) {
    issues.push({
      field: 'id',
      code: 'before_previous_run',
      message: 'Another job ran on this machine after this time.',
    });
  }
  const existing = await getJobMachine(scope, job.id, input.id);
  const standards: JobMachineValues = existing ?? jobMachineFromJob(job);
  if (input.setup && standards.setuptime == null) {
    issues.push({
      field: 'setup',
      code: 'no_setup_time',
      message: 'This job has no setup time: start it in production.',
    });
  }
  if (stage && !input.setup) {
    issues.push({
      field: 'setupStageId',
      code: 'stage_without_setup',
      message: 'A setup stage needs a start in setup.',
    });
  }
  if (stage && stage.archivedAt != null) {
    issues.push({
      field: 'setupStageId',
      code: 'stage_archived',
      message: `Setup stage ${stage.name} is archived.`,
    });
  }
  if (issues.length > 0) throw startFailed(400, 'JOB_START_FAILED', issues);

  // live-operations §4: "optionally associate it with the machine first (creates the JobMachine)".
  let jm: JobMachineRow | undefined = existing;
  if (!jm) {
    const id = crypto.randomUUID();
    await insertJobMachine(scope, {
      id,
      job_id: job.id,
      machine_id: input.id,
      created_at: ctx.now,
      ...standards,
    });
    jm = await getJobMachineById(scope, id);
    if (!jm) throw new Error('job machine vanished after insert');
  }

  const runId = crypto.randomUUID();
  const setupMode: StartInSetup = input.setup
    ? jm.start_in_setup === 'none'
      ? 'unplanned'
      : jm.start_in_setup
    : 'none';
  // A run changes how the machine's time and cycles count from its start (METRICS.md §4): the rollups
  // from there are recomputed, marked in this transaction.
  await historyChanged(scope, input.id, at);
  await insertJobRun(scope, {
    id: runId,
    machine_id: input.id,
    job_id: job.id,
    job_machine_id: jm.id,
    start_at: at,
    end_at: null,
    setup_mode: setupMode,
    // Started in production: production starts now (METRICS.md §4 production runtime).
    setup_end: input.setup ? null : at,
    expected_cycle_time: jm.expected_cycle_time,
    ideal_cycle_time: jm.ideal_cycle_time,
    part_count_multiplier: jm.part_count_multiplier,
    actual_parts: jm.actual_parts,
    reported_parts: jm.reported_parts,
    required_cycles: jm.required_cycles,
    part_behavior: jm.part_behavior,
    expected_setup_ms: input.setup && jm.setuptime != null ? jm.setuptime * 1000 : null,
    setup_note: null,
    created_at: ctx.now,
  });
  await insertLaborActivity(scope, {
    jobRunId: runId,
    startAt: at,
    setupStageId: input.setup ? (stage?.id ?? null) : null,
    setup: input.setup,
  });
  return reloadRun(scope, runId);
}

export interface JobStopInput {
  /** The machine. */
  id: string;
  jobId: string;
  laborActivitySetId?: string | null;
}

/** Stop the job running on a machine at ctx.at (sync command stop_job): ends the run and its open activity. */
export async function stopJob(ctx: ServiceCtx, input: JobStopInput): Promise<JobRunView> {
  const { scope, at } = ctx;
  if (!(await lockMachine(scope, input.id))) throw notFound('Machine');
  const job = await getJob(scope, input.jobId);
  if (!job) throw notFound('Job');
  const run = await openRunOnMachine(scope, input.id);
  if (!run) throw new ApiError(409, 'NO_JOB_RUNNING', 'No job is running on this machine.');
  if (run.jobId !== job.id) {
    throw new ApiError(409, 'JOB_NOT_RUNNING', `${job.name} is not the job running on this machine.`);
  }
  if (input.laborActivitySetId && input.laborActivitySetId !== run.id) {
    throw new ApiError(
      409,
      'JOB_NOT_RUNNING',
      'That labor activity set is not the running job on this machine.',
    );
  }
  await assertNotBeforeLastChange(scope, run, at);
  await updateJobRun(scope, run.id, { end_at: at });
  // The stop changes how the run's time and cycles count, from its start (METRICS.md §4).
  await historyChanged(scope, run.machineId, run.startAt);
  await closeOpenLaborActivities(scope, run.id, at);
  return reloadRun(scope, run.id);
}

/** A change recorded at `at` may not precede the run's start or its latest labor activity (sync replays). */
export async function assertNotBeforeLastChange(
  scope: CompanyScope,
  run: JobRunRecord,
  at: number,
  message = 'That time is before the last change of this job.',
  code = 'BEFORE_LAST_CHANGE',
): Promise<void> {
  const activities = await laborActivitiesOfRun(scope, run.id);
  const last = Math.max(run.startAt, ...activities.map((a) => a.startAt));
  if (at < last) throw new ApiError(409, code, message);
}
