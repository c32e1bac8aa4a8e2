import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import type { PartAdjustment } from '@takt/domain';
import type { PartAdjustmentsTable, CompanyScope } from '@takt/db';

// Part adjustments (live-operations §3 "Part adjustment"): rejects, corrections, setup removals and parts
// added by hand. SQL only; the one row→domain mapping is toPartAdjustment.

export type PartAdjustmentKind = PartAdjustmentsTable['kind'];
export type StoredPartAdjustment = PartAdjustment & { kind: PartAdjustmentKind; typeHidden: boolean };

interface JoinedRow {
  id: string;
  adjustment_time: number;
  machine_id: string;
  machine_name: string;
  type_id: string | null;
  type_name: string | null;
  type_color: string | null;
  type_hidden: number | null;
  scrapcount: number;
  count: number;
  message: string | null;
  reject_behavior: 'scrap' | 'nonconform' | null;
  deduct_from_good_parts: number;
  job_name: string | null;
  kind: PartAdjustmentKind;
}

export const toPartAdjustment = (r: JoinedRow): StoredPartAdjustment => ({
  id: r.id,
  adjustmenttime: Number(r.adjustment_time),
  machine_id: r.machine_id,
  machine_name: r.machine_name,
  category_id: r.type_id,
  partadjustmentType: r.type_name === null ? null : { name: r.type_name, color: r.type_color ?? '#828282' },
  scrapcount: Number(r.scrapcount),
  count: Number(r.count),
  message: r.message,
  // A reject (scrap or non-conforming) is the "scrap" kind of adjustment in the spec's vocabulary.
  scrap: r.reject_behavior !== null,
  jobName: r.job_name,
  deductFromGoodParts: r.deduct_from_good_parts === 1,
  reject_behavior: r.reject_behavior,
  kind: r.kind,
  typeHidden: r.type_hidden === 1,
});

function joined(scope: CompanyScope) {
  return scope
    .selectFrom('part_adjustments')
    .innerJoin('machines', 'machines.id', 'part_adjustments.machine_id')
    .leftJoin('part_adjustment_types', 'part_adjustment_types.id', 'part_adjustments.type_id')
    .leftJoin('job_runs', 'job_runs.id', 'part_adjustments.job_run_id')
    .leftJoin('jobs', 'jobs.id', 'job_runs.job_id')
    .select([
      'part_adjustments.id',
      'part_adjustments.adjustment_time',
      'part_adjustments.machine_id',
      'machines.name as machine_name',
      'part_adjustments.type_id',
      'part_adjustment_types.name as type_name',
      'part_adjustment_types.color as type_color',
      'part_adjustment_types.hidden as type_hidden',
      'part_adjustments.scrapcount',
      'part_adjustments.count',
      'part_adjustments.message',
      'part_adjustments.reject_behavior',
      'part_adjustments.deduct_from_good_parts',
      'jobs.name as job_name',
      'part_adjustments.kind',
    ]);
}

export async function getPartAdjustment(
  scope: CompanyScope,
  id: string,
): Promise<StoredPartAdjustment | undefined> {
  const row = await joined(scope).where('part_adjustments.id', '=', id).executeTakeFirst();
  return row && toPartAdjustment(row);
}

export interface PartAdjustmentFilter {
  machineIds?: readonly string[];
  start: number;
  end: number;
  includeHiddenTypes?: boolean;
  /** true: rejects only; false: everything but rejects; undefined: all. */
  rejects?: boolean;
  /** A reason id; null: adjustments without a reason; undefined: any. */
  typeId?: string | null;
  /**
   * Only adjustments whose time falls in one of these half-open spans (the selected shifts' occurrences);
   * sorted and not overlapping. An empty list selects nothing.
   */
  spans?: readonly { start: number; end: number }[];
}

