import type { AdminMachine, MachineSaveRequest } from '@takt/domain';
import { invalidInput, notFound } from '../http/errors';
import {
  adapterExists,
  adminMachines,
  decommissionMachine,
  insertMachine,
  machinesInServiceIds,
  nextSortOrder,
  replaceMachineSource,
  setMachineSortOrder,
  updateMachineFields,
} from '../repositories/machines-admin';
import type { ServiceCtx } from './context';

// Machines admin (reports-admin §2 "Machines admin: create and edit …; reorder by drag; show or hide
// decommissioned; decommission", §4 "Machine: active to decommissioned (typed machine name required)",
// §7 "Machines: save, update, decommission, setOrder").

export async function listAdminMachines(ctx: ServiceCtx): Promise<AdminMachine[]> {
  return adminMachines(ctx.scope);
}

export async function getAdminMachine(ctx: ServiceCtx, id: string): Promise<AdminMachine> {
  const [machine] = await adminMachines(ctx.scope, [id]);
  if (!machine) throw notFound('Machine');
  return machine;
}

async function checkAdapter(ctx: ServiceCtx, adapterId: string | null) {
  if (adapterId && !(await adapterExists(ctx.scope, adapterId)))
    throw invalidInput([{ field: 'adapterId', code: 'not_found', message: 'Adapter not found.' }]);
}

const fieldsOf = (body: MachineSaveRequest) => ({
  name: body.name,
  workcenterType: body.workcenterType,
  downtimeFailureDelay: body.downtimeFailureDelay,
  autostartBehavior: body.autostartBehavior,
  adapterId: body.adapterId,
});

/** A new machine goes last in the workcenter order. */
export async function createAdminMachine(ctx: ServiceCtx, body: MachineSaveRequest): Promise<AdminMachine> {
  await checkAdapter(ctx, body.adapterId);
  const id = await insertMachine(
    ctx.scope,
    { ...fieldsOf(body), sortOrder: await nextSortOrder(ctx.scope) },
    ctx.now,
  );
  await replaceMachineSource(ctx.scope, id, body.source ?? null, ctx.now);
  return getAdminMachine(ctx, id);
}

/** A decommissioned machine is no longer edited (the screen offers no Edit for it). */
export async function updateAdminMachine(
  ctx: ServiceCtx,
  id: string,
  body: MachineSaveRequest,
): Promise<AdminMachine> {
  const machine = await getAdminMachine(ctx, id);
  if (machine.decommissionedAt !== null)
    throw invalidInput([{ field: 'id', code: 'decommissioned', message: 'This machine is decommissioned.' }]);
  await checkAdapter(ctx, body.adapterId);
  await updateMachineFields(ctx.scope, id, fieldsOf(body));
  // No source in the body keeps the machine's sources (a gateway binding is made on the gateway).
  if (body.source !== undefined) await replaceMachineSource(ctx.scope, id, body.source, ctx.now);
  return getAdminMachine(ctx, id);
}

/**
 * setOrder: the list names every machine in service exactly once, in the new workcenter order; the answer
 * is the whole list in that order.
 */
export async function setMachineOrder(
  ctx: ServiceCtx,
  machineIds: readonly string[],
): Promise<AdminMachine[]> {
  const inService = new Set(await machinesInServiceIds(ctx.scope));
  const given = new Set(machineIds);
  const unknown = machineIds.find((id) => !inService.has(id));
  if (unknown !== undefined) throw notFound('Machine');
  if (given.size !== machineIds.length || given.size !== inService.size)
    throw invalidInput([
      {
        field: 'machineIds',
        code: 'incomplete',
        message: 'The order must list every machine in service once.',
      },
    ]);
  for (const [i, id] of machineIds.entries()) await setMachineSortOrder(ctx.scope, id, i);
  return adminMachines(ctx.scope);
}

/** reports-admin §5 "Decommission prompt must match machine name". */
export async function decommissionAdminMachine(
  ctx: ServiceCtx,
  id: string,
  typedName: string,
): Promise<AdminMachine> {
  const machine = await getAdminMachine(ctx, id);
  if (machine.decommissionedAt !== null) return machine;
  if (typedName.trim() !== machine.name)
    throw invalidInput([
      { field: 'name', code: 'mismatch', message: 'Decommission prompt must match machine name.' },
    ]);
  await decommissionMachine(ctx.scope, id, ctx.now);
  return getAdminMachine(ctx, id);
}
