import type { CompanyScope, MachineLiveTable } from '@takt/db';

/** The latest known live state of each machine, keyed by machine id (written by ingest). */
export async function liveByMachine(
  scope: CompanyScope,
  machineIds?: readonly string[],
): Promise<Map<string, MachineLiveTable>> {
  if (machineIds?.length === 0) return new Map();
  let q = scope.selectFrom('machine_live').selectAll();
  if (machineIds) q = q.where('machine_id', 'in', machineIds);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.machine_id, r]));
}
