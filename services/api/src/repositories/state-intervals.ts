import type { Selectable } from 'kysely';
import type { StateIntervalsTable, CompanyScope } from '@takt/db';

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

/** The end of the last ACTIVE interval that ended at or before `t` (where a downtime run crossing t began). */
export async function lastActiveEndBefore(
  scope: CompanyScope,
  machineId: string,
  t: number,
): Promise<number | null> {
  const row = await scope
    .selectFrom('state_intervals')
    .select((eb) => eb.fn.max('end_at').as('end'))
    .where('machine_id', '=', machineId)
    .where('state', '=', 'ACTIVE')
    .where('end_at', '<=', t)
    .executeTakeFirst();
  return row?.end == null ? null : Number(row.end);
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
    .where('start_at', '<', to)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', from)]))
    .orderBy('start_at')
    .execute();
  return rows.map(toStateInterval);
}

/** The start of the first ACTIVE interval at or after `t` (where a downtime run crossing t ends). */
export async function firstActiveStartAtOrAfter(
  scope: CompanyScope,
  machineId: string,
  t: number,
): Promise<number | null> {
  const row = await scope
    .selectFrom('state_intervals')
    .select((eb) => eb.fn.min('start_at').as('start'))
    .where('machine_id', '=', machineId)
    .where('state', '=', 'ACTIVE')
    .where('start_at', '>=', t)
    .executeTakeFirst();
  return row?.start == null ? null : Number(row.start);
}