function filtered(scope: CompanyScope, f: PartAdjustmentFilter) {
  let q = joined(scope)
    .where('part_adjustments.adjustment_time', '>=', f.start)
    .where('part_adjustments.adjustment_time', '<', f.end);
  if (f.machineIds) q = q.where('part_adjustments.machine_id', 'in', [...f.machineIds]);
  if (!f.includeHiddenTypes) {
    q = q.where((eb) =>
      eb.or([eb('part_adjustment_types.hidden', 'is', null), eb('part_adjustment_types.hidden', '=', 0)]),
    );
  }
  if (f.rejects === true) q = q.where('part_adjustments.reject_behavior', 'is not', null);
  if (f.rejects === false) q = q.where('part_adjustments.reject_behavior', 'is', null);
  if (f.typeId === null) q = q.where('part_adjustments.type_id', 'is', null);
  else if (f.typeId !== undefined) q = q.where('part_adjustments.type_id', '=', f.typeId);
  if (f.spans) {
    const spans = f.spans;
    // A balanced tree of ORs: a year of shifts is about a thousand spans, and SQLite refuses expressions
    // nested deeper than 1000 (a flat `a or b or …` chain nests one level per term).
    q = q.where((eb) => {
      const within = (from: number, to: number): Expression<SqlBool> => {
        if (to - from === 1) {
          const s = spans[from]!;
          return eb.and([
            eb('part_adjustments.adjustment_time', '>=', s.start),
            eb('part_adjustments.adjustment_time', '<', s.end),
          ]);
        }
        const mid = Math.floor((from + to) / 2);
        return eb.or([within(from, mid), within(mid, to)]);
      };
      return spans.length === 0 ? sql<SqlBool>`1 = 0` : within(0, spans.length);
    });
  }
  return q;
}

export async function listPartAdjustments(
  scope: CompanyScope,
  f: PartAdjustmentFilter & { limit?: number; offset?: number; newestFirst?: boolean },
): Promise<StoredPartAdjustment[]> {
  let q = filtered(scope, f)
    .orderBy('part_adjustments.adjustment_time', f.newestFirst ? 'desc' : 'asc')
    .orderBy('part_adjustments.id');
  if (f.limit !== undefined) q = q.limit(f.limit).offset(f.offset ?? 0);
  const rows = await q.execute();
  return rows.map(toPartAdjustment);
}

