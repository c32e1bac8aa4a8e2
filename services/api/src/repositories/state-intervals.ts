import type { Selectable } from 'kysely';
import type { StateIntervalsTable, CompanyScope } from '@takt/db';
import { sinceLastStart } from '@takt/db/rollups';

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
 */
export async function activeEdgesAround(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<{ runStart: number | null; runEnd: number | null }> {
  const active = () =>
    scope.selectFrom('state_intervals').where('machine_id', '=', machineId).where('state', '=', 'ACTIVE');
  const [before, after] = await Promise.all([
    active()
      .select((eb) => eb.fn.max('end_at').as('at'))
      .where('end_at', '<=', from)
      .executeTakeFirst(),
    active()
      .select((eb) => eb.fn.min('start_at').as('at'))
      .where('start_at', '>=', to)
      .executeTakeFirst(),
  ]);
  const edge = (row: { at: unknown } | undefined) => (row?.at == null ? null : Number(row.at));
  return { runStart: edge(before), runEnd: edge(after) };
}

/** Intervals of the machine overlapping [from, to), in time order. */
export async function listStateIntervals(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<StateInterval[]> {
  const rows = await scope
    .selectFrom('state_intervals')
    .select(['start_at', 'end_at', 'state'])
    .where('machine_id', '=', machineId)
    // From the last row starting at or before `from` (rows of a machine never overlap, decision 1076): a key
    // range near the range, not every row of the machine before its end (the downtime report, decision 1125).
    .where('start_at', '>=', sinceLastStart('state_intervals', machineId, null, from))
    .where('start_at', '<', to)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', from)]))
    .orderBy('start_at')
    .execute();
  return rows.map(toStateInterval);
}
