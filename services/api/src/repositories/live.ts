import type { CompanyScope } from '../db/scope';
import type { MachineLiveTable } from '../db/schema';

/** The latest known live state of each machine, keyed by machine id (written by ingest). */
export async function liveByMachine(scope: CompanyScope): Promise<Map<string, MachineLiveTable>> {
  const rows = await scope.selectFrom('machine_live').selectAll().execute();
  return new Map(rows.map((r) => [r.machine_id, r]));
}
