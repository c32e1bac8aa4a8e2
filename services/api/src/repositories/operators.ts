import type { Selectable } from 'kysely';
import type { Operator, OperatorRun } from '@takt/domain';
import type { OperatorRunsTable, OperatorsTable, CompanyScope } from '@takt/db';

// Operators and operator runs (live-operations §3 Operator, Operator run). SQL only; one mapping per table.

export type { OperatorRun };

export const toOperator = (r: Selectable<OperatorsTable>, runCount: number): Operator => ({
  id: r.id,
  name: r.name,
  erpId: r.erp_id,
  archivedAt: r.archived_at,
  runCount,
});

export const toOperatorRun = (r: Selectable<OperatorRunsTable> & { operator_name: string }): OperatorRun => ({
  id: r.id,
  machineId: r.machine_id,
  operatorId: r.operator_id,
  startAt: r.start_at,
  endAt: r.end_at,
  operator: { name: r.operator_name },
});

async function runCounts(scope: CompanyScope, operatorIds: readonly string[]): Promise<Map<string, number>> {
  if (operatorIds.length === 0) return new Map();
  const rows = await scope
    .selectFrom('operator_runs')
    .select((eb) => ['operator_id', eb.fn.countAll<number | string>().as('n')])
    .where('operator_id', 'in', [...operatorIds])
    .groupBy('operator_id')
    .execute();
  return new Map(rows.map((r) => [r.operator_id, Number(r.n)]));
}

export async function listOperators(
  scope: CompanyScope,
  opts: { includeArchived?: boolean } = {},
): Promise<Operator[]> {
  let q = scope.selectFrom('operators').selectAll();
  if (!opts.includeArchived) q = q.where('archived_at', 'is', null);
  const rows = await q.orderBy('name').orderBy('id').execute();
  const counts = await runCounts(
    scope,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toOperator(r, counts.get(r.id) ?? 0));
}

export async function getOperator(scope: CompanyScope, id: string): Promise<Operator | undefined> {
  const row = await scope.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const counts = await runCounts(scope, [id]);
  return toOperator(row, counts.get(id) ?? 0);
}

export async function insertOperator(
  scope: CompanyScope,
  input: { name: string; erpId: string | null; createdAt: number },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('operators', {
      id,
      name: input.name,
      erp_id: input.erpId,
      archived_at: null,
      created_at: input.createdAt,
    })
    .execute();
  return id;
}

export async function updateOperator(
  scope: CompanyScope,
  id: string,
  set: { name?: string; erpId?: string | null; archivedAt?: number | null },
): Promise<void> {
  const changes = {
    ...(set.name !== undefined ? { name: set.name } : {}),
    ...(set.erpId !== undefined ? { erp_id: set.erpId } : {}),
    ...(set.archivedAt !== undefined ? { archived_at: set.archivedAt } : {}),
  };
  // An empty patch changes nothing; `UPDATE … SET` with no columns is a syntax error on both dialects.
  if (Object.keys(changes).length === 0) return;
  await scope.updateTable('operators').set(changes).where('id', '=', id).execute();
}

export async function deleteOperator(scope: CompanyScope, id: string): Promise<void> {
  await scope.deleteFrom('operators').where('id', '=', id).execute();
}

const runsWithName = (scope: CompanyScope) =>
  scope
    .selectFrom('operator_runs')
    .innerJoin('operators', 'operators.id', 'operator_runs.operator_id')
    .selectAll('operator_runs')
    .select('operators.name as operator_name');

/** Operator runs of a machine overlapping [startAt, endAt), oldest first. */
export async function operatorRunsOverlapping(
  scope: CompanyScope,
  machineId: string,
  startAt: number,
  endAt: number,
): Promise<OperatorRun[]> {
  const rows = await runsWithName(scope)
    .where('operator_runs.machine_id', '=', machineId)
    .where('operator_runs.start_at', '<', endAt)
    .where((eb) => eb.or([eb('operator_runs.end_at', 'is', null), eb('operator_runs.end_at', '>', startAt)]))
    .orderBy('operator_runs.start_at')
    .orderBy('operator_runs.id')
    .execute();
  return rows.map(toOperatorRun);
}

export async function getOperatorRun(scope: CompanyScope, id: string): Promise<OperatorRun | undefined> {
  const row = await runsWithName(scope).where('operator_runs.id', '=', id).executeTakeFirst();
  return row && toOperatorRun(row);
}

/** The machine's current operator run (end_at null), if any. */
export async function openOperatorRun(
  scope: CompanyScope,
  machineId: string,
): Promise<OperatorRun | undefined> {
  const row = await runsWithName(scope)
    .where('operator_runs.machine_id', '=', machineId)
    .where('operator_runs.end_at', 'is', null)
    .orderBy('operator_runs.start_at', 'desc')
    .executeTakeFirst();
  return row && toOperatorRun(row);
}

/** The latest end of the machine's finished operator runs (a new run never starts before it). */
export async function lastOperatorRunEnd(scope: CompanyScope, machineId: string): Promise<number | null> {
  const r = await scope
    .selectFrom('operator_runs')
    .select((eb) => eb.fn.max<number | string | null>('end_at').as('last'))
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  return r?.last == null ? null : Number(r.last);
}

export async function insertOperatorRun(
  scope: CompanyScope,
  input: { machineId: string; operatorId: string; startAt: number },
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('operator_runs', {
      id,
      machine_id: input.machineId,
      operator_id: input.operatorId,
      start_at: input.startAt,
      end_at: null,
    })
    .execute();
  return id;
}

export async function endOperatorRun(scope: CompanyScope, id: string, endAt: number): Promise<void> {
  await scope.updateTable('operator_runs').set({ end_at: endAt }).where('id', '=', id).execute();
}

/**
 * The operator runs screen's list (decision 1091): runs overlapping [startAt, endAt), of one machine and/or one
 * operator when named, newest first.
 */
export async function listOperatorRuns(
  scope: CompanyScope,
  q: { startAt: number; endAt: number; machineId?: string | undefined; operatorId?: string | undefined },
): Promise<OperatorRun[]> {
  let query = runsWithName(scope)
    .where('operator_runs.start_at', '<', q.endAt)
    .where((eb) =>
      eb.or([eb('operator_runs.end_at', 'is', null), eb('operator_runs.end_at', '>', q.startAt)]),
    );
  if (q.machineId) query = query.where('operator_runs.machine_id', '=', q.machineId);
  if (q.operatorId) query = query.where('operator_runs.operator_id', '=', q.operatorId);
  const rows = await query
    .orderBy('operator_runs.start_at', 'desc')
    .orderBy('operator_runs.id')
    .limit(OPERATOR_RUNS_LIST_LIMIT)
    .execute();
  return rows.map(toOperatorRun);
}

/** At most this many runs in one answer of the list (decision 1091). */
export const OPERATOR_RUNS_LIST_LIMIT = 1000;

/** A corrected run's times (end null keeps it open). */
export async function setOperatorRunTimes(
  scope: CompanyScope,
  id: string,
  times: { startAt: number; endAt: number | null },
): Promise<void> {
  await scope
    .updateTable('operator_runs')
    .set({ start_at: times.startAt, end_at: times.endAt })
    .where('id', '=', id)
    .execute();
}
