import type { Executor } from '@takt/db';
import type { InternalMachinePage, InternalMachinePatch, InternalMachineQuery } from '@takt/domain';
import { loadMonitoredFrom } from '@takt/db/rollups';
import { notFound } from '../http/errors';
import { listAllMachines, updateMachineLabels } from '../repositories/internal-machines';

// reports-admin §2 "Internal machine list: 25 per page, search, sort by …; default createdAt descending", §7
// "getAllMachines (limit, offset, orderBy, orderDirection, filter)". Root only, every company (bare database on
// purpose, see repositories/internal-machines.ts).

export async function allMachines(db: Executor, q: InternalMachineQuery): Promise<InternalMachinePage> {
  const { items, total } = await listAllMachines(db, q);
  // Decision 1111: an integration time no root user set is the machine's first data (one page: at most 100).
  const firstData = await loadMonitoredFrom(
    db,
    items.filter((m) => m.integratedAt === null).map((m) => m.id),
  );
  return {
    items: items.map((m) =>
      m.integratedAt === null ? { ...m, integratedAt: firstData.get(m.id) ?? null } : m,
    ),
    total,
    limit: q.limit,
    offset: q.offset,
  };
}

/** Sets make, model and payer of one machine (decision 0923); 404 when there is no such machine. */
export async function labelMachine(db: Executor, id: string, patch: InternalMachinePatch): Promise<void> {
  if (!(await updateMachineLabels(db, id, patch))) throw notFound('Machine');
}
