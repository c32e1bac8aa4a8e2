import type { DowntimeMs } from '@takt/domain';
import { sql } from 'kysely';
import { numberedPlaceholders } from '../batch-insert';
import type { Ranges } from './days';
import type { CompanyScope } from '../scope';

// The week index's reads of reasons and its slicing by ranges (week-index.ts, decisions 1157, 1166, 1217).

/** An in-shift week row's downtime by reason (decision 1166): its start, its shift, the row's map. */
export type ReasonRow = readonly [
  start: number,
  shiftId: string,
  byReason: Readonly<Record<string, DowntimeMs>>,
];

/**
 * The company's (or those machines') in-shift week rows' downtime by reason, by machine and start: one JSON array
 * per machine built by the database (decision 1217), as seriesRows reads the rows, instead of a driver row and a
 * parse per week row (~10,000 for a year of 100 machines).
 */
export async function loadReasons(
  scope: CompanyScope,
  machineIds: string[] | undefined,
  read: { reasons: number } | undefined,
): Promise<Map<string, ReasonRow[]>> {
  const rows = numberedPlaceholders(scope.db)
    ? sql<string>`json_agg(json_build_array(start_at, shift_id, reasons::json -> 'downtimeByReason'))::text`
    : sql<string>`json_group_array(json_array(start_at, shift_id, reasons -> '$.downtimeByReason'))`;
  let q = scope
    .selectFrom('rollup_weeks')
    .select(['machine_id', rows.as('rows')])
    .where('shift_id', 'is not', null)
    .groupBy('machine_id');
  if (machineIds) q = q.where('machine_id', 'in', machineIds);
  const parts = await q.execute();
  const byMachine = new Map<string, ReasonRow[]>();
  for (const p of parts) {
    const list = JSON.parse(p.rows) as ReasonRow[];
    list.sort((a, b) => a[0] - b[0]);
    byMachine.set(p.machine_id, list);
    if (read) read.reasons += list.length;
  }
  return byMachine;
}

/** The first index of `rows` (by start, the start at `at`) starting at or after `t`. */
function firstAtOrAfter(rows: ReadonlyArray<readonly unknown[]>, at: number, t: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rows[mid]![at] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows of `rows` (by start, the start at `at`) starting in `ranges`. */
export function* slices<R extends readonly unknown[]>(
  rows: readonly R[],
  at: number,
  ranges: Ranges,
): Generator<R> {
  for (const r of ranges) {
    const end = firstAtOrAfter(rows, at, r.end);
    for (let i = firstAtOrAfter(rows, at, r.start); i < end; i++) yield rows[i]!;
  }
}
