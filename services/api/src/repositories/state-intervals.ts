import type { Selectable } from 'kysely';
import type { StateIntervalsTable, CompanyScope } from '@takt/db';
import { activeEdges, stateRowsIn } from '@takt/db/rollups';

// Machine states written by ingest (METRICS.md §1). The API only reads them.

export interface StateInterval {
  start: number;
  /** null while the state is still current. */
  end: number | null;
  state: string;
}

export const toStateInterval = (
  r: Pick<Selectable<StateIntervalsTable>, 'start_at' | 'end_at' | 'state'>,
) => ({
  start: r.start_at,
  end: r.end_at,
  state: r.state,
});

/**
 * Where downtime runs crossing the edges of [from, to) began and end: the end of the last ACTIVE interval
 * at or before `from`, and the start of the first ACTIVE interval at or after `to` (null where there is none).
 * One key step each in the tables the state_intervals view is made of (decision 1180).
 */
export async function activeEdgesAround(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<{ runStart: number | null; runEnd: number | null }> {
  const edges = await activeEdges(scope.db, [machineId], from, to, scope.companyId);
  return edges.get(machineId) ?? { runStart: null, runEnd: null };
}

/**
 * Intervals of the machine overlapping [from, to), in time order: from the last row starting at or before `from`
 * (rows of a machine never overlap, decision 1076), a key range near the range, not every row of the machine before
 * its end (the downtime report, decision 1125), read from the tables the view is made of (decision 1180).
 */
export async function listStateIntervals(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<StateInterval[]> {
  const rows = await stateRowsIn(scope.db, [{ machineId, from, to }], scope.companyId);
  return rows.map(toStateInterval);
}
