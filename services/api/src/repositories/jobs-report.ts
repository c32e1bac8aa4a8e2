import { sql } from 'kysely';
import type { CompanyScope } from '@takt/db';
import type { JobRunRecord } from './dispatch';
import { toJobRun } from './dispatch';

// Queries of the warehouse job calls (services/jobs-report.ts; decision 0813). Every one goes through the
// caller's CompanyScope; joins match the company on both sides.

/** A job run overlapping a range, with its job's and machine's names. */
export type JobReportRun = JobRunRecord & { jobName: string; machineName: string };

/** job_runs rows of [start_at, end_at) (end_at null: still open) overlapping [start, end). */
const overlaps = (range: { start: number; end: number }) =>
  sql<boolean>`(job_runs.start_at < ${range.end} and (job_runs.end_at is null or job_runs.end_at > ${range.start}))`;

/** The runs overlapping the range, of one job and/or one machine when given, by job name, then start. */
export async function jobRunsOverlapping(
  scope: CompanyScope,
  q: { jobId?: string | undefined; machineIds?: readonly string[] | undefined },
  range: { start: number; end: number },
): Promise<JobReportRun[]> {
  if (q.machineIds && q.machineIds.length === 0) return [];
  let query = scope
    .selectFrom('job_runs')
    .innerJoin('jobs', (j) =>
      j.onRef('jobs.id', '=', 'job_runs.job_id').onRef('jobs.company_id', '=', 'job_runs.company_id'),
    )
    .innerJoin('machines', (j) =>
      j
        .onRef('machines.id', '=', 'job_runs.machine_id')
        .onRef('machines.company_id', '=', 'job_runs.company_id'),
    )
    .selectAll('job_runs')
    .select(['jobs.name as job_name', 'machines.name as machine_name'])
    .where(overlaps(range));
  if (q.jobId) query = query.where('job_runs.job_id', '=', q.jobId);
  if (q.machineIds) query = query.where('job_runs.machine_id', 'in', [...q.machineIds]);
  const rows = await query
    .orderBy('jobs.name')
    .orderBy('jobs.id')
    .orderBy('job_runs.start_at')
    .orderBy('job_runs.id')
    .execute();
  return rows.map((r) => ({ ...toJobRun(r), jobName: r.job_name, machineName: r.machine_name }));
}

/**
 * The company's jobs (not hidden) with no run on the machines (null: any machine) overlapping the range, by
 * name (the Jobs report's jobs not run).
 */
export async function jobsWithoutRuns(
  scope: CompanyScope,
  machineIds: readonly string[] | null,
  range: { start: number; end: number },
): Promise<Array<{ id: string; name: string }>> {
  let query = scope.selectFrom('jobs').select(['jobs.id', 'jobs.name']).where('jobs.hidden', '=', 0);
  if (machineIds?.length !== 0) {
    query = query.where('jobs.id', 'not in', (eb) => {
      let runs = eb
        .selectFrom('job_runs')
        .select('job_runs.job_id')
        .where('job_runs.company_id', '=', scope.companyId)
        .where(overlaps(range));
      if (machineIds) runs = runs.where('job_runs.machine_id', 'in', [...machineIds]);
      return runs;
    });
  }
  return query.orderBy('jobs.name').orderBy('jobs.id').execute();
}

/** The company's reject reasons (part adjustment types) of these ids: name and colour (the job detail's). */
export async function rejectReasons(
  scope: CompanyScope,
  ids: readonly string[],
): Promise<Map<string, { name: string; color: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await scope
    .selectFrom('part_adjustment_types')
    .select(['id', 'name', 'color'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, color: r.color }]));
}
