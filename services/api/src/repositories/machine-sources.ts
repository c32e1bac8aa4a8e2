import { sourcesInService } from '@takt/db';
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

/**
 * SHDR and agent sources in service of every company but the scope's: those on `port` (SHDR) and every agent
 * source (its port is in its URL), for comparing addresses (decision 0986: one source address belongs to one
 * company). Deliberately across companies: only whether one matches ever leaves the service.
 */
export async function dialledSourcesElsewhere(scope: CompanyScope, port: number) {
  return sourcesInService(scope.db)
    .select(['s.kind', 's.host', 's.port', 's.base_url as baseUrl', 's.created_at as createdAt'])
    .where('s.company_id', '!=', scope.companyId)
    .where((eb) =>
      eb.or([eb('s.kind', '=', 'agent'), eb.and([eb('s.kind', '=', 'shdr'), eb('s.port', '=', port)])]),
    )
    .execute();
}

/** The machine's enabled sources, where they point. */
export async function enabledSourcesOf(scope: CompanyScope, machineId: string) {
  return scope
    .selectFrom('machine_sources')
    .select(['kind', 'host', 'port', 'base_url as baseUrl', 'created_at as createdAt'])
    .where('machine_id', '=', machineId)
    .where('enabled', '=', 1)
    .execute();
}
