import type { CompanyScope } from '../db/scope';
import type { JobRunRecord } from './job-runs';
import { toJobRun } from './job-runs';

// Queries behind the live dashboards' batched figures (services/dashboard-live.ts).

/** The open job run of each of the machines (the latest one if, against the rules, there are two). */
export async function openRunsOn(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, JobRunRecord>> {
  if (machineIds.length === 0) return new Map();
  const rows = await scope
    .selectFrom('job_runs')
    .selectAll()
    .where('machine_id', 'in', [...machineIds])
    .where('end_at', 'is', null)
    .orderBy('start_at')
    .execute();
  // Ordered by start: a later run overwrites an earlier one, as openRunOnMachine picks the latest.
  return new Map(rows.map((r) => [r.machine_id, toJobRun(r)]));
}

/** The company's goal and utilization percents (live-operations §4). */
export async function companyLimits(scope: CompanyScope): Promise<{
  warningPercent: number;
  failurePercent: number;
  utilizationWarningPercent: number;
  utilizationFailurePercent: number;
}> {
  const c = await scope.db
    .selectFrom('companies')
    .select(['warningpercent', 'failurepercent', 'utilization_warningpercent', 'utilization_failurepercent'])
    .where('id', '=', scope.companyId)
    .executeTakeFirstOrThrow();
  return {
    warningPercent: c.warningpercent,
    failurePercent: c.failurepercent,
    utilizationWarningPercent: c.utilization_warningpercent,
    utilizationFailurePercent: c.utilization_failurepercent,
  };
}
