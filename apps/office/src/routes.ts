import type { Me, Permission } from '@takt/domain';
import { tr } from '@takt/ui';
// REPORTS reads the office texts when this module runs: registered first wherever the bundler puts this module (a
// chunk shared with a lazily loaded page ran it before main.tsx's own import of the texts: 'production.runs.title').
import './texts';
import { isAdminPath } from './admin/screens';
import { isAccountsPath, isUsersPath } from './accounts/paths';
import { isInternalPath } from './internal/paths';

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
  /** reports-admin §2: /dashboard/utilizationdeprecated?{query}, the older utilization dashboard (decision 1098). */
  utilizationDeprecated: '/dashboard/utilizationdeprecated',
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
  /** reports-admin §2: "/machines/{machine_id}/cycles?start&end also appear": the same Cycles report. */
  machinesCycles: '/machines/:id/cycles',
  /** reports-admin §2: /machine/{id}/overrides?start&end, the override step charts (decision 0807). */
  machineOverrides: '/machine/:id/overrides',
  /** reports-admin §2: /dashboard/parts?{query}, the Parts report (CSV via /api/reports/partGoals). */
  parts: '/dashboard/parts',
  /** reports-admin §2: /machine/{id}/parts, one machine's Parts report. */
  machineParts: '/machine/:id/parts',
  /**
   * reports-admin §2: /machine/{id}/utilization, one machine's utilization: the Utilization report drilled
   * into that machine (the same tiles, lists and charts), so it opens /dashboard/utilization?machine={id}.
   */
  machineUtilization: '/machine/:id/utilization',
  /** reports-admin §2: /machine/{id}/timeline?start&end&interval, the machine timeline. */
  machineTimeline: '/machine/:id/timeline',
  /**
   * reports-admin §2: /app/machines/{id}/standard-timeline?start&end&startTime&endTime&include, the timeline's
   * lanes picked by include with one event highlighted (decision 0811).
   */
  standardTimeline: '/app/machines/:id/standard-timeline',
  /** reports-admin §2: /machine/{id}/quality?start&end[&adjustmenttime&qty], the scrap grid and form. */
  machineQuality: '/machine/:id/quality',
  /** reports-admin §2: "/machines/{machine_id}/quality?start&end … also appear". */
  machinesQuality: '/machines/:id/quality',
  /** reports-admin §2: app/machines/{id}/part-corrections?start&end&adjustmenttime&qty. */
  partCorrections: '/app/machines/:id/part-corrections',
  /** reports-admin §2 "a machine diagnostics page" (decision 0810). */
  machineDiagnostics: '/machine/:id/diagnostics',
  /** reports-admin §2 "a machine conditions page (live charts of scalar fields)", ?key (decision 0810). */
  machineConditions: '/machine/:id/conditions',
  /** reports-admin §2 "an event-data export page" (decision 0810). */
  machineExport: '/machine/:id/export',
  /** reports-admin §2: reports/operationreport?job_id&start&end, the Jobs report (all machines). */
  jobs: '/reports/operationreport',
  /** reports-admin §2: /dashboard/jobreport?job_id={id}&start&end, one job's report (no range: all time). */
  jobReport: '/dashboard/jobreport',
  /**
   * reports-admin §2: /reports/machineoperationreport?machine_id&job_id[&start&end], one job on one machine;
   * without job_id, the Machine jobs report of the machine (decision 0821).
   */
  machineJob: '/reports/machineoperationreport',
  /** reports-admin §2: /reports/production-runs?start&end&jsg, the job runs of a range (decision 0850). */
  productionRuns: '/reports/production-runs',
  /** reports-admin §2: /app/production/production-runs/{jobschedulegroup_id}/edit, one run's editor. */
  productionRunEdit: '/app/production/production-runs/:id/edit',
  /** reports-admin §2 "Schedule (job runs) timeline" (decision 0910): ?start=YYYY-MM-DD&days=1..31. */
  schedule: '/app/production/schedule',
  /** Jobs and their standards per machine, for planners (issue 29 point 1; decision 1084). */
  jobsAdmin: '/app/jobs',
  jobEdit: '/app/jobs/:id',
} as const;

