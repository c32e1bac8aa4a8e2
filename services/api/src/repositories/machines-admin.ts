import type { CompanyScope, MachineSourcesTable, MachinesTable } from '@takt/db';
import type { AdminMachine, MachineSourceInput } from '@takt/domain';
import type { Selectable } from 'kysely';
import { machineSourceRow } from './machine-sources';

// Machines as the administration screen keeps them (reports-admin §2 "Machines admin"): every machine of the
// company, decommissioned ones too, with its source.

type SourceRow = Selectable<MachineSourcesTable>;

const toSource = (s: SourceRow): NonNullable<AdminMachine['source']> => ({
  id: s.id,
  kind: s.kind,
  host: s.host,
  port: s.port,
  baseUrl: s.base_url,
  agentDevice: s.agent_device,
  machineRef: s.machine_ref,
  gatewayId: s.gateway_id,
});

const toAdminMachine = (m: Selectable<MachinesTable>, source: SourceRow | undefined): AdminMachine => ({
  id: m.id,
  name: m.name,
  workcenterType: m.workcenter_type,
  sortOrder: m.sort_order,
  downtimeFailureDelay: m.downtime_failure_delay,
  autostartBehavior: m.autostart_behavior,
  adapterId: m.adapter_id,
  decommissionedAt: m.decommissioned_at,
  source: source ? toSource(source) : null,
});

/** Every machine but root machines (internal), in workcenter order; `ids` narrows to those machines. */
export async function adminMachines(scope: CompanyScope, ids?: readonly string[]): Promise<AdminMachine[]> {
  if (ids && ids.length === 0) return [];
  let machines = scope.selectFrom('machines').selectAll().where('root_machine', '=', 0);
  let sources = scope.selectFrom('machine_sources').selectAll();
  if (ids) {
    machines = machines.where('id', 'in', ids);
    sources = sources.where('machine_id', 'in', ids);
  }
  const [rows, srcs] = await Promise.all([
    machines.orderBy('sort_order').orderBy('name').orderBy('id').execute(),
    sources.orderBy('created_at').orderBy('id').execute(),
  ]);
  return rows.map((m) =>
    toAdminMachine(
      m,
      srcs.find((s) => s.machine_id === m.id),
    ),
  );
}

export interface MachineFields {
  name: string;
  workcenterType: MachinesTable['workcenter_type'];
  downtimeFailureDelay: number;
  autostartBehavior: MachinesTable['autostart_behavior'];
  adapterId: string | null;
}

/** Whether an adapter of the company has this id. */
export async function adapterExists(scope: CompanyScope, id: string): Promise<boolean> {
  return Boolean(await scope.selectFrom('adapters').select('id').where('id', '=', id).executeTakeFirst());
}

/** The sort order after the company's last machine. */
export async function nextSortOrder(scope: CompanyScope): Promise<number> {
  const row = await scope
    .selectFrom('machines')
    .select((eb) => eb.fn.max('sort_order').as('max'))
    .executeTakeFirst();
  return row?.max == null ? 0 : Number(row.max) + 1;
}

export async function insertMachine(
  scope: CompanyScope,
  fields: MachineFields & { sortOrder: number },
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('machines', {
      id,
      name: fields.name,
      workcenter_type: fields.workcenterType,
      sort_order: fields.sortOrder,
      downtime_failure_delay: fields.downtimeFailureDelay,
      autostart_behavior: fields.autostartBehavior,
      adapter_id: fields.adapterId,
      decommissioned_at: null,
      created_at: now,
    })
    .execute();
  return id;
}

export async function updateMachineFields(scope: CompanyScope, id: string, fields: MachineFields) {
  await scope
    .updateTable('machines')
    .set({
      name: fields.name,
      workcenter_type: fields.workcenterType,
      downtime_failure_delay: fields.downtimeFailureDelay,
      autostart_behavior: fields.autostartBehavior,
      adapter_id: fields.adapterId,
    })
    .where('id', '=', id)
    .execute();
}

const sourceColumns = (s: MachineSourceInput) => ({
  kind: s.kind,
  host: s.kind === 'shdr' ? s.host : '',
  port: s.kind === 'shdr' ? s.port : 0,
  base_url: s.kind === 'agent' ? s.baseUrl : null,
  agent_device: s.kind === 'agent' ? (s.agentDevice ?? null) : null,
  machine_ref: s.kind === 'mqtt' ? s.machineRef : null,
  gateway_id: null,
});

/**
 * The machine's source becomes `source`: its existing row is rewritten in place (keeping its counters when it
 * still points at the same place), or one is created; null removes the machine's sources.
 */
export async function replaceMachineSource(
  scope: CompanyScope,
  machineId: string,
  source: MachineSourceInput | null,
  now: number,
): Promise<void> {
  const existing = await scope
    .selectFrom('machine_sources')
    .selectAll()
    .where('machine_id', '=', machineId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const [first, ...rest] = existing;
  if (!source) {
    await scope.deleteFrom('machine_sources').where('machine_id', '=', machineId).execute();
    return;
  }
  if (rest.length > 0)
    await scope
      .deleteFrom('machine_sources')
      .where(
        'id',
        'in',
        rest.map((r) => r.id),
      )
      .execute();
  if (!first) {
    await scope
      .insertInto(
        'machine_sources',
        machineSourceRow({ machine_id: machineId, created_at: now, ...sourceColumns(source) }),
      )
      .execute();
    return;
  }
  const cols = sourceColumns(source);
  const same =
    first.kind === cols.kind &&
    first.host === cols.host &&
    first.port === cols.port &&
    first.base_url === cols.base_url &&
    first.machine_ref === cols.machine_ref;
  if (same && first.agent_device === cols.agent_device) return;
  await scope
    .updateTable('machine_sources')
    .set({
      ...cols,
      // A source pointing elsewhere starts over: its agent cursor belonged to the old agent.
      ...(same ? {} : { agent_instance_id: null, agent_next_sequence: null }),
    })
    .where('id', '=', first.id)
    .execute();
}

/** The company's machines in service, by id (those `setOrder` may order). */
export async function machinesInServiceIds(scope: CompanyScope): Promise<string[]> {
  const rows = await scope
    .selectFrom('machines')
    .select('id')
    .where('decommissioned_at', 'is', null)
    .where('root_machine', '=', 0)
    .execute();
  return rows.map((r) => r.id);
}

export async function setMachineSortOrder(scope: CompanyScope, id: string, sortOrder: number) {
  await scope.updateTable('machines').set({ sort_order: sortOrder }).where('id', '=', id).execute();
}

/** Mutates: the machine leaves service; its sources stop (the ingest reads enabled sources only). */
export async function decommissionMachine(scope: CompanyScope, id: string, now: number) {
  await scope.updateTable('machines').set({ decommissioned_at: now }).where('id', '=', id).execute();
  await scope.updateTable('machine_sources').set({ enabled: 0 }).where('machine_id', '=', id).execute();
}
