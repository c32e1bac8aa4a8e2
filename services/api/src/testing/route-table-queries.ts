import type { RouteCase, Shop } from './route-table';
import { HOUR } from './downtime-builders';

// The route table's admin calls (tablets, shifts, settings, production runs, the schedule), its queries and
// the report, accounts and preferences calls: route-table.ts holds the live-operations writes and puts these
// after them in ROUTES; split off so each file stays readable.

const range = (s: Shop) => ({ start: s.T - HOUR, end: s.T });

const productionBody = (s: Shop) => ({
  ...range(s),
  interval: 'hour',
  data: ['oee', 'timeInCycle'],
  filter: { machine: [s.machineId], shift: [s.shiftId] },
  groupBy: ['machine', 'interval'],
  csv: true,
});
const oeeByBody = (s: Shop) => ({
  ...range(s),
  intervalType: 'hour',
  efficiencyMetric: 'oee',
  machines: [s.machineId],
  shifts: [s.shiftId],
  jobId: s.jobId,
});

/**
 * Machine bodies that each name an adapter of their own, on 10.`subnet`.x.y: one source address belongs to one
 * company (decision 0986), and the walks save as several. Each walk takes its own subnet, so walks that share a
 * worker's modules never meet.
 */
export function distinctMachineBodies(subnet: number): () => Record<string, unknown> {
  let adapters = 0;
  return () => {
    const n = adapters++;
    return {
      name: 'Lathe',
      workcenterType: 'machine',
      downtimeFailureDelay: 10,
      autostartBehavior: 'disabled',
      adapterId: null,
      source: { kind: 'shdr', host: `10.${subnet}.${(n >> 8) & 255}.${n & 255}`, port: 7878 },
    };
  };
}

/** Machines admin and machine groups (reports-admin §2, §7): admins only for writes. */
const machineBody = distinctMachineBodies(9);
const groupBody = (s: Shop) => ({ name: 'Cell', erpGroupId: 'E-1', machines: [s.machineId] });

