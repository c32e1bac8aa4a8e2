import { KV, kvGet, kvPut } from '../offline/db';
import type { FloorSync } from '../offline/floorSync';
import type { WorkcenterView } from '../offline/optimistic';
import { queue } from '../offline/queue';

// Manual work centers (live-operations §2): Add Part adds the multiplier, Add 1 Part adds 1, Undo takes back
// the last manual adjustment on the server (services/api rejects.ts undoManualParts), whatever it added.
// So the optimistic Undo subtracts what the last add added: the last one still queued or just confirmed, else
// the last this device remembers having added, else (nothing known, e.g. added on another tablet) the
// multiplier, the usual add.

/** How many adds this device remembers per machine. */
const REMEMBERED = 50;

/** The count an Undo queued now takes back. */
export function undoCount(
  view: Pick<WorkcenterView, 'manualAdds'>,
  remembered: readonly number[],
  multiplier: number,
): number {
  return view.manualAdds.at(-1) ?? remembered.at(-1) ?? multiplier;
}

async function remembered(sync: FloorSync, machineId: string): Promise<number[]> {
  const v = await kvGet<unknown>(sync.db, KV.manualAdds(machineId));
  return Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
}

export async function addParts(sync: FloorSync, machineId: string, count: number): Promise<void> {
  await queue(sync, machineId, 'manual_add_part', { machineId, count });
  const list = await remembered(sync, machineId);
  await kvPut(sync.db, KV.manualAdds(machineId), [...list, count].slice(-REMEMBERED));
}

export async function undoParts(
  sync: FloorSync,
  machineId: string,
  view: Pick<WorkcenterView, 'manualAdds'>,
  multiplier: number,
): Promise<void> {
  const list = await remembered(sync, machineId);
  await queue(sync, machineId, 'manual_undo', { machineId }, { count: undoCount(view, list, multiplier) });
  await kvPut(sync.db, KV.manualAdds(machineId), list.slice(0, -1));
}
