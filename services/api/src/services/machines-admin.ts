import type { AdapterStatus, AdminMachine, MachineSaveRequest } from '@takt/domain';
import { ROOT_MACHINE_FIELDS, billingDateProblem, timeProblem } from '@takt/domain';
import { loadMonitoredFrom } from '@takt/db/rollups';
import { ApiError, invalidInput, notFound } from '../http/errors';
import {
  adapterExists,
  adapterFieldNames,
  adapterStatusFacts,
  adminMachines,
  decommissionMachine,
  insertMachine,
  keysSince,
  machinesInServiceIds,
  nextSortOrder,
  replaceMachineSource,
  resetMachineAdapter,
  setMachineSortOrder,
  setMatchedAdapter,
  updateMachineFields,
  updateMachinePanels,
} from '../repositories/machines-admin';
import type { ServiceCtx } from './context';

// Machines admin (reports-admin §2 "Machines admin: create and edit …; reorder by drag; show or hide
// decommissioned; decommission", §4 "Machine: active to decommissioned (typed machine name required)",
// §7 "Machines: save, update, decommission, setOrder").

/**
 * reports-admin §6 "root sees extra machine options" (decision 1112): a root caller gets the internal fields, with
 * `integratedAt` the machine's first data when no root user set it (decision 1111); anyone else gets none of them.
 */
async function forCaller(ctx: ServiceCtx, machines: AdminMachine[]): Promise<AdminMachine[]> {
  if (!ctx.caller.user.isRoot)
    return machines.map(
      ({ pingMonitor: _p, billingDate: _b, integratedAt: _i, integratedAtSet: _s, version: _v, ...m }) => m,
    );
  const unset = machines.filter((m) => m.integratedAt == null).map((m) => m.id);
  const firstData = await loadMonitoredFrom(ctx.scope.db, unset);
  return machines.map((m) =>
    m.integratedAt == null ? { ...m, integratedAt: firstData.get(m.id) ?? null } : m,
  );
}

export async function listAdminMachines(ctx: ServiceCtx): Promise<AdminMachine[]> {
  return forCaller(ctx, await adminMachines(ctx.scope));
}

export async function getAdminMachine(ctx: ServiceCtx, id: string): Promise<AdminMachine> {
  const [machine] = await forCaller(ctx, await adminMachines(ctx.scope, [id]));
  if (!machine) throw notFound('Machine');
  return machine;
}

/**
 * Root-only fields in a body from anyone else are refused (403), not dropped: an admin's client that sends them
 * learns at once that it may not (decision 1112). Their values are checked against the day (reports-admin §5,
 * decision 0980).
 */