/** The admin calls, queries, report, accounts and preferences calls, after the writes in ROUTES. */
export const QUERY_ROUTES: RouteCase[] = [
  // Tablets, shifts, start of day, company settings and the test e-mail (admins).
  { method: 'GET', path: '/api/company/settings', reach: 'own' },
  { method: 'PUT', path: '/api/company/settings', reach: 'own', body: () => ({ locale: 'en-GB' }) },
  // Production runs (reports-admin §2): FullProduct; saving is for admins.
  { method: 'GET', path: '/api/productionruns', full: true, reach: 'own', body: (s) => range(s) },
  { method: 'GET', path: '/api/productionruns/:id', full: true, reach: 'company', id: (s) => s.jsgId },
  {
    method: 'PUT',
    path: '/api/productionruns/:id',
    full: true,
    reach: 'company',
    body: (s) => ({
      job_id: s.jobId,
      machine_id: s.machineId,
      startdate: s.T - HOUR,
      enddate: null,
      startInSetup: 'planned',
      setupend: null,
      cycletime: 60_000,
      idealcycletime: 50_000,
      partcount_multiplier: 1,
      actualParts: 1,
    }),
    id: (s) => s.jsgId,
  },
  // The schedule's create (with its shifts) and delete (reports-admin §2 Schedule; decision 0910).
  {
    method: 'POST',
    path: '/api/productionruns',
    full: true,
    reach: 'company',
    body: (s) => ({
      job_id: s.jobId,
      machine_id: s.machineId,
      startdate: s.T - 30 * HOUR,
      enddate: s.T - 29 * HOUR,
      startInSetup: 'none',
      setupend: null,
      cycletime: 60_000,
      idealcycletime: 50_000,
      partcount_multiplier: 1,
      actualParts: 1,
      partchangeovertime: 0,
      shifts: [s.shiftId],
    }),
  },
  { method: 'DELETE', path: '/api/productionruns/:id', full: true, reach: 'company', id: (s) => s.jsgId },
  { method: 'GET', path: '/api/tablets/:id', reach: 'company', id: (s) => s.tabletId },
  {
    method: 'PUT',
    path: '/api/tablets/:id',
    reach: 'company',
    body: (s) => ({ remote_identifier: 'Lathe tablet', machine_id: s.machineId, dashboardView: 'opdash' }),
    id: (s) => s.tabletId,
  },
  {
    method: 'POST',
    path: '/api/tablets/associate',
    reach: 'machine',
    body: (s) => ({ code: 'ABC234', machineId: s.machineId, remote_identifier: 'T' }),
  },
  { method: 'POST', path: '/api/tablets/:id/refresh', reach: 'company', id: (s) => s.tabletId },
  { method: 'POST', path: '/api/tablets/:id/revoke', reach: 'company', id: (s) => s.tabletId },
  { method: 'POST', path: '/api/tablets/:id/restart', reach: 'company', id: (s) => s.tabletId },
  { method: 'POST', path: '/api/tablets/purge', reach: 'own' },
  { method: 'DELETE', path: '/api/tablets/:id', reach: 'company', id: (s) => s.tabletId },
  {
    method: 'POST',
    path: '/api/shifts',
    reach: 'own',
    body: () => ({ name: 'Night', startoffsetminutes: 1320, endoffsetminutes: 360, byweekday: [0, 1] }),
  },
  {
    method: 'PUT',
    path: '/api/shifts/:id',
    reach: 'company',
    body: () => ({ name: 'Early', startoffsetminutes: 300, endoffsetminutes: 780, byweekday: [0] }),
    id: (s) => s.shiftId,
  },
  {
    method: 'PUT',
    path: '/api/shifts/:id/terminate',
    reach: 'company',
    body: () => ({ terminationdate: '2030-01-01' }),
    id: (s) => s.shiftId,
  },
  { method: 'DELETE', path: '/api/shifts/:id/pending', reach: 'company', id: (s) => s.shiftId },
  {
    method: 'PUT',
    path: '/api/timecontext',
    reach: 'own',
    body: () => ({ offset_millis: 3_600_000, effectivedate: '2030-01-01' }),
  },
  { method: 'PUT', path: '/api/emailnotifications/sendemail', reach: 'own' },
  {
    method: 'POST',
    path: '/api/reports/event/queue',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, ...range(s), filterKeys: [] }),
  },
  // Queries.
  {
    method: 'GET',
    path: '/api/jobs',
    full: true,
    reach: 'machine',
    body: (s) => ({ limit: 10, offset: 0, filter: 'J', machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/jobmachines',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/setup/parts',
    full: true,
    reach: 'machine',
    body: (s) => ({ jsgId: s.jsgId, machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/downtime',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, start: s.T - 24 * HOUR, instances: true, pinToBounds: false }),
  },
  {
    method: 'GET',
    path: '/api/annotations',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, ...range(s) }),
  },
  {
    method: 'GET',
    path: '/api/annotationtypes',
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/partadjustment',
    reach: 'machine',
    body: (s) => ({ machine_id: s.machineId, ...range(s), scrap: true }),
  },
  {
    method: 'GET',
    path: '/api/partadjustment/rejects',
    reach: 'machine',
    body: (s) => ({ machine_id: s.machineId, ...range(s), page: 1 }),
  },
  {
    method: 'GET',
    path: '/api/partadjustment/allRejectsByCategory',
    reach: 'company',
    body: (s) => ({ ...range(s), category_id: s.rejectReasonId, groupByMachine: true }),
  },
  {
    method: 'GET',
    path: '/api/operatorruns',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, startAt: s.T - HOUR, endAt: s.T }),
  },
  { method: 'GET', path: '/api/workcenter/:id', reach: 'machine', id: (s) => s.machineId },
  {
    method: 'GET',
    path: '/api/dispatch/current',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId }),
  },
  { method: 'GET', path: '/api/company/flags', reach: 'own' },
  { method: 'GET', path: '/api/dashboard', reach: 'own', body: () => ({ group: crypto.randomUUID() }) },
  { method: 'GET', path: '/api/dashboard/utilization', reach: 'own' },
  { method: 'GET', path: '/api/dashboard/parts', full: true, reach: 'own' },
  { method: 'GET', path: '/api/dashboard/status', reach: 'own', body: () => ({ include: 'gateways' }) },
  {
    method: 'GET',
    path: '/api/reports/downtime',
    reach: 'machine',
    body: (s) => ({ ...range(s), machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/reports/cycles',
    reach: 'machine',
    body: (s) => ({ ...range(s), machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/reports/overrides',
    reach: 'machine',
    body: (s) => ({ ...range(s), machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/reports/partGoals',
    full: true,
    reach: 'machine',
    body: (s) => ({ ...range(s), machineId: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/reports/utilization',
    reach: 'machine',
    body: (s) => ({ ...range(s), machineId: s.machineId }),
  },
  // The OEE and utilization report calls (decision 0801).
  {
    method: 'POST',
    path: '/api/reports/warehouse/production',
    full: true,
    reach: 'machine',
    body: (s) => productionBody(s),
  },
  {
    method: 'GET',
    path: '/api/reports/warehouse/production/csv',
    full: true,
    reach: 'machine',
    body: (s) => ({ request: productionBody(s) }),
  },
  { method: 'POST', path: '/api/oee/bymachine', full: true, reach: 'machine', body: (s) => oeeByBody(s) },
  {
    method: 'POST',
    path: '/api/oee/byabstractshift',
    full: true,
    reach: 'machine',
    body: (s) => oeeByBody(s),
  },
  // The warehouse job calls (decision 0813).
  {
    method: 'GET',
    path: '/api/reports/warehouse/jobs',
    full: true,
    reach: 'machine',
    body: (s) => ({ ...range(s), job_id: s.jobId, machine_id: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/reports/warehouse/jobs/aggregatedbymachine',
    full: true,
    reach: 'company',
    body: (s) => ({ ...range(s), job_id: s.jobId }),
  },
  {
    method: 'GET',
    path: '/api/reports/warehouse/jobs/withoutruns',
    full: true,
    reach: 'machine',
    body: (s) => ({ ...range(s), machine_id: s.machineId }),
  },
  {
    method: 'GET',
    path: '/api/reports/oee',
    full: true,
    reach: 'machine',
    body: (s) => ({ ...range(s), interval: 'hour', machineId: s.machineId, shifts: s.shiftId }),
  },

  { method: 'GET', path: '/api/machines', reach: 'own' },
  { method: 'POST', path: '/api/machines', reach: 'own', body: machineBody },
  { method: 'GET', path: '/api/machines/:id', reach: 'machine', id: (s) => s.machineId },
  { method: 'PUT', path: '/api/machines/:id', reach: 'machine', body: machineBody, id: (s) => s.machineId },
  {
    method: 'PUT',
    path: '/api/machines/:id/decommission',
    reach: 'machine',
    body: () => ({ name: 'Not its name' }),
    id: (s) => s.machineId,
  },
  // A machine's notifications (reports-admin §3 Machine notification, decision 0900).
  { method: 'GET', path: '/api/machines/:id/notifications', reach: 'machine', id: (s) => s.machineId },
  {
    method: 'PUT',
    path: '/api/machines/:id/notifications',
    reach: 'machine',
    body: () => ({ notifications: [] }),
    id: (s) => s.machineId,
  },
  {
    method: 'PUT',
    path: '/api/machines/order',
    reach: 'machine',
    body: (s) => ({ machineIds: [s.machineId] }),
  },
  { method: 'POST', path: '/api/machines/:id/adapter/reset', reach: 'machine', id: (s) => s.machineId },
  { method: 'GET', path: '/api/machines/:id/adapter-status', reach: 'machine', id: (s) => s.machineId },
  { method: 'GET', path: '/api/machinegroups', reach: 'own' },
  { method: 'GET', path: '/api/machinegroups/:id', reach: 'company', id: (s) => s.groupId },
  { method: 'POST', path: '/api/machinegroups', reach: 'own', body: groupBody },
  {
    method: 'POST',
    path: '/api/machinegroups',
    full: true,
    reach: 'own',
    body: (s) => ({ ...groupBody(s), annotationTypes: [s.reasonId] }),
  },
  { method: 'PUT', path: '/api/machinegroups/:id', reach: 'company', body: groupBody, id: (s) => s.groupId },
  {
    method: 'PUT',
    path: '/api/machinegroups/:id',
    full: true,
    reach: 'company',
    body: (s) => ({ ...groupBody(s), annotationTypes: [s.reasonId] }),
    id: (s) => s.groupId,
  },
  { method: 'DELETE', path: '/api/machinegroups/:id', reach: 'company', id: (s) => s.groupId },
  // Users, invites and the profile (reports-admin §2 accounts; decision 0880).
  { method: 'GET', path: '/api/users', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/users/:id',
    reach: 'company',
    body: () => ({ displayName: 'Otto', role: 'manager' }),
    id: (s) => s.userId,
  },
  ...(['lock', 'unlock', 'revoke', 'reset-password'] as const).map((action): RouteCase => ({
    method: 'POST',
    path: `/api/users/:id/${action}`,
    reach: 'company',
    id: (s) => s.userId,
  })),
  { method: 'DELETE', path: '/api/users/:id', reach: 'company', id: (s) => s.userId },
  { method: 'GET', path: '/api/invites', reach: 'own' },
  {
    method: 'POST',
    path: '/api/invites',
    reach: 'own',
    body: () => ({ invitees: ['new.hand@shop.example'], role: 'operator' }),
  },
  { method: 'POST', path: '/api/invites/:id/resend', reach: 'company', id: (s) => s.inviteId },
  { method: 'DELETE', path: '/api/invites/:id', reach: 'company', id: (s) => s.inviteId },
  { method: 'GET', path: '/api/profile', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/profile/shift-notifications',
    reach: 'own',
    body: (s) => ({ notify: true, shifts: [s.shiftId] }),
  },
  { method: 'POST', path: '/api/profile/reset-password', reach: 'own' },
  // Report preferences (decisions 1115, 1116): the caller's own.
  { method: 'GET', path: '/api/me/preferences', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/me/preferences',
    reach: 'own',
    body: (s) => ({ utilizationHorizon: 'week', shifts: [s.shiftId] }),
  },
];
