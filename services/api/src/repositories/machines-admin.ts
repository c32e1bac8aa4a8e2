import type { CompanyScope, MachineSourcesTable, MachinesTable } from '@takt/db';
import { companyObservations } from '@takt/db';
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
  dispatchKey: m.dispatch_key,
  excludeFromBenchmarking: zeroOrOne(m.exclude_from_benchmarking),
  pingMonitor: zeroOrOne(m.ping_monitor),
  utilizationWarningPercent: m.utilization_warningpercent,
  utilizationFailurePercent: m.utilization_failurepercent,
  // Root-only fields (decision 1112): the service leaves them out for other callers.
  billingDate: m.billing_date,
  integratedAt: m.integrated_at == null ? null : Number(m.integrated_at),
  integratedAtSet: m.integrated_at != null,
  version: 2,
});

const zeroOrOne = (v: number | null): 0 | 1 | null => (v == null ? null : v === 0 ? 0 : 1);

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

/** The Software and Utilization panels (decision 0892): each field left undefined is kept. */
export interface MachinePanelFields {
  dispatchKey?: string | null | undefined;
  excludeFromBenchmarking?: 0 | 1 | null | undefined;
  pingMonitor?: 0 | 1 | null | undefined;
  utilizationWarningPercent?: number | null | undefined;
  utilizationFailurePercent?: number | null | undefined;
  // Root users only (decisions 1111, 1112).
  billingDate?: string | null | undefined;
  integratedAt?: number | null | undefined;
}

export async function updateMachinePanels(scope: CompanyScope, id: string, p: MachinePanelFields) {
  const set: Partial<{
    dispatch_key: string | null;
    exclude_from_benchmarking: number | null;
    ping_monitor: number | null;
    utilization_warningpercent: number | null;
    utilization_failurepercent: number | null;
    billing_date: string | null;
    integrated_at: number | null;
  }> = {};
  if (p.dispatchKey !== undefined) set.dispatch_key = p.dispatchKey;
  if (p.excludeFromBenchmarking !== undefined) set.exclude_from_benchmarking = p.excludeFromBenchmarking;
  if (p.pingMonitor !== undefined) set.ping_monitor = p.pingMonitor;
  if (p.utilizationWarningPercent !== undefined) set.utilization_warningpercent = p.utilizationWarningPercent;
  if (p.utilizationFailurePercent !== undefined) set.utilization_failurepercent = p.utilizationFailurePercent;
  if (p.billingDate !== undefined) set.billing_date = p.billingDate;
  if (p.integratedAt !== undefined) set.integrated_at = p.integratedAt;
  if (Object.keys(set).length) await scope.updateTable('machines').set(set).where('id', '=', id).execute();
}

/** reports-admin §4 "Adapter reset sets adapter to none": and notes when, so the poll matches what came since. */
export async function resetMachineAdapter(scope: CompanyScope, id: string, now: number) {
  await scope
    .updateTable('machines')
    .set({ adapter_id: null, adapter_reset_at: now })
    .where('id', '=', id)
    .execute();
}

/** The adapter the status poll matched (decision 0891); the reset is then done. */
export async function setMatchedAdapter(scope: CompanyScope, id: string, adapterId: string) {
  await scope
    .updateTable('machines')
    .set({ adapter_id: adapterId, adapter_reset_at: null })
    .where('id', '=', id)
    .where('adapter_id', 'is', null)
    .execute();
}

/** What the adapter status needs of a machine: its adapter, the pending reset, and its sources' last line. */
export async function adapterStatusFacts(scope: CompanyScope, id: string) {
  const machine = await scope
    .selectFrom('machines')
    .select(['adapter_id', 'adapter_reset_at', 'workcenter_type', 'decommissioned_at'])
    .where('id', '=', id)
    .where('root_machine', '=', 0)
    .executeTakeFirst();
  if (!machine) return undefined;
  const sources = await scope
    .selectFrom('machine_sources')
    .select(['enabled', 'last_line_at'])
    .where('machine_id', '=', id)
    .execute();
  const adapter = machine.adapter_id
    ? await scope
        .selectFrom('adapters')
        .select(['id', 'name'])
        .where('id', '=', machine.adapter_id)
        .executeTakeFirst()
    : undefined;
  return {
    adapterId: machine.adapter_id,
    adapterName: adapter?.name ?? null,
    resetAt: machine.adapter_reset_at == null ? null : Number(machine.adapter_reset_at),
    sources: sources.map((s) => ({
      enabled: Number(s.enabled) === 1,
      lastLineAt: s.last_line_at == null ? null : Number(s.last_line_at),
    })),
  };
}

/** The distinct keys the machine sent since `since` (its observations), at most `limit` of them. */
export async function keysSince(scope: CompanyScope, machineId: string, since: number, limit = 2000) {
  // By the packs' time bounds (decision 1184).
  const rows = await companyObservations(scope, [machineId], since)
    .select('key')
    .distinct()
    .limit(limit)
    .execute();
  return rows.map((r) => r.key);
}

/** Every adapter of the company with its field names, for matching. */
export async function adapterFieldNames(scope: CompanyScope) {
  const [adapters, fields] = await Promise.all([
    scope.selectFrom('adapters').select(['id', 'name']).orderBy('name').orderBy('id').execute(),
    scope.selectFrom('adapter_fields').select(['adapter_id', 'name']).execute(),
  ]);
  return adapters.map((a) => ({
    id: a.id,
    name: a.name,
    fields: fields.filter((f) => f.adapter_id === a.id).map((f) => f.name),
  }));
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
