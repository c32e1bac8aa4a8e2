import type { Updateable } from 'kysely';
import { partCountMultiplier } from '@takt/domain';
import type { Job, JobMachine } from '@takt/domain';
import type { JobMachinesTable, JobsTable, PartBehavior, StartInSetup } from '@takt/db';
import { ApiError, notFound } from '../http/errors';
import type { JobRow } from '../repositories/jobs';
import {
  getJob,
  getJobMachine,
  deleteJobMachine,
  getJobMachineById,
  hasOpenRun,
  insertJob,
  insertJobMachine,
  jobMachinesOfJobs,
  jobMachinesOfMachine,
  queryJobs as queryJobRows,
  toJob,
  toJobMachine,
  updateJobMachine,
  updateJobRow,
} from '../repositories/jobs';
import { getMachine } from '../repositories/machines';
import type { ServiceCtx } from './context';

// Jobs and job machines (live-operations §3 Job and JobMachine, §7 jobs query); starting and stopping a job
// on a machine is dispatch.ts. Service functions take a ServiceCtx and never read the clock.

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

type Issue = { field: string; code: string; message: string };

export type JobView = Job & { hidden: boolean };

// ---- Jobs

export interface JobsQueryInput {
  limit: number;
  offset: number;
  filter: string;
  machineId?: string;
  includeHidden?: boolean;
  /** Only retired (hidden) jobs (decision 1084). */
  retired?: boolean;
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
    onlyHidden: q.retired ?? false,
    ...(q.machineId ? { machineId: q.machineId } : {}),
  });
  const jms = await jobMachinesOfJobs(
    ctx.scope,
    page.rows.map((r) => r.id),
  );
  const relevant = q.machineId ? jms.filter((jm) => jm.machine_id === q.machineId) : jms;
  return { rows: page.rows.map((r) => toJob(r, relevant)), count: page.count };
}

/** One job with every machine it is assigned to (the office's job screen, decision 1084). */
export async function getJobView(ctx: ServiceCtx, id: string): Promise<JobView> {
  const row = await getJob(ctx.scope, id);
  if (!row) throw notFound('Job');
  return toJob(row, await jobMachinesOfJobs(ctx.scope, [id]));
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

/**
 * Change a job's own fields (an ERP's work order changed; decision 1047); what is absent stays as it is. The
 * job machines' standards are their own (saveJobMachine).
 */
export async function updateJob(
  ctx: ServiceCtx,
  id: string,
  patch: Partial<JobCreateInput>,
): Promise<JobView> {
  if (!(await getJob(ctx.scope, id))) throw notFound('Job');
  const set: Updateable<JobsTable> = {};
  if (patch.name !== undefined) set.name = patch.name.trim();
  if (patch.erpJobId !== undefined) set.erp_job_id = patch.erpJobId;
  if (patch.expectedCycleTime !== undefined) set.expected_cycle_time = patch.expectedCycleTime;
  if (patch.idealCycleTime !== undefined) set.ideal_cycle_time = patch.idealCycleTime;
  if (patch.actualParts !== undefined) {
    // A job's multiplier is its parts per cycle (decision 0300).
    set.actual_parts = patch.actualParts;
    set.part_count_multiplier = patch.actualParts;
  }
  if (patch.setuptime !== undefined) set.setuptime = patch.setuptime;
  if (patch.quantity !== undefined) set.quantity = patch.quantity;
  if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
  if (Object.keys(set).length > 0) await updateJobRow(ctx.scope, id, set);
  const row = await getJob(ctx.scope, id);
  if (!row) throw notFound('Job');
  return toJob(row, await jobMachinesOfJobs(ctx.scope, [id]));
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

/** The answer's text when a run of the job is open on the machine (decision 1106). */
export const JOB_MACHINE_IN_USE =
  'This job has an open run on this machine. End or stop the run before removing the job from the machine.';

/**
 * JobMachine delete (decision 1106): the job is no longer offered on the machine. Refused (409) while a run of
 * the job on that machine is open (running, or scheduled to end later); past runs keep their figures.
 */
export async function removeJobMachine(ctx: ServiceCtx, id: string): Promise<void> {
  const row = await getJobMachineById(ctx.scope, id);
  if (!row) throw notFound('Job machine');
  if (await hasOpenRun(ctx.scope, row.job_id, row.machine_id, ctx.now))
    throw new ApiError(409, 'JOB_RUN_OPEN', JOB_MACHINE_IN_USE);
  await deleteJobMachine(ctx.scope, id);
}
