import type { Me, Permission } from '@takt/domain';
import { tr } from '@takt/ui';

// Office routes (reports-admin §2 "Report routes"). The server sends /app, /machine, /machines, /dashboard/
// and /reports to this app; only pages that exist are routed, everything else is a real "Not found" page.
// Every screen's state is in its URL, so each one can be bookmarked and reloaded.

export const PATHS = {
  home: '/app',
  machines: '/app/machines',
  /** reports-admin §2: the report index, and the back target of the OEE and utilization reports. */
  reports: '/app/reports',
  /** reports-admin §2: "reports/downtime and /app/reports: report index, used as the back target". */
  reportsDowntime: '/reports/downtime',
  utilization: '/dashboard/utilization',
  oee: '/dashboard/oee',
  /**
   * The company Downtime report (reports-admin §2). Not /reports/downtime, which the spec makes the report
   * index's alias (decision 0805).
   */
  downtime: '/dashboard/downtime',
  /** reports-admin §2: /machine/{id}/downtime?start&end, the per-machine downtime report. */
  machineDowntime: '/machine/:id/downtime',
  /**
   * The company Quality report (reports-admin §2 "Quality report"), beside /dashboard/downtime; it opens a
   * group or one machine with `group` / `machine` in the query, as the OEE report does (decision 0806).
   */
  quality: '/dashboard/quality',
  /** reports-admin §2: /machine/{id}/cycles?start&end, one machine's Cycles report (decision 0806). */
  machineCycles: '/machine/:id/cycles',
} as const;

export type PageId = 'machines' | 'reports' | 'utilization' | 'oee' | 'downtime' | 'quality' | 'cycles';

/** The route table, as plain objects so react-router's matcher can be tested without a browser. */
export const OFFICE_ROUTES: readonly { id: PageId; path: string }[] = [
  { id: 'machines', path: PATHS.home },
  { id: 'machines', path: PATHS.machines },
  { id: 'reports', path: PATHS.reports },
  { id: 'reports', path: PATHS.reportsDowntime },
  { id: 'utilization', path: PATHS.utilization },
  { id: 'oee', path: PATHS.oee },
  { id: 'downtime', path: PATHS.downtime },
  { id: 'downtime', path: PATHS.machineDowntime },
  { id: 'quality', path: PATHS.quality },
  { id: 'cycles', path: PATHS.machineCycles },
];

/** The reports this app has, with the permission each needs (reports-admin §6). */
export interface ReportEntry {
  id: 'oee' | 'utilization' | 'downtime' | 'quality';
  path: string;
  permission: Permission;
  title: string;
  blurb: string;
}

export const REPORTS: readonly ReportEntry[] = [
  {
    id: 'oee',
    path: PATHS.oee,
    // reports-admin §6: FullProduct gates the OEE dashboards (there is no separate OEE permission).
    permission: 'FullProduct',
    title: tr('reports.oee'),
    blurb: tr('reports.oeeBlurb'),
  },
  {
    id: 'utilization',
    path: PATHS.utilization,
    permission: 'Utilization',
    title: tr('reports.utilization'),
    blurb: tr('reports.utilizationBlurb'),
  },
  {
    id: 'downtime',
    path: PATHS.downtime,
    // GET /api/reports/downtime is gated by PerformanceDashboard (services/api routes/reports.ts).
    permission: 'PerformanceDashboard',
    title: tr('reports.downtime'),
    blurb: tr('reports.downtimeBlurb'),
  },
  {
    id: 'quality',
    path: PATHS.quality,
    // GET /api/partadjustment/allRejectsByCategory and /rejects need no permission beyond a login
    // (services/api routes/part-adjustments.ts); a report page still needs the reports tier.
    permission: 'PerformanceDashboard',
    title: tr('reports.quality'),
    blurb: tr('reports.qualityBlurb'),
  },
];

/** /machine/{id}/downtime for one machine. */
export const machineDowntimePath = (id: string): string =>
  PATHS.machineDowntime.replace(':id', encodeURIComponent(id));

/** reports-admin §6: what a user may open follows the permissions /api/me lists (tier and role). */
export const hasPermission = (me: Pick<Me, 'permissions'>, p: Permission): boolean =>
  me.permissions.includes(p);

export const reportsFor = (me: Pick<Me, 'permissions'>): ReportEntry[] =>
  REPORTS.filter((r) => hasPermission(me, r.permission));

/** Which top-level navigation entry a path belongs to. */
export function navSection(pathname: string): 'machines' | 'reports' | null {
  const p = pathname.replace(/\/+$/, '') || '/';
  if (p === PATHS.home || p === PATHS.machines) return 'machines';
  if (p === PATHS.reports || p === PATHS.reportsDowntime || REPORTS.some((r) => r.path === p))
    return 'reports';
  if (/^\/machine\/[^/]+\/(downtime|cycles)$/.test(p)) return 'reports';
  return null;
}