export async function countPartAdjustments(scope: CompanyScope, f: PartAdjustmentFilter): Promise<number> {
  const row = await filtered(scope, f)
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface RejectTotal {
  typeId: string | null;
  typeName: string | null;
  typeColor: string | null;
  machineId: string | null;
  machineName: string | null;
  scrapCount: number;
}

/** Σ scrapcount of rejects per reason (and per machine when asked), largest first (a pareto). */
export async function rejectTotals(
  scope: CompanyScope,
  f: PartAdjustmentFilter & { byMachine: boolean },
): Promise<RejectTotal[]> {
  const base = filtered(scope, { ...f, rejects: true, includeHiddenTypes: true }).clearSelect();
  const total = sql<number>`sum(part_adjustments.scrapcount)`;
  const rows = f.byMachine
    ? await base
        .select([
          'part_adjustments.type_id',
          'part_adjustment_types.name as type_name',
          'part_adjustment_types.color as type_color',
          'part_adjustments.machine_id',
          'machines.name as machine_name',
          total.as('scrap_count'),
        ])
        .groupBy([
          'part_adjustments.type_id',
          'part_adjustment_types.name',
          'part_adjustment_types.color',
          'part_adjustments.machine_id',
          'machines.name',
        ])
        .execute()
    : (
        await base
          .select([
            'part_adjustments.type_id',
            'part_adjustment_types.name as type_name',
            'part_adjustment_types.color as type_color',
            total.as('scrap_count'),
          ])
          .groupBy(['part_adjustments.type_id', 'part_adjustment_types.name', 'part_adjustment_types.color'])
          .execute()
      ).map((r) => ({ ...r, machine_id: null, machine_name: null }));
  return rows
    .map((r) => ({
      typeId: r.type_id,
      typeName: r.type_name,
      typeColor: r.type_color,
      machineId: r.machine_id,
      machineName: r.machine_name,
      scrapCount: Number(r.scrap_count),
    }))
    .sort(
      (a, b) =>
        b.scrapCount - a.scrapCount ||
        (a.typeName ?? '').localeCompare(b.typeName ?? '') ||
        (a.machineName ?? '').localeCompare(b.machineName ?? ''),
    );
}

export interface PartAdjustmentFields {
  machineId: string;
  adjustmentTime: number;
  typeId: string | null;
  scrapcount: number;
  count: number;
  message: string | null;
  rejectBehavior: 'scrap' | 'nonconform' | null;
  deductFromGoodParts: boolean;
  jobRunId: string | null;
  kind: PartAdjustmentKind;
}

/** The stored columns of an adjustment's editable fields (insert and update write the same ones). */
const fieldColumns = (f: Omit<PartAdjustmentFields, 'machineId'>) => ({
  adjustment_time: f.adjustmentTime,
  type_id: f.typeId,
  scrapcount: f.scrapcount,
  count: f.count,
  message: f.message,
  reject_behavior: f.rejectBehavior,
  deduct_from_good_parts: f.deductFromGoodParts ? 1 : 0,
  job_run_id: f.jobRunId,
  kind: f.kind,
});

export async function insertPartAdjustment(
  scope: CompanyScope,
  f: PartAdjustmentFields,
  by: string | null,
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('part_adjustments', {
      id,
      machine_id: f.machineId,
      ...fieldColumns(f),
      created_by: by,
      created_at: now,
    })
    .execute();
  return id;
}

export async function updatePartAdjustmentRow(
  scope: CompanyScope,
  id: string,
  f: Omit<PartAdjustmentFields, 'machineId'>,
): Promise<void> {
  await scope.updateTable('part_adjustments').set(fieldColumns(f)).where('id', '=', id).execute();
}

export async function deletePartAdjustmentRow(scope: CompanyScope, id: string): Promise<void> {
  await scope.deleteFrom('part_adjustments').where('id', '=', id).execute();
}

/** The latest adjustment of a kind on a machine (manual Undo takes back the last part added by hand). */
export async function latestOfKind(
  scope: CompanyScope,
  machineId: string,
  kind: PartAdjustmentKind,
): Promise<string | undefined> {
  const row = await scope
    .selectFrom('part_adjustments')
    .select('id')
    .where('machine_id', '=', machineId)
    .where('kind', '=', kind)
    .orderBy('adjustment_time', 'desc')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.id;
}

/** The job run on the machine at instant t (a reject's job name, METRICS.md §3 per-run quality). */
export async function jobRunAt(scope: CompanyScope, machineId: string, t: number): Promise<string | null> {
  const row = await scope
    .selectFrom('job_runs')
    .select('id')
    .where('machine_id', '=', machineId)
    .where('start_at', '<=', t)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', t)]))
    .orderBy('start_at', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The job run covering instant t on the machine (as jobRunAt finds it), with its bounds. */
export async function jobRunSpanAt(
  scope: CompanyScope,
  machineId: string,
  t: number,
): Promise<{ id: string; start: number; end: number | null } | null> {
  const row = await scope
    .selectFrom('job_runs')
    .select(['id', 'start_at', 'end_at'])
    .where('machine_id', '=', machineId)
    .where('start_at', '<=', t)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', t)]))
    .orderBy('start_at', 'desc')
    .executeTakeFirst();
  return row ? { id: row.id, start: row.start_at, end: row.end_at } : null;
}

/** Machine ids of a machine group of the company; undefined when there is no such group. */
export async function groupMachineIds(scope: CompanyScope, groupId: string): Promise<string[] | undefined> {
  const group = await scope
    .selectFrom('machine_groups')
    .select('id')
    .where('id', '=', groupId)
    .executeTakeFirst();
  if (!group) return undefined;
  const rows = await scope
    .selectFrom('machine_group_members')
    .select('machine_id')
    .where('group_id', '=', groupId)
    .execute();
  return rows.map((r) => r.machine_id);
}
