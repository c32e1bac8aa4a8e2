import { sql } from 'kysely';
import type { CompanyScope } from '@takt/db';
import { numberedPlaceholders, programPacksIn } from '@takt/db';
import { loadCalendar, rollupsComputedAt } from '@takt/db/rollups';
import type { CompanyCalendar } from '@takt/domain';
import { notFound } from '../http/errors';
import { byConfig, noMarksBefore } from './config-cache';
import type { JobRunRecord } from './dispatch';
import { toJobRun } from './dispatch';
import type { Machine } from './machines';
import { getMachine, listMachines } from './machines';

// Queries of the report calls (services/reports.ts). Every one goes through the caller's CompanyScope.

/** Rows of [start_at, end_at) (end_at null: still open) overlapping the range; `table` qualifies the columns. */
function overlaps(range: { start: number; end: number }, table?: string) {
  const col = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  return sql<boolean>`(${col('start_at')} < ${range.end} and (${col('end_at')} is null or ${col('end_at')} > ${range.start}))`;
}

/**
 * The machines a report covers: one machine (machineId), a group's machines (group), or all machines in
 * service. An id of another company (or none at all) is 404, so nothing tells whether it exists elsewhere.
 */
export async function reportMachines(
  scope: CompanyScope,
  q: { machineId?: string | undefined; group?: string | undefined },
): Promise<Machine[]> {
  // Kept by configuration generation (decision 1250: machines, groups and members are configuration); a copy, so a
  // caller's array is its own.
  const key = `machines|${q.group ?? ''}|${q.machineId ?? ''}`;
  return [...(await byConfig(scope, key, () => readReportMachines(scope, q)))];
}

async function readReportMachines(
  scope: CompanyScope,
  q: { machineId?: string | undefined; group?: string | undefined },
): Promise<Machine[]> {
  if (q.group) {
    const group = await scope
      .selectFrom('machine_groups')
      .select('id')
      .where('id', '=', q.group)
      .executeTakeFirst();
    if (!group) throw notFound('Machine group');
  }
  if (q.machineId) {
    const machine = await getMachine(scope, q.machineId);
    if (!machine) throw notFound('Machine');
    if (q.group) {
      const member = await scope
        .selectFrom('machine_group_members')
        .select('machine_id')
        .where('group_id', '=', q.group)
        .where('machine_id', '=', q.machineId)
        .executeTakeFirst();
      if (!member) return [];
    }
    return [machine];
  }
  return listMachines(scope, q.group ? { groupId: q.group } : {});
}

/**
 * What the stored rollups of the machines look like now: per machine, the latest computation of its rows in
 * the range (absent: none stored) and its pending dirty mark. `computedOf`: the machines whose latest computation
 * is read (default all of them; decision 1205).
 */
export async function rollupState(
  scope: CompanyScope,
  machineIds: readonly string[],
  range: { start: number; end: number },
  computedOf: readonly string[] = machineIds,
): Promise<{ computedAt: Map<string, number>; dirty: Map<string, number> }> {
  if (machineIds.length === 0) return { computedAt: new Map(), dirty: new Map() };
  const ids = [...machineIds];
  // Decision 1251: no mark before the range's end pending at the call's version; a later one changes nothing the
  // callers judge on (storedUntil up to the range's end, the recomputing list).
  const [computedAt, marks] = await Promise.all([
    rollupsComputedAt(scope, computedOf, [range]),
    noMarksBefore(scope, range.end)
      ? []
      : scope
          .selectFrom('rollup_dirty')
          .select(['machine_id', 'from_at'])
          .where('machine_id', 'in', ids)
          .execute(),
  ]);
  return {
    computedAt,
    dirty: new Map(marks.map((m) => [m.machine_id, Number(m.from_at)])),
  };
}

/**
 * The machines (of `machineIds`) with a stored hourly row starting in [start, end): one step down the primary key
 * each (no row read). A row is computed at or after its start (the recompute writes rows up to its now), so their
 * rows' latest computed_at is at or after `start` (decision 1205).
 */
