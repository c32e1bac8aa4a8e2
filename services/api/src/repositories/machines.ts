import type { CompanyScope, MachinesTable } from '@takt/db';
import type { Selectable } from 'kysely';

export interface Machine {
  id: string;
  companyId: string;
  name: string;
  workcenterType: MachinesTable['workcenter_type'];
  sortOrder: number;
  downtimeFailureDelay: number;
  autostartBehavior: MachinesTable['autostart_behavior'];
  adapterId: string | null;
  decommissionedAt: number | null;
  cycleSource: 'part_count' | 'execution';
}

export const toMachine = (r: Selectable<MachinesTable>): Machine => ({
  id: r.id,
  companyId: r.company_id,
  name: r.name,
  workcenterType: r.workcenter_type,
  sortOrder: r.sort_order,
  downtimeFailureDelay: r.downtime_failure_delay,
  autostartBehavior: r.autostart_behavior,
  adapterId: r.adapter_id,
  decommissionedAt: r.decommissioned_at,
  cycleSource: r.cycle_source,
});

export interface MachineGroup {
  id: string;
  name: string;
  erpGroupId: string | null;
  machineIds: string[];
}

/** Machines in service, in the company's workcenter order. */
export async function listMachines(scope: CompanyScope, opts: { groupId?: string } = {}): Promise<Machine[]> {
  let q = scope.selectFrom('machines').selectAll().where('decommissioned_at', 'is', null);
  if (opts.groupId) {
    q = q.where('id', 'in', (eb) =>
      eb
        .selectFrom('machine_group_members')
        .select('machine_id')
        .where('company_id', '=', scope.companyId)
        .where('group_id', '=', opts.groupId as string),
    );
  }
  const rows = await q.orderBy('sort_order').orderBy('name').execute();
  return rows.map(toMachine);
}

export async function getMachine(scope: CompanyScope, id: string): Promise<Machine | undefined> {
  const row = await scope.selectFrom('machines').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toMachine(row);
}

export async function listGroups(scope: CompanyScope): Promise<MachineGroup[]> {
  const [groups, members] = await Promise.all([
    scope.selectFrom('machine_groups').selectAll().orderBy('sort_order').orderBy('name').execute(),
    scope.selectFrom('machine_group_members').select(['group_id', 'machine_id']).execute(),
  ]);
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    erpGroupId: g.erp_group_id,
    machineIds: members.filter((m) => m.group_id === g.id).map((m) => m.machine_id),
  }));
}

export async function createGroup(
  scope: CompanyScope,
  input: { name: string; erpGroupId?: string | null; sortOrder?: number },
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('machine_groups', {
      id,
      name: input.name,
      erp_group_id: input.erpGroupId ?? null,
      sort_order: input.sortOrder ?? 0,
      created_at: now,
    })
    .execute();
  return id;
}

export async function createMachine(
  scope: CompanyScope,
  input: {
    name: string;
    workcenterType?: Machine['workcenterType'];
    sortOrder?: number;
    downtimeFailureDelay?: number;
    adapterId?: string | null;
    groupIds?: string[];
  },
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope.transaction(async (tx) => {
    await tx
      .insertInto('machines', {
        id,
        name: input.name,
        workcenter_type: input.workcenterType ?? 'machine',
        sort_order: input.sortOrder ?? 0,
        downtime_failure_delay: input.downtimeFailureDelay ?? 5,
        autostart_behavior: 'disabled',
        adapter_id: input.adapterId ?? null,
        decommissioned_at: null,
        created_at: now,
      })
      .execute();
    for (const groupId of input.groupIds ?? []) {
      await tx.insertInto('machine_group_members', { group_id: groupId, machine_id: id }).execute();
    }
  });
  return id;
}
