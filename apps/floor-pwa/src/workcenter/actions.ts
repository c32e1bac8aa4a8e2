import type { SyncCommandType } from '@takt/domain';
import type { CommandDisplay } from '../offline/commands';
import type { FloorSync } from '../offline/floorSync';

/** Queue an operator action for one machine (never a direct POST: issue 6 point 3). */
export function queue(
  sync: FloorSync,
  machineId: string,
  type: SyncCommandType,
  payload: Record<string, unknown>,
  display: CommandDisplay = {},
) {
  return sync.enqueue({ type, machineId, payload, display });
}
