import type { SyncStatus } from '@takt/domain';
import type { ApiClient } from '@takt/ui';
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import type { RejectedEntry } from './commands';
import { floorDb } from './db';
import { FloorSync } from './floorSync';
import { useLiveQuery } from './liveQuery';
import { syncStatusOf } from './syncStatus';

const SyncContext = createContext<FloorSync | null>(null);

export function SyncProvider({
  api,
  paused = false,
  children,
}: {
  api: ApiClient;
  /** A TV (decision 1041) only reads its board: no sync loop, no reference data to pull. */
  paused?: boolean;
  children: ReactNode;
}) {
  const [sync] = useState(() => new FloorSync(api, floorDb()));
  useEffect(() => {
    if (paused) return;
    // The sync loop (XState, its clock sync and its pull of reference data) starts when the tablet is first
    // idle, not while the first screen renders. Nothing waits on it: taps go to the Dexie
    // outbox at once, and events sent before the loop runs are kept for it (FloorSync.send).
    const begin = () =>
      void sync.start().then(() => {
        if (!navigator.onLine) sync.send({ type: 'OFFLINE' });
      });
    const idle =
      typeof requestIdleCallback === 'function' ? requestIdleCallback(begin, { timeout: 2000 }) : null;
    const timer = idle == null ? setTimeout(begin, 0) : null;
    const online = () => sync.send({ type: 'ONLINE' });
    const offline = () => sync.send({ type: 'OFFLINE' });
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      if (idle != null) cancelIdleCallback(idle);
      if (timer != null) clearTimeout(timer);
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      sync.stop();
    };
  }, [sync, paused]);
  return <SyncContext.Provider value={sync}>{children}</SyncContext.Provider>;
}

export function useFloorSync(): FloorSync {
  const s = useContext(SyncContext);
  if (!s) throw new Error('useFloorSync needs a <SyncProvider> above it');
  return s;
}

export interface SyncView {
  status: SyncStatus;
  retryAt: number | null;
  pending: number;
}

export function useSyncView(): SyncView {
  const sync = useFloorSync();
  const { value, retryAt } = useSyncExternalStore(sync.subscribe, sync.getSnapshot);
  const pending = useLiveQuery(() => sync.db.outbox.count(), 'outbox', 0);
  return { status: syncStatusOf(value), retryAt, pending };
}

export function useRejected(machineId: string | null): RejectedEntry[] {
  const sync = useFloorSync();
  return useLiveQuery(
    () =>
      machineId
        ? sync.db.rejected.where('machineId').equals(machineId).sortBy('rejectedAt')
        : sync.db.rejected.orderBy('rejectedAt').toArray(),
    `rejected:${machineId ?? ''}`,
    [],
  );
}
