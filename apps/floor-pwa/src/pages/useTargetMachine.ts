import { useLocation } from '@takt/ui';
import { useEffect, useState } from 'react';
import { KV, kvGet } from '../offline/db';
import { useFloorSync } from '../offline/SyncProvider';

/**
 * The machine a page without one in its path acts for (/switch-machines, /authorize/operator): `?machineId=`,
 * else the last machine opened on this device (kept in Dexie, so it works offline too).
 */
export function useTargetMachine(): { machineId: string | null; resolved: boolean } {
  const { query } = useLocation();
  const sync = useFloorSync();
  const asked = query.get('machineId') || null;
  const [last, setLast] = useState<{ id: string | null } | null>(null);
  useEffect(() => {
    if (asked) return;
    let live = true;
    void kvGet<string>(sync.db, KV.lastMachine).then((id) => {
      if (live) setLast({ id: id ?? null });
    });
    return () => {
      live = false;
    };
  }, [asked, sync]);
  if (asked) return { machineId: asked, resolved: true };
  return { machineId: last?.id ?? null, resolved: last !== null };
}
