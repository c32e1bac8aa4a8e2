import type { ApiClient } from '@takt/ui';
import { createActor, fromPromise } from 'xstate';
import type { FloorDb } from './db';
import { pushOnce } from './push';
import { syncMachine } from './syncMachine';

// The sync loop's actor, in a module of its own: FloorSync loads it (and XState with it) right after the first
// paint, so the workcenter route's initial JavaScript stays small.

export function createSyncLoop(api: ApiClient, db: FloorDb, pull: () => Promise<void>) {
  return createActor(
    syncMachine.provide({
      actors: {
        push: fromPromise(() => pushOnce(api, db)),
        pull: fromPromise(pull),
      },
    }),
    { input: {} },
  );
}

export type SyncLoop = ReturnType<typeof createSyncLoop>;
