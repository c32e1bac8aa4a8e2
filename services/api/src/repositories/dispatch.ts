import type { Selectable, Updateable } from 'kysely';
import type { CompanyRow, JobRunsTable, LaborActivitiesTable, CompanyScope } from '@takt/db';

// Job dispatch's storage: job runs ("job schedule groups") and their labor activities (live-operations §3
// Labor activity set, reports-admin §3 Job schedule group). A job run's id is also its labor activity set's
// id (decision 0300). SQL only; one mapping function per table.

export type JobRunRow = Selectable<JobRunsTable>;
export type LaborActivityRow = Selectable<LaborActivitiesTable>;

/** A job run as the services use it. */
export interface JobRunRecord {
  id: string;
  machineId: string;
  jobId: string;
  jobMachineId: string | null;
  startAt: number;
  endAt: number | null;
  setupMode: JobRunsTable['setup_mode'];
  /** When production started; null while in setup. */
  setupEnd: number | null;
  expectedCycleTime: number;
  idealCycleTime: number;
  partCountMultiplier: number;
  actualParts: number;
  reportedParts: number | null;
  requiredCycles: number | null;
  partBehavior: JobRunsTable['part_behavior'];
  expectedSetupMs: number | null;
  setupNote: string | null;
}

export const toJobRun = (r: JobRunRow): JobRunRecord => ({
  id: r.id,
  machineId: r.machine_id,
  jobId: r.job_id,
  jobMachineId: r.job_machine_id,
  startAt: r.start_at,
  endAt: r.end_at,
  setupMode: r.setup_mode,
  setupEnd: r.setup_end,
  expectedCycleTime: r.expected_cycle_time,
  idealCycleTime: r.ideal_cycle_time,
  partCountMultiplier: r.part_count_multiplier,
  actualParts: r.actual_parts,
  reportedParts: r.reported_parts,
  requiredCycles: r.required_cycles,
  partBehavior: r.part_behavior,
  expectedSetupMs: r.expected_setup_ms,
  setupNote: r.setup_note,
});

export interface LaborActivityRecord {
  id: string;
  jobRunId: string;
  startAt: number;
  endAt: number | null;
  setupStageId: string | null;
  setup: boolean;
}

export const toLaborActivity = (r: LaborActivityRow): LaborActivityRecord => ({
  id: r.id,
  jobRunId: r.job_run_id,
  startAt: r.start_at,
  endAt: r.end_at,
  setupStageId: r.setup_stage_id,
  setup: r.setup === 1,
});

/**
 * Take the machine's row lock for the rest of the transaction, so two tablets starting a job on the same
 * machine at once cannot both see it free. A no-op UPDATE locks the row on PostgreSQL and is portable
 * (SQLite serialises writers anyway). Returns false when the company has no such machine.
 */
export async function lockMachine(scope: CompanyScope, machineId: string): Promise<boolean> {
  const r = await scope
    .updateTable('machines')
    .set((eb) => ({ sort_order: eb.ref('sort_order') }))
    .where('id', '=', machineId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The machine's running job (end_at null), if any. */
export async function openRunOnMachine(
  scope: CompanyScope,
  machineId: string,
): Promise<JobRunRecord | undefined> {
  const row = await scope
    .selectFrom('job_runs')
    .selectAll()
    .where('machine_id', '=', machineId)
    .where('end_at', 'is', null)
    .orderBy('start_at', 'desc')
    .executeTakeFirst();
  return row && toJobRun(row);
}

/** The latest end of the machine's finished runs: a new run may not start before it. */
export async function lastRunEnd(scope: CompanyScope, machineId: string): Promise<number | null> {
  const r = await scope
    .selectFrom('job_runs')
    .select((eb) => eb.fn.max<number | string | null>('end_at').as('last'))
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  return r?.last == null ? null : Number(r.last);
}

export async function getJobRun(scope: CompanyScope, id: string): Promise<JobRunRecord | undefined> {
  const row = await scope.selectFrom('job_runs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toJobRun(row);
}

export async function insertJobRun(scope: CompanyScope, row: CompanyRow<'job_runs'>): Promise<void> {
  await scope.insertInto('job_runs', row).execute();
}

export async function updateJobRun(scope: CompanyScope, id: string, set: Updateable<JobRunsTable>) {
  await scope.updateTable('job_runs').set(set).where('id', '=', id).execute();
}

export async function laborActivitiesOfRun(
  scope: CompanyScope,
  jobRunId: string,
): Promise<LaborActivityRecord[]> {
  const rows = await scope
    .selectFrom('labor_activities')
    .selectAll()
    .where('job_run_id', '=', jobRunId)
    .orderBy('start_at')
    .orderBy('end_at')
    .execute();
  return rows.map(toLaborActivity);
}

export async function insertLaborActivity(
  scope: CompanyScope,
  input: { jobRunId: string; startAt: number; setupStageId: string | null; setup: boolean },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('labor_activities', {
      id,
      job_run_id: input.jobRunId,
      start_at: input.startAt,
      end_at: null,
      setup_stage_id: input.setupStageId,
      setup: input.setup ? 1 : 0,
    })
    .execute();
  return id;
}

/** End every open labor activity of the run at `at`. */
export async function closeOpenLaborActivities(
  scope: CompanyScope,
  jobRunId: string,
  at: number,
): Promise<void> {
  await scope
    .updateTable('labor_activities')
    .set({ end_at: at })
    .where('job_run_id', '=', jobRunId)
    .where('end_at', 'is', null)
    .execute();
}

/** Σ count of the run's setup part adjustments (the removals saved when setup ended; negative). */
export async function setupAdjustmentTotal(scope: CompanyScope, jobRunId: string): Promise<number> {
  const r = await scope
    .selectFrom('part_adjustments')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('total'))
    .where('job_run_id', '=', jobRunId)
    .where('kind', '=', 'setup')
    .executeTakeFirst();
  return Number(r?.total ?? 0);
}

/** live-operations §4 Setup: the negative part adjustment of the parts removed after setup. */
export async function insertSetupAdjustment(
  scope: CompanyScope,
  input: {
    machineId: string;
    jobRunId: string;
    at: number;
    count: number;
    message: string | null;
    createdBy: string | null;
    createdAt: number;
  },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('part_adjustments', {
      id,
      machine_id: input.machineId,
      adjustment_time: input.at,
      type_id: null,
      scrapcount: 0,
      count: input.count,
      message: input.message,
      reject_behavior: null,
      deduct_from_good_parts: 0,
      job_run_id: input.jobRunId,
      kind: 'setup',
      created_by: input.createdBy,
      created_at: input.createdAt,
    })
    .execute();
  return id;
}
