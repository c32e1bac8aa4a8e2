import { DASHBOARD_TYPES, WORKCENTER_VIEW } from '@takt/domain';
import type { DashboardType } from '@takt/domain';
import { matchPath } from '@takt/ui';

// live-operations §2 routes served by the floor app. First path segments that are routes of their own (now or
// planned) or belong to the API/office are never read as a machine id.
const RESERVED_FIRST_SEGMENTS = new Set([
  'dashboards',
  'switch-machines',
  'tablet',
  'authorize',
  'api',
  'login',
  'logout',
  'timesync',
  'app',
  'machine',
  'machines',
  'dashboard',
  'reports',
  'index.html',
]);

export type FloorRoute =
  | { name: 'home' }
  | { name: 'tabletRegister' }
  | { name: 'switchMachines' }
  | { name: 'authorizeOperator' }
  | { name: 'dashboard'; type: DashboardType | 'cycles' }
  | { name: 'machineDashboard'; machineId: string; type: DashboardType }
  | { name: 'workcenter'; machineId: string; dashboardType: string | null }
  | { name: 'partCount'; machineId: string }
  | { name: 'notFound' };

export const isDashboardType = (s: string | null | undefined): s is DashboardType =>
  (DASHBOARD_TYPES as readonly string[]).includes(s ?? '');

export function resolveFloorRoute(pathname: string): FloorRoute {
  if (matchPath('/', pathname)) return { name: 'home' };
  if (matchPath('/tablet/register', pathname)) return { name: 'tabletRegister' };
  // ?machineId= names the machine they act for (else the last one opened on this device).
  if (matchPath('/switch-machines', pathname)) return { name: 'switchMachines' };
  if (matchPath('/authorize/operator', pathname)) return { name: 'authorizeOperator' };
  const live = matchPath('/dashboards/live/:type', pathname);
  if (live) {
    // The Cycles dashboard is a type of its own, limited to one company (decision 0600).
    if (live.type === 'cycles') return { name: 'dashboard', type: 'cycles' };
    return isDashboardType(live.type) ? { name: 'dashboard', type: live.type } : { name: 'notFound' };
  }
  // /dashboards/machine/{id}/{dashboardView}?tablet=1 (live-operations §2 Routes): one machine's live dashboard.
  const one = matchPath('/dashboards/machine/:machineId/:view', pathname);
  if (one?.machineId) {
    // A tablet's dashboardView opdash (live-operations §3 Tablet, the default) is the workcenter view.
    if (one.view === WORKCENTER_VIEW)
      return { name: 'workcenter', machineId: one.machineId, dashboardType: null };
    return isDashboardType(one.view)
      ? { name: 'machineDashboard', machineId: one.machineId, type: one.view }
      : { name: 'notFound' };
  }
  // /machine/{id}/home/partCount (live-operations §2 "operator host part count"; decision 1099).
  const count = matchPath('/machine/:machineId/home/partCount', pathname);
  if (count?.machineId) return { name: 'partCount', machineId: count.machineId };
  const wc = matchPath('/:machineId', pathname) ?? matchPath('/:machineId/:dashboardType', pathname);
  if (wc?.machineId && !RESERVED_FIRST_SEGMENTS.has(wc.machineId)) {
    return { name: 'workcenter', machineId: wc.machineId, dashboardType: wc.dashboardType ?? null };
  }
  return { name: 'notFound' };
}

export const dashboardPath = (type: DashboardType, group?: string | null) =>
  `/dashboards/live/${type}${group ? `?group=${encodeURIComponent(group)}` : ''}`;

export const workcenterPath = (machineId: string) => `/${encodeURIComponent(machineId)}`;

/** The live boards a TV may show (decision 1041): the all-machines boards and one machine's dashboard. */
export const isBoardRoute = (route: FloorRoute) =>
  route.name === 'dashboard' || route.name === 'machineDashboard';

/** `?tv=1` turns on TV mode: dark, large type, no controls (UI.md "Floor"). */
export const isTvMode = (query: URLSearchParams) => query.get('tv') === '1';
