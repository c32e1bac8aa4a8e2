import type { CompanyScope } from '@takt/db';
import { dashboard } from './dashboard';

/** The dashboard tiles' statuses only (GET /api/machines/statuses): the same status the tiles show. */
export async function machineStatuses(
  scope: CompanyScope,
  group: string | undefined,
  now: number,
  full: boolean,
) {
  const { machines } = await dashboard(scope, group, now, full);
  return {
    now,
    machines: machines.map((m) => ({ id: m.id, name: m.name, status: m.status, statusSince: m.statusSince })),
  };
}
