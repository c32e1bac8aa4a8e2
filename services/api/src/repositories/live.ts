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
  let manual = scope.selectFrom('machines').select('id').where('workcenter_type', '=', 'manual');
  if (machineIds) manual = manual.where('id', 'in', machineIds);
  const [rows, manualIds] = await Promise.all([q.execute(), manual.execute()]);
  const out = new Map(rows.map((r) => [r.machine_id, r]));
  // Each one's latest interval, one step down the primary key (machine_id, start_at).
  const latest = await Promise.all(
    manualIds
      .filter((m) => !out.has(m.id))
      .map((m) =>
        scope
          .selectFrom('state_intervals')
          .select(['machine_id', 'start_at', 'state', 'end_at'])
          .where('machine_id', '=', m.id)
          .orderBy('start_at', 'desc')
          .limit(1)
          .executeTakeFirst(),
      ),
  );
  for (const s of latest) {
    if (!s || s.end_at != null) continue;
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
