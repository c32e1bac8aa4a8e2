import type { CompanyScope, MachineSourcesTable } from '@takt/db';

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

/** The company's machines in service with their sources, in the plant's order (the demo plant's ports). */
export async function machinesWithSources(scope: CompanyScope) {
  return scope
    .selectFrom('machines')
    .innerJoin('machine_sources', 'machine_sources.machine_id', 'machines.id')
    .select([
      'machines.id as machineId',
      'machines.name',
      'machines.sort_order',
      'machine_sources.id as sourceId',
      'machine_sources.port',
    ])
    .where('machines.decommissioned_at', 'is', null)
    .orderBy('machines.sort_order')
    .execute();
}

/** Mutates: where an SHDR source connects. */
export async function setSourceAddress(
  scope: CompanyScope,
  sourceId: string,
  address: { host: string; port: number },
): Promise<void> {
  await scope.updateTable('machine_sources').set(address).where('id', '=', sourceId).execute();
}

/** Mutates: an SHDR source (host:port) on a machine (provisioning, demo plant). */
export async function createShdrSource(
  scope: CompanyScope,
  input: { machineId: string; host: string; port: number },
  now: number,
): Promise<string> {
  const row = machineSourceRow({
    machine_id: input.machineId,
    kind: 'shdr',
    host: input.host,
    port: input.port,
    created_at: now,
  });
  await scope.insertInto('machine_sources', row).execute();
  return row.id;
}