export type PageId =
  | 'machines'
  | 'reports'
  | 'utilization'
  | 'utilizationDeprecated'
  | 'oee'
  | 'downtime'
  | 'quality'
  | 'cycles'
  | 'overrides'
  | 'parts'
  | 'machineUtilization'
  | 'timeline'
  | 'standardTimeline'
  | 'machineQuality'
  | 'partCorrections'
  | 'machineDiagnostics'
  | 'machineConditions'
  | 'machineExport'
  | 'jobs'
  | 'jobReport'
  | 'machineJob'
  | 'productionRuns'
  | 'productionRunEdit'
  | 'schedule'
  | 'jobsAdmin'
  | 'jobEdit';

/** The route table, as plain objects so react-router's matcher can be tested without a browser. */
export const OFFICE_ROUTES: readonly { id: PageId; path: string }[] = [
  { id: 'machines', path: PATHS.home },
  { id: 'machines', path: PATHS.machines },
  { id: 'reports', path: PATHS.reports },
  { id: 'reports', path: PATHS.reportsDowntime },
  { id: 'utilization', path: PATHS.utilization },
  { id: 'utilizationDeprecated', path: PATHS.utilizationDeprecated },
  { id: 'oee', path: PATHS.oee },
  { id: 'downtime', path: PATHS.downtime },
  { id: 'downtime', path: PATHS.machineDowntime },
  { id: 'quality', path: PATHS.quality },
  { id: 'cycles', path: PATHS.machineCycles },
  { id: 'cycles', path: PATHS.machinesCycles },
  { id: 'overrides', path: PATHS.machineOverrides },
  { id: 'parts', path: PATHS.parts },
  { id: 'parts', path: PATHS.machineParts },
  { id: 'machineUtilization', path: PATHS.machineUtilization },
  { id: 'timeline', path: PATHS.machineTimeline },
  { id: 'standardTimeline', path: PATHS.standardTimeline },
  { id: 'machineQuality', path: PATHS.machineQuality },
  { id: 'machineQuality', path: PATHS.machinesQuality },
  { id: 'partCorrections', path: PATHS.partCorrections },
  { id: 'machineDiagnostics', path: PATHS.machineDiagnostics },
  { id: 'machineConditions', path: PATHS.machineConditions },
  { id: 'machineExport', path: PATHS.machineExport },
  { id: 'jobs', path: PATHS.jobs },
  { id: 'jobReport', path: PATHS.jobReport },
  { id: 'machineJob', path: PATHS.machineJob },
  { id: 'productionRuns', path: PATHS.productionRuns },
  { id: 'productionRunEdit', path: PATHS.productionRunEdit },
  { id: 'schedule', path: PATHS.schedule },
  { id: 'jobsAdmin', path: PATHS.jobsAdmin },
  { id: 'jobEdit', path: PATHS.jobEdit },
];

/** The reports this app has, with the permission each needs (reports-admin §6). */
export interface ReportEntry {
  id: 'oee' | 'utilization' | 'downtime' | 'quality' | 'parts' | 'jobs' | 'productionRuns';
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
  {
    id: 'parts',
    path: PATHS.parts,
    // GET /api/reports/partGoals needs FullProduct (reports-admin §6: the Parts Goal dashboards).
    permission: 'FullProduct',
    title: tr('parts.title'),
    blurb: tr('parts.blurb'),
  },
  {
    id: 'jobs',
    path: PATHS.jobs,
    // The warehouse job calls need FullProduct (decision 0813: job figures are OEE figures).
    permission: 'FullProduct',
    title: tr('jobs.title'),
    blurb: tr('jobs.blurb'),
  },
  {
    id: 'productionRuns',
    path: PATHS.productionRuns,
    // GET /api/productionruns needs FullProduct, as the warehouse job calls (decision 0850).
    permission: 'FullProduct',
    title: tr('production.runs.title'),
    blurb: tr('production.runs.blurb'),
  },
];

