import type { SyncCommandType } from '@takt/domain';
import type { CommandDisplay } from './commands';
import type { FloorSync } from './floorSync';

/**
 * Queue an operator action for one machine. Never a direct POST: every action goes through the outbox so it
 * survives a lost network (ARCHITECTURE.md "Offline sync contract").
 */
export function queue(
  sync: FloorSync,
  machineId: string,
  type: SyncCommandType,
  payload: Record<string, unknown>,
  display: CommandDisplay = {},
) {
  return sync.enqueue({ type, machineId, payload, display });
}
