import { expectedSetupMs, runSetupMode, runSetupTime, startSetupTime } from '@takt/domain';
import type { JobRunFigures, LaborActivitySet, SetupStage } from '@takt/domain';
import type { PartBehavior, StartInSetup, CompanyScope } from '@takt/db';
import { jobRunChanged } from '@takt/db';
import { ApiError, notFound } from '../http/errors';
import type { JobRunRecord } from '../repositories/dispatch';
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
} from '../repositories/dispatch';
import type { JobMachineRow } from '../repositories/jobs';
import { getJob, getJobMachine, getJobMachineById, insertJobMachine } from '../repositories/jobs';
import { getMachine } from '../repositories/machines';
import { getSetupStage, setupStagesByIds } from '../repositories/setup-stages';
import type { ServiceCtx } from './context';
import { jobMachineFromJob } from './jobs';
import type { JobMachineValues } from './jobs';

// Job dispatch: the job runs a machine starts and stops (live-operations §2 Start/Stop Job, §4 Job dispatch,
// §7 "Job dispatch"). Service functions take a ServiceCtx and never read the clock: facts are recorded at
// ctx.at so the offline sync can replay a command at its occurredAt.

/** live-operations §8: the text of every start failure; the reasons travel in the errors list. */
export const JOB_START_FAILED = 'Job could not be started';

type Issue = { field: string; code: string; message: string };

const startFailed = (status: 400 | 409, code: string, issues: Issue[]) =>
  new ApiError(status, code, JOB_START_FAILED, issues);

/** reports-admin §3 Job schedule group, with its labor activity set (same id, decision 0300). */
export interface JobRunView extends JobRunFigures {
  id: string;
  job_id: string;
  jobName: string;
  machine_id: string;
  startdate: number;
  enddate: number | null;
  setupMode: StartInSetup;
  reportedParts: number | null;
  requiredCycles: number | null;
  partBehavior: PartBehavior;
  setupNote: string | null;
  laborActivitySet: LaborActivitySet;
}

/**
 * The duration a run's setup is timed against (live-operations §2 "Setup timer against expected duration"):
 * its own setup time, else its job machine's (a start stores 0, decision 1083).
 */
export async function runExpectedSetupMs(scope: CompanyScope, run: JobRunRecord): Promise<number | null> {
  const stored = expectedSetupMs(run.setupMode, run.expectedSetupMs, null);
  if (stored != null || run.setupMode === 'none' || !run.jobMachineId) return stored;
  const jm = await getJobMachineById(scope, run.jobMachineId);
  return expectedSetupMs(
    run.setupMode,
    run.expectedSetupMs,
    jm?.setuptime == null ? null : jm.setuptime * 1000,
  );
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
    expectedSetupDuration: await runExpectedSetupMs(scope, run),
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
    setuptime: runSetupTime(run.setupMode, run.expectedSetupMs == null ? null : run.expectedSetupMs / 1000),
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
  // Start in setup means one thing from every entry point (decision 1083): none null, planned and unplanned 0.
  const setupMode: StartInSetup = runSetupMode(input.setup, jm.start_in_setup);
  const setupSeconds = startSetupTime(setupMode);
  // A run changes how the machine's time and cycles count from its start (METRICS.md §4): the rollups
  // from there are recomputed, marked in this transaction.
  await jobRunChanged(scope, input.id, at);
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
    expected_setup_ms: setupSeconds === null ? null : setupSeconds * 1000,
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
  await jobRunChanged(scope, run.machineId, run.startAt);
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