/** /machine/{id}/downtime for one machine. */
export const machineDowntimePath = (id: string): string =>
  PATHS.machineDowntime.replace(':id', encodeURIComponent(id));

/**
 * /machine/{id}/timeline for one machine, optionally over a range (reports-admin §2; the Downtime report's
 * "Selecting a row opens the timeline around the event" can use timelineAround of timeline/model.ts).
 */
export const machineTimelinePath = (id: string, range?: { start: number; end: number }): string =>
  PATHS.machineTimeline.replace(':id', encodeURIComponent(id)) +
  (range ? `?interval=hour&start=${range.start}&end=${range.end}` : '');

/** The three machine pages linked from the Machines page (reports-admin §2; decision 0810). */
export type MachineTool = 'diagnostics' | 'conditions' | 'export';

const MACHINE_TOOL_PATH: Record<MachineTool, string> = {
  diagnostics: PATHS.machineDiagnostics,
  conditions: PATHS.machineConditions,
  export: PATHS.machineExport,
};

/** /machine/{id}/diagnostics, /conditions or /export for one machine. */
export const machineToolPath = (tool: MachineTool, id: string): string =>
  MACHINE_TOOL_PATH[tool].replace(':id', encodeURIComponent(id));

/** reports-admin §6: what a user may open follows the permissions /api/me lists (tier and role). */
export const hasPermission = (me: Pick<Me, 'permissions'>, p: Permission): boolean =>
  me.permissions.includes(p);

export const reportsFor = (me: Pick<Me, 'permissions'>): ReportEntry[] =>
  REPORTS.filter((r) => hasPermission(me, r.permission));

/** Which top-level navigation entry a path belongs to. */
export function navSection(
  pathname: string,
): 'machines' | 'reports' | 'admin' | 'accounts' | 'users' | 'profile' | 'internal' | 'jobs' | null {
  const p = pathname.replace(/\/+$/, '') || '/';
  if (isAdminPath(p)) return 'admin';
  if (isInternalPath(p)) return 'internal';
  if (isUsersPath(p)) return 'users';
  if (p === '/app/profile') return 'profile';
  if (isAccountsPath(p)) return 'accounts';
  if (p === PATHS.home || p === PATHS.machines) return 'machines';
  if (p === PATHS.jobsAdmin || /^\/app\/jobs\/[^/]+$/.test(p)) return 'jobs';
  // The machine pages of decision 0810 are opened from the Machines page.
  if (/^\/machine\/[^/]+\/(diagnostics|conditions|export)$/.test(p)) return 'machines';
  if (p === PATHS.reports || p === PATHS.reportsDowntime || REPORTS.some((r) => r.path === p))
    return 'reports';
  if (p === PATHS.jobReport || p === PATHS.machineJob || p === PATHS.utilizationDeprecated) return 'reports';
  if (p === PATHS.productionRuns || /^\/app\/production\/production-runs\/[^/]+\/edit$/.test(p))
    return 'reports';
  // The schedule is opened from the Production Runs report (decision 0910).
  if (p === PATHS.schedule) return 'reports';
  if (/^\/machine\/[^/]+\/(downtime|cycles|timeline|quality|overrides|parts|utilization)$/.test(p))
    return 'reports';
  if (/^\/machines\/[^/]+\/(cycles|quality)$/.test(p)) return 'reports';
  if (/^\/app\/machines\/[^/]+\/part-corrections$/.test(p)) return 'reports';
  if (/^\/app\/machines\/[^/]+\/standard-timeline$/.test(p)) return 'reports';
  return null;
}

/** /machine/{id}/utilization?{query} → the Utilization report of that machine, keeping the dates. */
export function machineUtilizationHref(id: string, search: string): string {
  const q = new URLSearchParams(search);
  q.delete('group');
  q.set('machine', id);
  return `${PATHS.utilization}?${q.toString()}`;
}
