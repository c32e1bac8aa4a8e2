import type { CompanyScope } from '../db/scope';
import { markRollupsDirty } from './recompute';

/**
 * A write changed a machine's history from `from` on (an annotation, a part adjustment, a job run): the
 * rollup worker recomputes the affected company days. Runs in the caller's transaction, so the mark
 * commits with the change. `marked_at` only orders marks, so it is the wall clock, not the fact's time.
 */
export async function historyChanged(scope: CompanyScope, machineId: string, from: number): Promise<void> {
  await markRollupsDirty(scope.db, { companyId: scope.companyId, machineId, from, now: Date.now() });
}

/** The same for a row known by id: its machine and earliest time are read before the change. */
export async function historyOfRowChanged(
  scope: CompanyScope,
  table: 'annotations' | 'part_adjustments' | 'job_runs',
  id: string,
  newFrom?: number,
): Promise<void> {
  const timeColumn = table === 'part_adjustments' ? 'adjustment_time' : 'start_at';
  const row = (await scope
    .selectFrom(table)
    .select(['machine_id', `${timeColumn} as at` as never])
    .where('id', '=', id)
    .executeTakeFirst()) as { machine_id: string; at: number } | undefined;
  if (row) await historyChanged(scope, row.machine_id, Math.min(row.at, newFrom ?? row.at));
}
