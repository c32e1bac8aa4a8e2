import type { CompanyScope } from '../scope';
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

/**
 * The company calendar changed from instant `from` on (a shift version, a termination, a start-of-day
 * change): every machine's rollups from there are stale, because buckets follow shift and day boundaries.
 * A change that starts after `now` touches no stored rollup (they are built up to now only): nothing to do.
 */
export async function calendarChanged(scope: CompanyScope, from: number, now: number): Promise<void> {
  if (from >= now) return;
  const machines = await scope.selectFrom('machines').select('id').execute();
  for (const m of machines) await historyChanged(scope, m.id, from);
}

/** Every stored rollup of the company is stale (the calendar changed for all past days). */
export async function allRollupsChanged(scope: CompanyScope): Promise<void> {
  const firsts = await scope
    .selectFrom('rollups')
    .select(['machine_id', (eb) => eb.fn.min<number>('start_at').as('first')])
    .groupBy('machine_id')
    .execute();
  for (const r of firsts) await historyChanged(scope, r.machine_id, Number(r.first));
}
