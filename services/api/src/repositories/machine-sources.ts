import type { MachineSourcesTable } from '../db/schema';

// machine_sources: how one machine's data arrives (an SHDR adapter, an MTConnect agent, MQTT, a gateway).

/** A machine_sources row (without company_id, which the scope sets): every column not given at its default. */
export function machineSourceRow(
  over: Pick<MachineSourcesTable, 'machine_id' | 'kind'> & Partial<Omit<MachineSourcesTable, 'company_id'>>,
): Omit<MachineSourcesTable, 'company_id'> {
  return {
    id: crypto.randomUUID(),
    host: '',
    port: 0,
    enabled: 1,
    stat_lines: 0,
    stat_observations: 0,
    stat_rejected: 0,
    last_line_at: null,
    created_at: 0,
    gateway_id: null,
    machine_ref: null,
    base_url: null,
    agent_device: null,
    poll_interval_ms: null,
    agent_instance_id: null,
    agent_next_sequence: null,
    ...over,
  };
}