function checkRootFields(ctx: ServiceCtx, body: MachineSaveRequest) {
  const sent = ROOT_MACHINE_FIELDS.filter((f) => body[f] !== undefined);
  if (sent.length > 0 && !ctx.caller.user.isRoot)
    throw new ApiError(403, 'ROOT_ONLY', `Only Takt staff (root users) may set ${sent.join(', ')}.`);
  const issues: Array<{ field: string; code: string; message: string }> = [];
  const billing = body.billingDate == null ? null : billingDateProblem(body.billingDate, ctx.now);
  if (billing) issues.push({ field: 'billingDate', code: 'out_of_range', message: billing });
  const integrated =
    body.integratedAt == null ? null : timeProblem('Integrated at', body.integratedAt, ctx.now);
  if (integrated) issues.push({ field: 'integratedAt', code: 'out_of_range', message: integrated });
  if (issues.length > 0) throw invalidInput(issues);
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

/** The Software and Utilization panels (decision 0892); a field left out of the body is kept. */
const panelsOf = (body: MachineSaveRequest) => ({
  dispatchKey: body.dispatchKey,
  excludeFromBenchmarking: body.excludeFromBenchmarking,
  pingMonitor: body.pingMonitor,
  utilizationWarningPercent: body.utilizationWarningPercent,
  utilizationFailurePercent: body.utilizationFailurePercent,
  billingDate: body.billingDate,
  integratedAt: body.integratedAt,
});

/** A new machine goes last in the workcenter order. */
export async function createAdminMachine(ctx: ServiceCtx, body: MachineSaveRequest): Promise<AdminMachine> {
  checkRootFields(ctx, body);
  await checkAdapter(ctx, body.adapterId);
  const id = await insertMachine(
    ctx.scope,
    { ...fieldsOf(body), sortOrder: await nextSortOrder(ctx.scope) },
    ctx.now,
  );
  await replaceMachineSource(ctx.scope, id, body.source ?? null, ctx.now);
  await updateMachinePanels(ctx.scope, id, panelsOf(body));
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
  checkRootFields(ctx, body);
  await checkAdapter(ctx, body.adapterId);
  await updateMachineFields(ctx.scope, id, fieldsOf(body));
  await updateMachinePanels(ctx.scope, id, panelsOf(body));
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
  return forCaller(ctx, await adminMachines(ctx.scope));
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

// ---------- Adapter reset and status (reports-admin §4, §7 "Adapters: reset", "Machine form polls adapter status
// every 3 s", §8 "Machine adapter status shows the server problem message"; decision 0891) ----------

/** How long after a reset the data a machine sends is gathered before a missing match is a problem. */
export const ADAPTER_GATHER_MS = 2 * 60_000;
/** Without a reset pending, a machine without an adapter is matched on what it sent in this window. */
export const ADAPTER_LOOKBACK_MS = 10 * 60_000;

export const ADAPTER_PROBLEMS = {
  noSource: 'This machine has no data source. Add one under Sources.',
  noMatch: (n: number) => `No adapter matches the ${n} data items this machine sends.`,
  ambiguous: (names: string[]) =>
    `More than one adapter matches the data this machine sends: ${names.join(', ')}.`,
};

/**
 * The adapter whose field names cover most of the keys the machine sent; `ambiguous` when two cover as many,
 * null when none covers any. Pure.
 */
export function matchAdapter(
  keys: readonly string[],
  adapters: ReadonlyArray<{ id: string; name: string; fields: readonly string[] }>,
): { id: string; name: string } | { ambiguous: string[] } | null {
  const sent = new Set(keys);
  const scored = adapters
    .map((a) => ({ a, n: a.fields.filter((f) => sent.has(f)).length }))
    .filter((x) => x.n > 0)
    .sort((x, y) => y.n - x.n);
  if (scored.length === 0) return null;
  const best = scored.filter((x) => x.n === scored[0]!.n);
  if (best.length > 1) return { ambiguous: best.map((x) => x.a.name) };
  return { id: best[0]!.a.id, name: best[0]!.a.name };
}

/**
 * The machine's adapter status; while no adapter is set it matches one to the keys sent since the reset and,
 * when exactly one fits, sets it (mutates the machine: the "polls mapping" of reports-admin §4).
 */
export async function adapterStatus(ctx: ServiceCtx, id: string): Promise<AdapterStatus> {
  const facts = await adapterStatusFacts(ctx.scope, id);
  if (!facts) throw notFound('Machine');
  const base = { adapterId: facts.adapterId, adapterName: facts.adapterName, resetAt: facts.resetAt };
  if (facts.adapterId) return { ...base, status: 'mapped', message: null };
  const enabled = facts.sources.filter((s) => s.enabled);
  if (enabled.length === 0) return { ...base, status: 'problem', message: ADAPTER_PROBLEMS.noSource };
  const since = facts.resetAt ?? ctx.now - ADAPTER_LOOKBACK_MS;
  const lastLine = Math.max(...enabled.map((s) => s.lastLineAt ?? -Infinity));
  if (!(lastLine >= since)) return { ...base, status: 'waiting', message: null };
  const keys = await keysSince(ctx.scope, id, since);
  const match = matchAdapter(keys, await adapterFieldNames(ctx.scope));
  if (match && 'id' in match) {
    await setMatchedAdapter(ctx.scope, id, match.id);
    return { adapterId: match.id, adapterName: match.name, resetAt: null, status: 'mapped', message: null };
  }
  if (ctx.now - since < ADAPTER_GATHER_MS) return { ...base, status: 'gathering', message: null };
  const message = match ? ADAPTER_PROBLEMS.ambiguous(match.ambiguous) : ADAPTER_PROBLEMS.noMatch(keys.length);
  return { ...base, status: 'problem', message };
}

/** reports-admin §4 "Adapter reset sets adapter to none then polls mapping": answers the status right after. */
export async function resetAdapter(ctx: ServiceCtx, id: string): Promise<AdapterStatus> {
  const machine = await getAdminMachine(ctx, id);
  if (machine.decommissionedAt !== null)
    throw invalidInput([{ field: 'id', code: 'decommissioned', message: 'This machine is decommissioned.' }]);
  await resetMachineAdapter(ctx.scope, id, ctx.now);
  return adapterStatus(ctx, id);
}
