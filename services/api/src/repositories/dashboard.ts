import { sql } from 'kysely';
import type { CompanyScope } from '@takt/db';
import { companyObservations } from '@takt/db';
import type { JobRunRecord } from './dispatch';
import { toJobRun } from './dispatch';

// Queries behind the live dashboards' batched figures (services/dashboard.ts).

/** The open job run of each of the machines (the latest one if, against the rules, there are two). */
export async function openRunsOn(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, JobRunRecord>> {
  if (machineIds.length === 0) return new Map();
  return openRunsWhere(scope, machineIds);
}

/** openRunsOn for every machine of the company (the dashboard answer's read, decision 1146): no list of ids. */
export const companyOpenRuns = (scope: CompanyScope): Promise<Map<string, JobRunRecord>> =>
  openRunsWhere(scope, null);

async function openRunsWhere(
  scope: CompanyScope,
  machineIds: readonly string[] | null,
): Promise<Map<string, JobRunRecord>> {
  let q = scope.selectFrom('job_runs').selectAll().where('end_at', 'is', null);
  if (machineIds) q = q.where('machine_id', 'in', [...machineIds]);
  const rows = await q.orderBy('start_at').execute();
  // Ordered by start: a later run overwrites an earlier one, as openRunOnMachine picks the latest.
  return new Map(rows.map((r) => [r.machine_id, toJobRun(r)]));
}

/** The groups each of the machines is in (a tile's groupIds) without reading the company's other members. */
export async function groupIdsOf(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (machineIds.length === 0) return out;
  // In the groups' order, as listGroups lists them.
  const rows = await scope
    .selectFrom('machine_group_members')
    .innerJoin('machine_groups as g', (j) =>
      j
        .onRef('g.id', '=', 'machine_group_members.group_id')
        .onRef('g.company_id', '=', 'machine_group_members.company_id'),
    )
    .select(['machine_group_members.machine_id', 'machine_group_members.group_id'])
    .where('machine_group_members.machine_id', 'in', [...machineIds])
    .orderBy('g.sort_order')
    .orderBy('g.name')
    .execute();
  for (const r of rows) {
    const ids = out.get(r.machine_id);
    if (ids) ids.push(r.group_id);
    else out.set(r.machine_id, [r.group_id]);
  }
  return out;
}

/** The company's goal and utilization percents (live-operations §4). */
export async function companyLimits(scope: CompanyScope): Promise<{
  warningPercent: number;
  failurePercent: number;
  utilizationWarningPercent: number;
  utilizationFailurePercent: number;
  oeeWarningPercent: number;
  oeeFailurePercent: number;
}> {
  const c = await scope.db
    .selectFrom('companies')
    .select([
      'warningpercent',
      'failurepercent',
      'utilization_warningpercent',
      'utilization_failurepercent',
      'warningpercent_oee',
      'failurepercent_oee',
    ])
    .where('id', '=', scope.companyId)
    .executeTakeFirstOrThrow();
  return {
    warningPercent: c.warningpercent,
    failurePercent: c.failurepercent,
    utilizationWarningPercent: c.utilization_warningpercent,
    utilizationFailurePercent: c.utilization_failurepercent,
    oeeWarningPercent: c.warningpercent_oee,
    oeeFailurePercent: c.failurepercent_oee,
  };
}

/** The adapter field names of each of the machines (what their adapters map). */
export async function adapterFieldsOf(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Array<{ machine_id: string; name: string }>> {
  if (machineIds.length === 0) return [];
  return scope
    .selectFrom('machines')
    .innerJoin('adapter_fields as f', 'f.adapter_id', 'machines.adapter_id')
    .select(['machines.id as machine_id', 'f.name'])
    .where('machines.id', 'in', [...machineIds])
    .where('f.company_id', '=', scope.companyId)
    .execute();
}

/**
 * The distinct keys each of the machines reported since `since`, but `exceptKey`. The scan is bounded by time
 * and machine, on the (machine_id, ts) index.
 */
export async function keysSeenSince(
  scope: CompanyScope,
  machineIds: readonly string[],
  since: number,
  exceptKey: string,
): Promise<Array<{ machine_id: string; key: string }>> {
  if (machineIds.length === 0) return [];
  // By the packs' time bounds (decision 1184), in the caller's company.
  return companyObservations(scope, machineIds, since)
    .select(['observations.machine_id', 'observations.key'])
    .where('observations.key', '!=', exceptKey)
    .groupBy(['observations.machine_id', 'observations.key'])
    .execute();
}

/** The last production (non-setup) cycle of each of the machines that ended in [from, to]. */
export async function lastProductionCycles(
  scope: CompanyScope,
  machineIds: readonly string[],
  from: number,
  to: number,
): Promise<Map<string, { endAt: number; duration: number }>> {
  if (machineIds.length === 0) return new Map();
  const ranked = scope
    .selectFrom('cycles')
    .select([
      'cycles.machine_id',
      'cycles.end_at',
      'cycles.duration',
      sql<number>`row_number() over (partition by ${sql.ref('cycles.machine_id')} order by ${sql.ref('cycles.end_at')} desc)`.as(
        'rn',
      ),
    ])
    .where('cycles.machine_id', 'in', [...machineIds])
    .where('cycles.end_at', '>=', from)
    .where('cycles.end_at', '<=', to)
    .where('cycles.setup', '=', 0)
    .as('c');
  const rows = await scope.db
    .selectFrom(ranked)
    .select(['c.machine_id', 'c.end_at', 'c.duration'])
    .where('c.rn', '=', 1)
    .execute();
  return new Map(rows.map((c) => [c.machine_id, { endAt: Number(c.end_at), duration: Number(c.duration) }]));
}

/**
 * The job of each machine's latest stopped run, unless that job is archived (hidden): what the tile calls
 * the paused job (decision 0709). One query for all machines; each machine's last stopped run is one step of
 * the (machine_id, end_at, start_at) index (decision 1146), not a ranking of every run it ever had.
 */
export async function lastStoppedJobNames(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, string>> {
  if (machineIds.length === 0) return new Map();
  const rows = await scope
    .selectFrom('machines')
    .innerJoin('jobs', (j) =>
      j
        .onRef('jobs.company_id', '=', 'machines.company_id')
        .on('jobs.id', '=', (eb) =>
          eb
            .selectFrom('job_runs as r')
            .select('r.job_id')
            .whereRef('r.machine_id', '=', 'machines.id')
            .whereRef('r.company_id', '=', 'machines.company_id')
            .where('r.end_at', 'is not', null)
            .orderBy('r.end_at', 'desc')
            .orderBy('r.start_at', 'desc')
            .limit(1),
        ),
    )
    .select(['machines.id as machine_id', 'jobs.name'])
    .where('machines.id', 'in', [...machineIds])
    .where('jobs.hidden', '=', 0)
    .execute();
  return new Map(rows.map((r) => [r.machine_id, r.name]));
}
