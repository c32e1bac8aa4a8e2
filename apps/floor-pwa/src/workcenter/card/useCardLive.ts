import { useEffect, useState } from 'react';
import { ENDPOINTS } from '../../endpoints/endpoints';
import { useLiveQuery } from '../../offline/liveQuery';
import { useFloorSync, useSyncView } from '../../offline/SyncProvider';
import type { StoredCardLive } from './liveData';
import { cardLiveKey, parseCardLive, storedCardLive } from './liveData';

/** live-operations §2: the card polls every 5 s while online. */
export const CARD_POLL_MS = 5_000;

export interface CardLiveState {
  /** The last answer kept in Dexie (shown offline), or null before the first one on this device. */
  stored: StoredCardLive | null;
  /** True when what is shown is not from a poll that just succeeded (offline, failing, or not yet polled). */
  stale: boolean;
  /** The last poll failed (and is retried on the next tick). */
  failed: boolean;
}

/**
 * GET /api/workcenter/:machineId every 5 s while online, into Dexie; the card reads Dexie, so it shows the
 * last answer offline. A change of the outbox count (an action queued or confirmed) polls at once.
 */
export function useCardLive(machineId: string): CardLiveState {
  const sync = useFloorSync();
  const { status, pending } = useSyncView();
  const online = status !== 'offline';
  const [result, setResult] = useState<{ key: string; ok: boolean } | null>(null);

  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const live = await sync.api.request(ENDPOINTS.workcenter(machineId), {
          signal: controller.signal,
          parse: (data) => parseCardLive(data, machineId),
        });
        const value: StoredCardLive = { live, at: sync.now() };
        await sync.db.kv.put({ key: cardLiveKey(machineId), value, savedAt: Date.now() });
        if (!controller.signal.aborted) setResult({ key: machineId, ok: true });
      } catch {
        if (controller.signal.aborted) return;
        setResult({ key: machineId, ok: false });
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void tick(), CARD_POLL_MS);
    };
    void tick();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [sync, machineId, online, pending]);

  const stored = useLiveQuery(
    () => sync.db.kv.get(cardLiveKey(machineId)).then((row) => storedCardLive(row?.value)),
    `cardLive:${machineId}`,
    null,
  );
  const mine = result?.key === machineId ? result : null;
  return { stored, stale: !online || !mine?.ok, failed: mine != null && !mine.ok };
}
