import type { SyncStatus } from '@takt/domain';

// Apart from syncMachine.ts so the first paint renders the status without loading XState.

/** The closed union the UI renders (STYLE.md "Sync status is a closed union"). */
export function syncStatusOf(state: string): SyncStatus {
  switch (state) {
    case 'pushing':
      return 'pushing';
    case 'pulling':
      return 'pulling';
    case 'inSync':
      return 'in-sync';
    case 'offline':
      return 'offline';
    default:
      return 'error';
  }
}
