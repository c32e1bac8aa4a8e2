import type { Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Job, JobMachine } from '@takt/domain';
import type { CompanyRow, JobMachinesTable, JobsTable, CompanyScope } from '@takt/db';

// Jobs and job machines (live-operations §3 Job, JobMachine). SQL only; one mapping function per table.

export type JobRow = Selectable<JobsTable>;
export type JobMachineRow = Selectable<JobMachinesTable>;

/** live-operations §3 JobMachine from its row. Setup time is in seconds; null is start-in-setup none. */
export const toJobMachine = (r: JobMachineRow): JobMachine => ({
  id: r.id,
  name: r.name,
  machine_id: r.machine_id,
  job_id: r.job_id,
  expectedCycleTime: r.expected_cycle_time,
  idealCycleTime: r.ideal_cycle_time,
  partCountMultiplier: r.part_count_multiplier,
  actualParts: r.actual_parts,
  reportedParts: r.reported_parts,
  requiredCycles: r.required_cycles,
  setuptime: r.setuptime,
  partBehavior: r.part_behavior,
  startInSetup: r.start_in_setup,
  schedule: { ends: r.schedule_ends ?? 'never' },
});

/** live-operations §3 Job from its row and its job machines. */
export const toJob = (r: JobRow, jobMachines: readonly JobMachineRow[]): Job & { hidden: boolean } => ({
  id: r.id,
  displayName: r.name,
  job_name: r.name,
  job_id: r.erp_job_id ?? '',
  expectedCycleTime: r.expected_cycle_time,
  idealCycleTime: r.ideal_cycle_time,
  setuptime: r.setuptime,
  partCountMultiplier: r.part_count_multiplier,
  actualParts: r.actual_parts,
  job_machines: jobMachines.filter((jm) => jm.job_id === r.id).map(toJobMachine),
  hidden: r.hidden === 1,
});

/** `lower(name) LIKE '%filter%'` with the filter's own % and _ taken literally, on both dialects. */
const nameContains = (filter: string) => {
  const escaped = filter.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return sql<boolean>`lower(jobs.name) like ${`%${escaped}%`} escape '\\'`;
};

export interface JobsQuery {
  filter: string;
  limit: number;
  offset: number;
  machineId?: string;
  includeHidden: boolean;
  /** Only the retired (hidden) jobs: the office's jobs list filtered to them (decision 1084). */
  onlyHidden?: boolean;
}

/** One page of jobs by name, and how many match in all (live-operations §7 jobs query: rows and count). */
export async function queryJobs(
  scope: CompanyScope,
  q: JobsQuery,
): Promise<{ rows: JobRow[]; count: number }> {
  let base = scope.selectFrom('jobs');
  if (q.filter !== '') base = base.where(nameContains(q.filter));
  if (q.onlyHidden) base = base.where('jobs.hidden', '=', 1);
  else if (!q.includeHidden) base = base.where('jobs.hidden', '=', 0);
  if (q.machineId) {
    const machineId = q.machineId;
    base = base.where('jobs.id', 'in', (eb) =>
      eb
        .selectFrom('job_machines')
        .select('job_machines.job_id')
        .where('job_machines.company_id', '=', scope.companyId)
        .where('job_machines.machine_id', '=', machineId),
    );
  }
  const [rows, total] = await Promise.all([
    base.selectAll('jobs').orderBy('jobs.name').orderBy('jobs.id').limit(q.limit).offset(q.offset).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function getJob(scope: CompanyScope, id: string): Promise<JobRow | undefined> {
  return scope.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertJob(scope: CompanyScope, row: CompanyRow<'jobs'>): Promise<void> {
  await scope.insertInto('jobs', row).execute();
}

export async function updateJobRow(scope: CompanyScope, id: string, set: Updateable<JobsTable>) {
  await scope.updateTable('jobs').set(set).where('id', '=', id).execute();
}

export async function jobMachinesOfJobs(
  scope: CompanyScope,
  jobIds: readonly string[],
): Promise<JobMachineRow[]> {
  if (jobIds.length === 0) return [];
  return scope
    .selectFrom('job_machines')
    .selectAll()
    .where('job_id', 'in', [...jobIds])
    .orderBy('created_at')
    .execute();
}

/** The jobs associated with one machine (live-operations §7 "list job machines for a machine"). */
export async function jobMachinesOfMachine(scope: CompanyScope, machineId: string): Promise<JobMachineRow[]> {
  return scope
    .selectFrom('job_machines')
    .selectAll()
    .where('machine_id', '=', machineId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function getJobMachine(
  scope: CompanyScope,
  jobId: string,
  machineId: string,
): Promise<JobMachineRow | undefined> {
  return scope
    .selectFrom('job_machines')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
}

export async function insertJobMachine(scope: CompanyScope, row: CompanyRow<'job_machines'>): Promise<void> {
  await scope.insertInto('job_machines', row).execute();
}

export async function updateJobMachine(scope: CompanyScope, id: string, set: Updateable<JobMachinesTable>) {
  await scope.updateTable('job_machines').set(set).where('id', '=', id).execute();
}

/** Whether a run of the job on the machine is open at `now`: not ended, or ending later (scheduled or running). */
export async function hasOpenRun(
  scope: CompanyScope,
  jobId: string,
  machineId: string,
  now: number,
): Promise<boolean> {
  const row = await scope
    .selectFrom('job_runs')
    .select('id')
    .where('job_id', '=', jobId)
    .where('machine_id', '=', machineId)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', now)]))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Removes a job machine. Its past runs keep their own copy of the standards, so they only let go of the
 * reference (the foreign key) first. Mutates job_runs and job_machines.
 */
export async function deleteJobMachine(scope: CompanyScope, id: string): Promise<void> {
  await scope
    .updateTable('job_runs')
    .set({ job_machine_id: null })
    .where('job_machine_id', '=', id)
    .execute();
  await scope.deleteFrom('job_machines').where('id', '=', id).execute();
}

export async function getJobMachineById(scope: CompanyScope, id: string): Promise<JobMachineRow | undefined> {
  return scope.selectFrom('job_machines').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countJobs(scope: CompanyScope): Promise<number> {
  const r = await scope
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
