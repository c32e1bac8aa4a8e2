import type { LiveMachine } from '@takt/ui';
import { useMemo } from 'react';
import { KV } from '../offline/db';
import { useLiveQuery } from '../offline/liveQuery';
import type { Overlay, WorkcenterView } from '../offline/optimistic';
import { foldOverlays } from '../offline/optimistic';
import { useFloorSync } from '../offline/SyncProvider';
import type { CompanyFlags } from './view';
import { baseView, companyFlagsOf } from './view';

export interface WorkcenterData {
  loaded: boolean;
  tile: LiveMachine | null;
  /** Server time of the tile. */
  tileAt: number | null;
  machines: LiveMachine[];
  groups: { id: string; name: string }[];
  view: WorkcenterView;
  run: Record<string, unknown> | null;
  annotationTypes: unknown;
  rejectReasons: unknown;
  operators: unknown;
  setupStages: unknown;
  currentShift: { start: number; end: number; name: string } | null;
  /** The shift calendar (GET /api/shifts) as cached, for the current shift after a change offline. */
  shifts: unknown;
  flags: CompanyFlags;
  pulledAt: number | null;
}

interface Raw {
  tile: LiveMachine | null;
  tileAt: number | null;
  machines: LiveMachine[];
  kv: Record<string, unknown>;
  /** When each kv value was stored (client time). */
  savedAt: Record<string, number>;
  overlays: Overlay[];
}

const EMPTY: Raw = { tile: null, tileAt: null, machines: [], kv: {}, savedAt: {}, overlays: [] };

/**
 * Everything the workcenter shows, from Dexie: the pulled data with the queued actions folded over it.
 * `fetched`: the tile of a dashboard answer this page just got, used until the store has the machine, so a
 * first visit paints the card without waiting for the write to IndexedDB and the read back.
 */
export function useWorkcenter(
  machineId: string,
  fetched: { tile: LiveMachine; at: number } | null = null,
): WorkcenterData & { loaded: boolean } {
  const sync = useFloorSync();
  const db = sync.db;
  const keys = useMemo(
    () => [
      KV.groups,
      KV.currentRun(machineId),
      KV.operatorRun(machineId),
      KV.downtime(machineId),
      KV.annotationTypes(machineId),
      KV.rejectReasons,
      KV.operators,
      KV.setupStages,
      KV.currentShift,
      KV.shifts,
      KV.companyFlags,
      KV.pulledAt(machineId),
    ],
    [machineId],
  );
  const raw = useLiveQuery<Raw | null>(
    async () => {
      const [tiles, kvRows, overlays] = await Promise.all([
        db.tiles.toArray(),
        db.kv.bulkGet(keys),
        db.overlays.where('machineId').equals(machineId).toArray(),
      ]);
      const kv: Record<string, unknown> = {};
      const savedAt: Record<string, number> = {};
      kvRows.forEach((r, i) => {
        if (!r) return;
        kv[keys[i]!] = r.value;
        savedAt[keys[i]!] = r.savedAt;
      });
      const row = tiles.find((x) => x.id === machineId) ?? null;
      return {
        tile: row?.tile ?? null,
        tileAt: row?.at ?? null,
        machines: tiles.map((x) => x.tile),
        kv,
        savedAt,
        overlays,
      };
    },
    `wc:${machineId}`,
    null,
  );

  return useMemo(() => {
    const stored = raw ?? EMPTY;
    const r = stored.tile || !fetched ? stored : { ...stored, tile: fetched.tile, tileAt: fetched.at };
    const kv = r.kv;
    const runKey = KV.currentRun(machineId);
    const run = (kv[runKey] as Record<string, unknown> | null | undefined) ?? null;
    // The run was stored in client time, the tile carries server time: compare both as server time.
    const runSavedAt = r.savedAt[runKey];
    const runAt = runSavedAt == null ? null : runSavedAt + (sync.now() - Date.now());
    const base = baseView({
      tile: r.tile,
      run,
      runAt,
      tileAt: r.tileAt,
      operatorRun: kv[KV.operatorRun(machineId)] as Record<string, unknown> | null,
      downtime: kv[KV.downtime(machineId)],
    });
    return {
      loaded: raw !== null,
      tile: r.tile,
      tileAt: r.tileAt,
      machines: r.machines,
      groups: (kv[KV.groups] as { id: string; name: string }[] | undefined) ?? [],
      view: foldOverlays(base, r.overlays),
      run,
      annotationTypes: kv[KV.annotationTypes(machineId)],
      rejectReasons: kv[KV.rejectReasons],
      operators: kv[KV.operators],
      setupStages: kv[KV.setupStages],
      currentShift: (kv[KV.currentShift] as WorkcenterData['currentShift'] | undefined) ?? null,
      shifts: kv[KV.shifts],
      flags: companyFlagsOf(kv[KV.companyFlags]),
      pulledAt: (kv[KV.pulledAt(machineId)] as number | undefined) ?? null,
    };
  }, [raw, machineId, fetched, sync]);
}
