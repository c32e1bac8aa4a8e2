import type { CompanyScope, MachineLiveTable } from '@takt/db';

/**
 * The latest known live state of each machine, keyed by machine id (written by ingest). A manual work center has
 * no source and no row from ingest: its live state is its open state interval, derived from the floor's evidence
 * (decision 1073), with a link that is always up (it has no link to lose).
 */
export async function liveByMachine(
  scope: CompanyScope,
  machineIds?: readonly string[],
): Promise<Map<string, MachineLiveTable>> {
  if (machineIds?.length === 0) return new Map();
  let q = scope.selectFrom('machine_live').selectAll();
  if (machineIds) q = q.where('machine_id', 'in', machineIds);
  let manual = scope
    .selectFrom('state_intervals')
    .innerJoin('machines', 'machines.id', 'state_intervals.machine_id')
    .select(['state_intervals.machine_id', 'state_intervals.start_at', 'state_intervals.state'])
    .where('machines.workcenter_type', '=', 'manual')
    .where('state_intervals.end_at', 'is', null);
  if (machineIds) manual = manual.where('state_intervals.machine_id', 'in', machineIds);
  const [rows, open] = await Promise.all([q.execute(), manual.execute()]);
  const out = new Map(rows.map((r) => [r.machine_id, r]));
  for (const s of open) {
    if (out.has(s.machine_id)) continue;
    const since = Number(s.start_at);
    out.set(s.machine_id, {
      machine_id: s.machine_id,
      company_id: scope.companyId,
      state: s.state,
      state_since: since,
      connection: 'CONNECTED',
      connection_since: null,
      last_heartbeat: null,
      execution: s.state === 'ACTIVE' ? 'ACTIVE' : 'READY',
      execution_since: since,
      availability: null,
      controller_mode: null,
      program: null,
      part_count: null,
      spindle_speed: null,
      fault_since: null,
      fault_message: null,
      in_setup: s.state === 'SETUP' ? 1 : 0,
      updated_at: since,
    });
  }
  return out;
}
