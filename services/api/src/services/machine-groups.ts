import type { MachineGroup, MachineGroupSaveRequest } from '@takt/domain';
import { forbidden, invalidInput, notFound } from '../http/errors';
import {
  deleteMachineGroup,
  machineGroups,
  setGroupAnnotationTypes,
  setGroupMachines,
  unknownAnnotationTypeIds,
  unknownMachineIds,
  updateMachineGroup,
} from '../repositories/machine-groups';
import { createGroup } from '../repositories/machines';
import type { ServiceCtx } from './context';

// Machine groups (reports-admin §2 "Machine groups: name, ERP group id, machines, downtime reasons
// (FullProduct)", §3 Machine group, §6 "FullProduct gates … downtime reasons in machine groups").

/** Whether the caller's company has FullProduct (the route knows; the service only applies it). */
export interface GroupAccess {
  fullProduct: boolean;
}

/** Without FullProduct a group's downtime reasons are not shown. */
const shown = (g: MachineGroup, access: GroupAccess): MachineGroup =>
  access.fullProduct ? g : { ...g, annotationTypes: [] };

export async function listMachineGroups(ctx: ServiceCtx, access: GroupAccess): Promise<MachineGroup[]> {
  return (await machineGroups(ctx.scope)).map((g) => shown(g, access));
}

export async function getMachineGroup(
  ctx: ServiceCtx,
  id: string,
  access: GroupAccess,
): Promise<MachineGroup> {
  const [group] = await machineGroups(ctx.scope, [id]);
  if (!group) throw notFound('Machine group');
  return shown(group, access);
}

const dedupe = (ids: readonly string[]) => [...new Set(ids)];

async function checkRefs(ctx: ServiceCtx, body: MachineGroupSaveRequest, access: GroupAccess) {
  if (body.annotationTypes !== undefined && !access.fullProduct) throw forbidden();
  const machines = await unknownMachineIds(ctx.scope, body.machines);
  const reasons = await unknownAnnotationTypeIds(ctx.scope, body.annotationTypes ?? []);
  const issues = [
    ...machines.map(() => ({ field: 'machines', code: 'not_found', message: 'Machine not found.' })),
    ...reasons.map(() => ({
      field: 'annotationTypes',
      code: 'not_found',
      message: 'Downtime reason not found.',
    })),
  ];
  if (issues.length > 0) throw invalidInput(issues);
}

async function saveMembers(ctx: ServiceCtx, id: string, body: MachineGroupSaveRequest) {
  await setGroupMachines(ctx.scope, id, dedupe(body.machines));
  if (body.annotationTypes !== undefined)
    await setGroupAnnotationTypes(ctx.scope, id, dedupe(body.annotationTypes));
}

export async function createMachineGroup(
  ctx: ServiceCtx,
  body: MachineGroupSaveRequest,
  access: GroupAccess,
): Promise<MachineGroup> {
  await checkRefs(ctx, body, access);
  const id = await createGroup(ctx.scope, { name: body.name, erpGroupId: body.erpGroupId }, ctx.now);
  await saveMembers(ctx, id, body);
  return getMachineGroup(ctx, id, access);
}

export async function updateMachineGroupFields(
  ctx: ServiceCtx,
  id: string,
  body: MachineGroupSaveRequest,
  access: GroupAccess,
): Promise<MachineGroup> {
  await getMachineGroup(ctx, id, access);
  await checkRefs(ctx, body, access);
  await updateMachineGroup(ctx.scope, id, { name: body.name, erpGroupId: body.erpGroupId });
  await saveMembers(ctx, id, body);
  return getMachineGroup(ctx, id, access);
}

export async function removeMachineGroup(ctx: ServiceCtx, id: string, access: GroupAccess): Promise<void> {
  await getMachineGroup(ctx, id, access);
  await deleteMachineGroup(ctx.scope, id);
}
