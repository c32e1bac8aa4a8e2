import type { CompanyScope, Executor, MachineSimulationsTable } from '@takt/db';
import { machineSourceRow } from './machine-sources';

// The test screen's simulated execution (decision 1100): the simulated adapter's memory (machine_simulations) and
// its data source (a machine_sources row of kind 'simulator').

export type SimulationRow = MachineSimulationsTable;

/** A machine of the company as the simulation needs it (root machines are internal, never simulated). */
export async function simulatedMachine(scope: CompanyScope, id: string) {
  return scope
    .selectFrom('machines')
    .select(['id', 'name', 'workcenter_type', 'decommissioned_at', 'adapter_id'])
    .where('id', '=', id)
    .where('root_machine', '=', 0)
    .executeTakeFirst();
}

/** The fields of the machine's adapter: key (name) and MTConnect type, in name order. */
export async function adapterFieldsOf(scope: CompanyScope, adapterId: string | null) {
  if (!adapterId) return [];
  return scope
    .selectFrom('adapter_fields')
    .select(['name', 'data_item_type as type', 'data_item_subtype as subType'])
    .where('adapter_id', '=', adapterId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Every source of the machine, enabled or not. */
export async function sourcesOfMachine(scope: CompanyScope, machineId: string) {
  return scope
    .selectFrom('machine_sources')
    .select(['id', 'kind', 'host', 'port', 'base_url as baseUrl', 'machine_ref as machineRef', 'enabled'])
    .where('machine_id', '=', machineId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Mutates: the machine's data source becomes the simulator. */
export async function insertSimulatorSource(scope: CompanyScope, machineId: string, now: number) {
  const row = machineSourceRow({ machine_id: machineId, kind: 'simulator', created_at: now });
  await scope.insertInto('machine_sources', row).execute();
  return row.id;
}

/** Mutates: the machine's simulator sources go (its real sources are never touched here). */
export async function deleteSimulatorSources(scope: CompanyScope, machineId: string) {
  await scope
    .deleteFrom('machine_sources')
    .where('machine_id', '=', machineId)
    .where('kind', '=', 'simulator')
    .execute();
}

export async function simulationOf(scope: CompanyScope, machineId: string) {
  return scope
    .selectFrom('machine_simulations')
    .selectAll()
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
}

/** Mutates: the simulated adapter's memory starts. */
export async function insertSimulation(
  scope: CompanyScope,
  machineId: string,
  startedBy: string | null,
  now: number,
): Promise<SimulationRow> {
  const row: Omit<SimulationRow, 'company_id'> = {
    machine_id: machineId,
    started_at: now,
    started_by: startedBy,
    execution: null,
    program: null,
    part_count: null,
    fault_message: null,
    fault_code: null,
    last_line_at: null,
    cycle_every_ms: null,
    cycle_until: null,
    cycle_next_at: null,
    cycle_phase: null,
  };
  await scope.insertInto('machine_simulations', row).execute();
  return { ...row, company_id: scope.companyId };
}

export type SimulationChange = Partial<Omit<SimulationRow, 'machine_id' | 'company_id' | 'started_at'>>;

/** Mutates: what the simulated adapter remembers. */
export async function updateSimulation(scope: CompanyScope, machineId: string, change: SimulationChange) {
  if (Object.keys(change).length === 0) return;
  await scope.updateTable('machine_simulations').set(change).where('machine_id', '=', machineId).execute();
}

export async function deleteSimulation(scope: CompanyScope, machineId: string) {
  await scope.deleteFrom('machine_simulations').where('machine_id', '=', machineId).execute();
}

/** Lines of the machine the ingest worker has not derived yet. */
export async function inboxLinesOf(scope: CompanyScope, machineId: string): Promise<number> {
  const row = await scope
    .selectFrom('ingest_inbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Automatic cycle steps due by `now`, across companies (the cycle worker's round), oldest first. */
export async function dueCycleSteps(db: Executor, now: number, limit = 100) {
  return db
    .selectFrom('machine_simulations')
    .selectAll()
    .where('cycle_next_at', 'is not', null)
    .where('cycle_next_at', '<=', now)
    .orderBy('cycle_next_at')
    .limit(limit)
    .execute();
}

/**
 * Mutates: claims the step `row` names (its time and phase unchanged since read) by moving the cycle on to `next`;
 * false when another process claimed it first. Runs in the transaction that sends the step.
 */
export async function claimCycleStep(scope: CompanyScope, row: SimulationRow, next: SimulationChange) {
  const result = await scope
    .updateTable('machine_simulations')
    .set(next)
    .where('machine_id', '=', row.machine_id)
    .where('cycle_next_at', '=', row.cycle_next_at)
    .where('cycle_phase', '=', row.cycle_phase)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
