import { ApiError, fetchDashboard } from '@takt/ui';
import type { ApiClient, LiveMachine } from '@takt/ui';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { FloorDb } from './db';
import { KV } from './db';
import { dropConfirmedOverlays } from './outbox';

// Reference data and live card data pulled into Dexie while online, so the workcenter view opens and works
// with the network gone after one online visit (ARCHITECTURE.md "Offline sync contract").

/** Jobs cached per machine for the offline Start Job search. */
export const CACHED_JOBS = 100;
const DAY_MS = 86_400_000;
const SHIFTS_MAX_AGE_MS = 3_600_000;

type Fetched = { key: string; value: unknown };

export async function storeDashboard(
  db: FloorDb,
  machines: readonly LiveMachine[],
  groups: readonly { id: string; name: string }[],
  now: number,
): Promise<void> {
  await db.transaction('rw', db.tiles, db.kv, async () => {
    await db.tiles.bulkPut(machines.map((m) => ({ id: String(m.id), tile: { ...m }, at: now })));
    await db.kv.bulkPut([
      { key: KV.groups, value: groups, savedAt: Date.now() },
      { key: KV.dashboardAt, value: now, savedAt: Date.now() },
    ]);
  });
}

/**
 * Pulls everything the workcenter of one machine needs. Each call stands alone: what answers is stored, what
 * fails keeps its last stored value (so the screen works on what it had). Throws the first error when nothing
 * at all could be fetched (offline), or a 401 (the sync machine reloads the page).
 */
export async function pullMachine(
  api: ApiClient,
  db: FloorDb,
  machineId: string,
  serverNow: number,
): Promise<void> {
  const startedAt = Date.now();
  const get = <T>(key: string, path: string, query?: Record<string, string | number | boolean>) =>
    api
      .request<T>(path, { on401: 'throw', ...(query ? { query } : {}) })
      .then((value): Fetched => ({ key, value }));

  const requests: Promise<Fetched | null>[] = [
    fetchDashboard(api, null).then((d) => {
      void storeDashboard(db, d.machines, d.groups, d.now);
      return null;
    }),
    get(KV.annotationTypes(machineId), ENDPOINTS.annotationTypes, { machineId }),
    get(KV.rejectReasons, ENDPOINTS.partAdjustmentTypes, { scrapOnly: true }),
    get(KV.operators, ENDPOINTS.operators),
    get(KV.setupStages, ENDPOINTS.setupStages),
    get(KV.currentShift, ENDPOINTS.currentShift),
    get(KV.downtime(machineId), ENDPOINTS.downtime, { machineId }),
    get(KV.operatorRun(machineId), ENDPOINTS.operatorRuns, {
      machineId,
      startAt: serverNow - 7 * DAY_MS,
      endAt: serverNow + 60_000,
    }).then((f) => ({ key: f.key, value: openRun(f.value) })),
    get(KV.currentRun(machineId), ENDPOINTS.currentRun, { machineId }),
    get(KV.companyFlags, ENDPOINTS.companyFlags),
    get<{ rows: Record<string, unknown>[]; count: number }>('jobs', ENDPOINTS.jobs, {
      machineId,
      filter: '',
      limit: CACHED_JOBS,
      offset: 0,
    }),
  ];
  const settled = await Promise.allSettled(requests);
  const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  const unauthorized = errors.find((e) => e instanceof ApiError && e.status === 401);
  if (unauthorized) throw unauthorized;
  if (errors.length === settled.length) throw errors[0];

  const fetched = settled.flatMap((s) => (s.status === 'fulfilled' && s.value ? [s.value] : []));
  // One transaction: the pulled data and the drop of the overlays it now contains land together.
  await db.transaction('rw', [db.kv, db.jobs, db.overlays], async () => {
    const values = fetched.filter((f) => f.key !== 'jobs');
    const stored = await db.kv.bulkGet(values.map((f) => f.key));
    for (const f of fetched) {
      if (f.key !== 'jobs') continue;
      const page = f.value as { rows: Record<string, unknown>[]; count: number };
      await cacheJobs(db, machineId, page.rows);
      await db.kv.put({ key: KV.jobsCount(machineId), value: page.count, savedAt: startedAt });
    }
    // A value written after this pull started (the answer to this tablet's own start or stop) is newer than
    // what the server answered before it: keep it.
    await db.kv.bulkPut(
      values
        .filter((_, i) => !((stored[i]?.savedAt ?? -Infinity) > startedAt))
        .map((f) => ({ key: f.key, value: f.value, savedAt: startedAt })),
    );
    await db.kv.put({ key: KV.pulledAt(machineId), value: startedAt, savedAt: startedAt });
    await dropConfirmedOverlays(db, machineId);
  });
  await pullShifts(api, db, startedAt);
}

/**
 * The shift definitions let the downtime list find the current shift after a shift change while offline. They
 * change seldom: fetched at most once an hour, after the machine's data, so they never hold up the first paint.
 */
async function pullShifts(api: ApiClient, db: FloorDb, startedAt: number): Promise<void> {
  const stored = await db.kv.get(KV.shifts);
  if (stored && startedAt - stored.savedAt < SHIFTS_MAX_AGE_MS) return;
  try {
    const shifts = await api.request<unknown>(ENDPOINTS.shifts, { on401: 'throw' });
    await db.kv.put({ key: KV.shifts, value: shifts, savedAt: startedAt });
  } catch {
    // Kept as it was: the server's current shift (pulled above) still marks the sections while online.
  }
}

function openRun(runs: unknown): unknown {
  if (!Array.isArray(runs)) return null;
  return runs.find((r: { endAt?: unknown }) => r && r.endAt == null) ?? null;
}

export async function cacheJobs(db: FloorDb, machineId: string, rows: readonly Record<string, unknown>[]) {
  await db.jobs.bulkPut(
    rows.map((job) => {
      const id = String(job.id);
      const name = String(job.displayName ?? job.job_name ?? job.name ?? id);
      return { key: `${machineId}|${id}`, machineId, id, name, search: name.toLowerCase(), job };
    }),
  );
}