export async function machinesWithRowsFrom(
  scope: CompanyScope,
  machineIds: readonly string[],
  range: { start: number; end: number },
): Promise<Set<string>> {
  if (machineIds.length === 0 || !(range.start < range.end)) return new Set();
  const rows = await scope
    .selectFrom('rollups')
    .select('machine_id')
    .distinct()
    .where('machine_id', 'in', [...machineIds])
    .where('start_at', '>=', range.start)
    .where('start_at', '<', range.end)
    .execute();
  return new Set(rows.map((r) => r.machine_id));
}

/**
 * The machines (of `machineIds`) whose figures in [start, end) are still being recomputed: a pending dirty
 * mark (late data or an edit, decision 1004) from before the range's end. One query, company-scoped.
 */
export async function recomputingMachines(
  scope: CompanyScope,
  machineIds: readonly string[],
  range: { start: number; end: number },
): Promise<Set<string>> {
  if (machineIds.length === 0 || noMarksBefore(scope, range.end)) return new Set();
  const marks = await scope
    .selectFrom('rollup_dirty')
    .select('machine_id')
    .where('machine_id', 'in', [...machineIds])
    .where('from_at', '<', range.end)
    .execute();
  return new Set(marks.map((m) => m.machine_id));
}

/** Job runs of the machines overlapping [start, end), by start, with their job's name. */
export async function runsOverlapping(
  scope: CompanyScope,
  machineIds: readonly string[],
  range: { start: number; end: number },
): Promise<Array<JobRunRecord & { jobName: string }>> {
  if (machineIds.length === 0) return [];
  const rows = await scope
    .selectFrom('job_runs')
    .innerJoin('jobs', (j) =>
      j.onRef('jobs.id', '=', 'job_runs.job_id').onRef('jobs.company_id', '=', 'job_runs.company_id'),
    )
    .selectAll('job_runs')
    .select('jobs.name as job_name')
    .where('job_runs.machine_id', 'in', [...machineIds])
    .where(overlaps(range, 'job_runs'))
    .orderBy('job_runs.start_at')
    .execute();
  return rows.map((r) => ({ ...toJobRun(r), jobName: r.job_name }));
}

/** Labor activities of the runs overlapping [start, end), with their setup stage's name. */
export async function activitiesOf(
  scope: CompanyScope,
  runIds: readonly string[],
  range: { start: number; end: number },
) {
  if (runIds.length === 0) return [];
  return scope
    .selectFrom('labor_activities')
    .leftJoin('setup_stages', (j) =>
      j
        .onRef('setup_stages.id', '=', 'labor_activities.setup_stage_id')
        .onRef('setup_stages.company_id', '=', 'labor_activities.company_id'),
    )
    .select([
      'labor_activities.id',
      'labor_activities.job_run_id',
      'labor_activities.start_at',
      'labor_activities.end_at',
      'labor_activities.setup',
      'setup_stages.name as stage_name',
    ])
    .where('labor_activities.job_run_id', 'in', [...runIds])
    .where(overlaps(range, 'labor_activities'))
    .orderBy('labor_activities.start_at')
    .execute();
}

/** The machine's dictionary id (observation_machines, decision 1130) in the caller's company, as a sub-select. */
export const dictionaryId = (scope: CompanyScope, machineId: string) =>
  sql<number>`(select om.id from observation_machines as om where om.machine_id = ${machineId} and om.company_id = ${scope.companyId})`;

/**
 * The machine's programs (sub 0) or sub-programs (sub 1) overlapping [start, end), read from the tables the
 * program_intervals view is made of (decision 1161): its closed intervals from the last one starting at or before the
 * range (decision 1076: they never overlap, so none before it reaches in; the bound is one key step) to the range's
 * end, one range of program_rows' key (m, sub, start_at) (decision 1181: no index on end_at), its open one, and on
 * PostgreSQL its packed ones (decision 1196).
 */
