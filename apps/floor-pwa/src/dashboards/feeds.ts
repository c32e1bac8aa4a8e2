import type { PartsEntry, UtilizationEntry } from '@takt/domain';
import { fetchDashboard, usePolling } from '@takt/ui';
import type { ApiClient, DashboardData, Polling } from '@takt/ui';
import { useEffect, useMemo } from 'react';

// live-operations §2 "Polling": machines and their statuses every 5 s (GET /api/dashboard carries both),
// utilization and parts every 15 s (GET /api/dashboard/utilization, /parts: arrays, one entry per machine).
// Unmapped status (10 s) and gateway status (15 s) have no API yet; nothing on the tiles uses them.

export const MACHINES_POLL_MS = 5000;
export const FIGURES_POLL_MS = 15_000;
/** live-operations §8: a machine list load is marked failed after more than 10 consecutive failures. */
export const FAILED_AFTER = 10;

const isNumOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

/** The answer must be an array of entries with a machine id and the named numeric fields; else it throws. */
export function entriesOf<T extends { machineId: string }>(d: unknown, numeric: readonly (keyof T)[]): T[] {
  if (!Array.isArray(d)) throw new Error('Expected an array of dashboard entries');
  for (const e of d as Record<string, unknown>[]) {
    if (typeof e?.machineId !== 'string') throw new Error('Dashboard entry without machineId');
    for (const k of numeric) {
      if (!isNumOrNull(e[k as string])) throw new Error(`Dashboard entry field ${String(k)} is not a number`);
    }
  }
  return d as T[];
}

const UTIL_NUMERIC = ['utilization', 'oee', 'availability', 'performance', 'quality'] as const;
const PARTS_NUMERIC = ['expectedParts', 'actualParts', 'percent', 'aheadBehind'] as const;

const byMachine = <T extends { machineId: string }>(rows: T[]) => new Map(rows.map((r) => [r.machineId, r]));

export async function fetchUtilization(api: ApiClient, group: string | null, signal?: AbortSignal) {
  return byMachine(
    await api.request('/api/dashboard/utilization', {
      query: { group },
      parse: (d) => entriesOf<UtilizationEntry>(d, UTIL_NUMERIC),
      ...(signal ? { signal } : {}),
    }),
  );
}

export async function fetchParts(api: ApiClient, group: string | null, signal?: AbortSignal) {
  return byMachine(
    await api.request('/api/dashboard/parts', {
      query: { group },
      parse: (d) => entriesOf<PartsEntry>(d, PARTS_NUMERIC),
      ...(signal ? { signal } : {}),
    }),
  );
}

/** Freshness of what the screen shows: a closed union the page renders (STYLE.md, like sync status). */
export type Freshness = 'loading' | 'live' | 'stale' | 'failed';

export function freshnessOf(
  poll: Pick<Polling<unknown>, 'loading' | 'error' | 'consecutiveFailures'>,
  hasData: boolean,
): Freshness {
  if (poll.consecutiveFailures > FAILED_AFTER) return 'failed';
  if (!poll.error) return poll.loading && !hasData ? 'loading' : 'live';
  return hasData ? 'stale' : poll.loading ? 'loading' : 'failed';
}

// ---- The last answer, kept on the device so a TV that reloads with the network gone still shows its plant.

export interface CachedDashboard {
  savedAt: number;
  data: DashboardData;
  utilization: UtilizationEntry[];
  parts: PartsEntry[];
}

const cacheKey = (group: string | null) => `takt.dashboard.${group ?? 'all'}`;

export function readCache(storage: Pick<Storage, 'getItem'> | undefined, group: string | null) {
  try {
    const raw = storage?.getItem(cacheKey(group));
    return raw ? (JSON.parse(raw) as CachedDashboard) : null;
  } catch {
    return null;
  }
}

export function writeCache(
  storage: Pick<Storage, 'setItem'> | undefined,
  group: string | null,
  value: CachedDashboard,
) {
  try {
    storage?.setItem(cacheKey(group), JSON.stringify(value));
  } catch {
    // Storage full or blocked: the dashboard simply has no offline copy.
  }
}

const browserStorage = () => (typeof localStorage === 'undefined' ? undefined : localStorage);

export interface DashboardFeeds {
  machines: Polling<DashboardData>;
  data: DashboardData | undefined;
  utilization: Map<string, UtilizationEntry>;
  parts: Map<string, PartsEntry>;
  freshness: Freshness;
  /** Client time of the data shown (for the stale mark). */
  dataAt: number | null;
}

/**
 * The three polls of a live dashboard. Each keeps its last answer while later polls fail (usePolling), and the
 * last good set is cached, so offline the tiles stay with their last data, marked stale.
 */
export function useDashboardFeeds(
  api: ApiClient,
  group: string | null,
  opts: { utilization: boolean; parts: boolean },
): DashboardFeeds {
  const key = `group:${group ?? ''}`;
  const machines = usePolling((s) => fetchDashboard(api, group, s), MACHINES_POLL_MS, key);
  const util = usePolling(
    (s) => (opts.utilization ? fetchUtilization(api, group, s) : Promise.resolve(new Map())),
    FIGURES_POLL_MS,
    `${key}:${opts.utilization}`,
  );
  const parts = usePolling(
    (s) => (opts.parts ? fetchParts(api, group, s) : Promise.resolve(new Map())),
    FIGURES_POLL_MS,
    `${key}:${opts.parts}`,
  );
  const cached = useMemo(() => readCache(browserStorage(), group), [group]);
  const usable = cached && !machines.data && machines.error ? cached : null;

  useEffect(() => {
    if (!machines.data) return;
    writeCache(browserStorage(), group, {
      savedAt: Date.now(),
      data: machines.data,
      utilization: [...(util.data?.values() ?? [])],
      parts: [...(parts.data?.values() ?? [])],
    });
  }, [group, machines.data, util.data, parts.data]);

  const cachedUtil = useMemo(() => byMachine(usable?.utilization ?? []), [usable]);
  const cachedParts = useMemo(() => byMachine(usable?.parts ?? []), [usable]);
  const data = machines.data ?? usable?.data;
  return {
    machines,
    data,
    utilization: util.data ?? cachedUtil,
    parts: parts.data ?? cachedParts,
    freshness: freshnessOf(machines, data != null),
    dataAt: machines.data ? machines.lastSuccessAt : (usable?.savedAt ?? null),
  };
}
