import type { DashboardMachine, DashboardResponse, DashboardType } from '@takt/domain';
import type { ApiClient } from './api';
import { serverOffset } from './clock';
import { parseDashboardResponse } from './shape';
import { usePolling } from './usePolling';
import type { Polling } from './usePolling';

/** live-operations §2 "Polling": machines every 5 s. */
export const MACHINES_POLL_MS = 5000;

export type LiveMachine = DashboardMachine & Record<string, unknown>;

export interface DashboardData extends Omit<DashboardResponse, 'machines'> {
  machines: LiveMachine[];
  /** Server clock minus client clock when this answer arrived; add it to Date.now() for server time. */
  offsetMs: number;
}

export async function fetchDashboard(
  api: ApiClient,
  group: string | null,
  signal?: AbortSignal,
): Promise<DashboardData> {
  const res = await api.request('/api/dashboard', {
    query: { group },
    // Loose machine objects: fields the API adds later (utilization, oee, partPercent — live-operations §3
    // "Work center live data") pass through the check instead of being stripped, so rings appear as soon
    // as the API sends them, without inventing numbers before.
    parse: parseDashboardResponse,
    ...(signal ? { signal } : {}),
  });
  return { ...res, machines: res.machines, offsetMs: serverOffset(res.now, Date.now()) };
}

/** GET /api/dashboard every 5 s, optionally for one machine group. */
export function useDashboard(api: ApiClient, group: string | null): Polling<DashboardData> {
  return usePolling((signal) => fetchDashboard(api, group, signal), MACHINES_POLL_MS, `group:${group ?? ''}`);
}

/** The field of a machine that feeds each dashboard's ring (live-operations §3 work center live data). */
export const RING_FIELD: Record<DashboardType, string | null> = {
  utilization: 'utilization',
  oee: 'oee',
  partsgoal: 'partPercent',
  downtime: null, // Downtime shows time in state, no ring (live-operations §2).
};

/** The ring's percentage for this dashboard, or null when the API does not send one. */
export function ringPercent(machine: Record<string, unknown>, type: DashboardType): number | null {
  const field = RING_FIELD[type];
  if (!field) return null;
  const v = machine[field];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Machines in a group; null or an unknown group means all. */
export function machinesInGroup<M extends { groupIds: string[] }>(
  machines: readonly M[],
  groupId: string | null,
): M[] {
  return groupId ? machines.filter((m) => m.groupIds.includes(groupId)) : [...machines];
}
