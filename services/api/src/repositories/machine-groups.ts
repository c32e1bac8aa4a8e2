import type { CompanyScope } from '@takt/db';
import type { MachineGroup } from '@takt/domain';

// Machine groups with their machines and downtime reasons (reports-admin §3 Machine group).

export async function machineGroups(scope: CompanyScope, ids?: readonly string[]): Promise<MachineGroup[]> {
  if (ids && ids.length === 0) return [];
  let groups = scope.selectFrom('machine_groups').selectAll();
  let members = scope.selectFrom('machine_group_members').select(['group_id', 'machine_id']);
  let reasons = scope.selectFrom('machine_group_annotation_types').select(['group_id', 'annotation_type_id']);
  if (ids) {
    groups = groups.where('id', 'in', ids);
    members = members.where('group_id', 'in', ids);
    reasons = reasons.where('group_id', 'in', ids);
  }
  const [g, m, r] = await Promise.all([
    groups.orderBy('sort_order').orderBy('name').orderBy('id').execute(),
    members.orderBy('machine_id').execute(),
    reasons.orderBy('annotation_type_id').execute(),
  ]);
  return g.map((row) => ({
    id: row.id,
    name: row.name,
    erpGroupId: row.erp_group_id,
    machines: m.filter((x) => x.group_id === row.id).map((x) => x.machine_id),
    annotationTypes: r.filter((x) => x.group_id === row.id).map((x) => x.annotation_type_id),
  }));
}

/** Of `ids`, those naming no machine of the company. */
export async function unknownMachineIds(scope: CompanyScope, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await scope.selectFrom('machines').select('id').where('id', 'in', ids).execute();
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

/** Of `ids`, those naming no downtime reason (annotation type) of the company. */
export async function unknownAnnotationTypeIds(
  scope: CompanyScope,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await scope.selectFrom('annotation_types').select('id').where('id', 'in', ids).execute();
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

export async function updateMachineGroup(
  scope: CompanyScope,
  id: string,
  fields: { name: string; erpGroupId: string | null },
) {
  await scope
    .updateTable('machine_groups')
    .set({ name: fields.name, erp_group_id: fields.erpGroupId })
    .where('id', '=', id)
    .execute();
}

export async function setGroupMachines(scope: CompanyScope, groupId: string, machineIds: readonly string[]) {
  await scope.deleteFrom('machine_group_members').where('group_id', '=', groupId).execute();
  if (machineIds.length > 0)
    await scope
      .insertInto(
        'machine_group_members',
        machineIds.map((machine_id) => ({ group_id: groupId, machine_id })),
      )
      .execute();
}

export async function setGroupAnnotationTypes(
  scope: CompanyScope,
  groupId: string,
  typeIds: readonly string[],
) {
  await scope.deleteFrom('machine_group_annotation_types').where('group_id', '=', groupId).execute();
  if (typeIds.length > 0)
    await scope
      .insertInto(
        'machine_group_annotation_types',
        typeIds.map((annotation_type_id) => ({ group_id: groupId, annotation_type_id })),
      )
      .execute();
}

export async function deleteMachineGroup(scope: CompanyScope, id: string) {
  await setGroupMachines(scope, id, []);
  await setGroupAnnotationTypes(scope, id, []);
  await scope.deleteFrom('machine_groups').where('id', '=', id).execute();
}