export const programsIn = (
  scope: CompanyScope,
  machineId: string,
  range: { start: number; end: number },
  sub: 0 | 1,
) => {
  const m = dictionaryId(scope, machineId);
  const query = scope.db
    .selectFrom('program_open as o')
    .select(['o.name', 'o.start_at', sql<number | null>`null`.as('end_at')])
    .where('o.m', '=', m)
    .where('o.sub', '=', sub)
    .where('o.start_at', '<', range.end)
    .unionAll(
      scope.db
        .selectFrom('program_rows as p')
        .select(['p.name', 'p.start_at', 'p.end_at'])
        .where('p.m', '=', m)
        .where('p.sub', '=', sub)
        .where(
          'p.start_at',
          '>=',
          sql<number>`coalesce((select max(l.start_at) from program_rows as l where l.m = ${m} and l.sub = ${sub} and l.start_at <= ${range.start}), ${range.start})`,
        )
        .where('p.start_at', '<', range.end)
        .where('p.end_at', '>', range.start),
    );
  // PostgreSQL's packed intervals (decision 1196): the packs ending after the range's start, by (m, sub, to_ts).
  if (!numberedPlaceholders(scope.db)) return query;
  return query.unionAll(
    scope.db.selectFrom(programPacksIn(m, sub, range).as('k')).select(['k.name', 'k.start_at', 'k.end_at']),
  );
};

/** Programs (sub 0) or sub-programs (sub 1) of a machine overlapping [start, end), by start. */
export async function programsOverlapping(
  scope: CompanyScope,
  machineId: string,
  range: { start: number; end: number },
  sub: 0 | 1,
) {
  return programsIn(scope, machineId, range, sub).orderBy('start_at').execute();
}

/** Whether the machine has any sub-program in [start, end). */
export async function hasSubprogramIn(
  scope: CompanyScope,
  machineId: string,
  range: { start: number; end: number },
): Promise<boolean> {
  const row = await programsIn(scope, machineId, range, 1).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Faults of a machine overlapping [start, end), by start. */
export async function faultsOverlapping(
  scope: CompanyScope,
  machineId: string,
  range: { start: number; end: number },
) {
  return scope
    .selectFrom('faults')
    .select(['start_at', 'end_at', 'value', 'nativecode', 'type'])
    .where('machine_id', '=', machineId)
    .where(overlaps(range))
    .orderBy('start_at')
    .execute();
}

/** Part corrections (the timeline's resets) of a machine in [start, end), with who made them. */
export async function correctionsIn(
  scope: CompanyScope,
  machineId: string,
  range: { start: number; end: number },
) {
  return scope
    .selectFrom('part_adjustments')
    .leftJoin('users', (j) =>
      j
        .onRef('users.id', '=', 'part_adjustments.created_by')
        .onRef('users.company_id', '=', 'part_adjustments.company_id'),
    )
    .select([
      'part_adjustments.adjustment_time',
      'part_adjustments.message',
      'part_adjustments.count',
      'part_adjustments.created_by',
      'users.display_name',
    ])
    .where('part_adjustments.machine_id', '=', machineId)
    .where('part_adjustments.kind', '=', 'correction')
    .where('part_adjustments.adjustment_time', '>=', range.start)
    .where('part_adjustments.adjustment_time', '<', range.end)
    .orderBy('part_adjustments.adjustment_time')
    .execute();
}

/** Names of the jobs with these ids. */
export async function jobNames(scope: CompanyScope, jobIds: readonly string[]): Promise<Map<string, string>> {
  if (jobIds.length === 0) return new Map();
  const rows = await scope
    .selectFrom('jobs')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(jobIds)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Ids of the company's hidden downtime reasons. */
export async function hiddenReasonIds(scope: CompanyScope): Promise<Set<string>> {
  // Kept by configuration generation (decision 1250); a copy each call.
  const ids = await byConfig(scope, 'hidden reasons', async () => {
    const rows = await scope.selectFrom('annotation_types').select('id').where('hidden', '=', 1).execute();
    return rows.map((r) => r.id);
  });
  return new Set(ids);
}

/** The company's calendar (loadCalendar), kept by configuration generation in a report call (decision 1250). */
export const reportCalendar = (scope: CompanyScope): Promise<CompanyCalendar> =>
  byConfig(scope, 'calendar', () => loadCalendar(scope.db, scope.companyId));
