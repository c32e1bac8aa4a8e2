import type { MatrixRoute, MatrixShop } from './admin-matrix';
import { distinctMachineBodies } from './route-table';

// The plant routes of the administration matrix (admin-matrix.ts): machines and their notifications, machine
// groups, reasons, settings, setup stages, shifts, start of day, operators and tablets (reports-admin §2
// "Administration screens").

const groupBody = (s: MatrixShop) => ({ name: 'Cell', erpGroupId: 'E-1', machines: [s.machineId] });
const machineBody = distinctMachineBodies(8);
/** The calendar day `days` after `at` (the test plant's clock is far from midnight in its zone). */
const dayAfter = (at: number, days: number) => new Date(at + days * 86_400_000).toISOString().slice(0, 10);
const shiftTimes = { startoffsetminutes: 300, endoffsetminutes: 780, byweekday: [0, 1, 2] };

export const PLANT_ROUTES: MatrixRoute[] = [
  // Machines admin (§2 Machines admin; decision 0861) and a machine's notifications (decision 0900).
  { method: 'GET', path: '/api/machines', audience: 'admin', reach: 'own' },
  // Before any machine is added: the order lists every machine in service (§2 reorder by drag).
  {
    method: 'PUT',
    path: '/api/machines/order',
    body: (s) => ({ machineIds: [s.machineId] }),
    audience: 'admin',
    reach: 'company',
  },
  { method: 'POST', path: '/api/machines', body: machineBody, audience: 'admin', reach: 'own', ok: 201 },
  { method: 'GET', path: '/api/machines/:id', id: (s) => s.machineId, audience: 'admin', reach: 'company' },
  {
    method: 'PUT',
    path: '/api/machines/:id',
    id: (s) => s.machineId,
    body: machineBody,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'PUT',
    path: '/api/machines/:id/decommission',
    id: (s) => s.machineId,
    // §5 "Decommission prompt must match machine name": a wrong name is refused, so the shop keeps its machine.
    body: () => ({ name: 'Not its name' }),
    audience: 'admin',
    reach: 'company',
    ok: 400,
  },
  {
    method: 'POST',
    path: '/api/machines/:id/adapter/reset',
    id: (s) => s.machineId,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'GET',
    path: '/api/machines/:id/adapter-status',
    id: (s) => s.machineId,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'GET',
    path: '/api/machines/:id/notifications',
    id: (s) => s.machineId,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'PUT',
    path: '/api/machines/:id/notifications',
    id: (s) => s.machineId,
    body: () => ({ notifications: [] }),
    audience: 'admin',
    reach: 'company',
  },
  // The test screen for simulated execution (decision 1100): admins only (its actions: simulation.test.ts).
  {
    method: 'GET',
    path: '/api/machines/:id/simulation',
    id: (s) => s.machineId,
    audience: 'admin',
    reach: 'company',
  },

  // Machine groups (§2: downtime reasons in groups are FullProduct; reports filter by group, so anyone reads,
  // a reports:read key too: decision 1047).
  { method: 'GET', path: '/api/machinegroups', audience: 'anyone', reach: 'own', scope: 'reports:read' },
  {
    method: 'GET',
    path: '/api/machinegroups/:id',
    id: (s) => s.groupId,
    audience: 'anyone',
    reach: 'company',
    scope: 'reports:read',
  },
  // The body names the shop's machine (and reasons): another company's admin is refused them (400, §5 list).
  {
    method: 'POST',
    path: '/api/machinegroups',
    body: groupBody,
    audience: 'admin',
    reach: 'company',
    ok: 201,
    foreign: 400,
  },
  {
    method: 'POST',
    path: '/api/machinegroups',
    body: (s) => ({ ...groupBody(s), annotationTypes: [s.reasonId] }),
    audience: 'admin',
    reach: 'company',
    full: true,
    ok: 201,
    foreign: 400,
  },
  {
    method: 'PUT',
    path: '/api/machinegroups/:id',
    id: (s) => s.groupId,
    body: groupBody,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'PUT',
    path: '/api/machinegroups/:id',
    id: (s) => s.groupId,
    body: (s) => ({ ...groupBody(s), annotationTypes: [s.reasonId] }),
    audience: 'admin',
    reach: 'company',
    full: true,
  },
  {
    method: 'DELETE',
    path: '/api/machinegroups/:id',
    id: (s) => s.groupId,
    audience: 'admin',
    reach: 'company',
    ok: 204,
  },

  // Annotation types and part adjustment types (§2, §6 FullProduct). The lists are the reason names every
  // report and the floor app read, and an integration's operations:write key needs them (decision 0840).
  {
    method: 'GET',
    path: '/api/annotationtypes',
    audience: 'anyone',
    reach: 'own',
    scope: 'operations:write',
  },
  {
    method: 'POST',
    path: '/api/annotationtypes',
    body: () => ({
      name: 'Coolant',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 300_000,
      color: '#828282',
    }),
    audience: 'admin',
    reach: 'own',
    full: true,
    ok: 201,
  },
  {
    method: 'PUT',
    path: '/api/annotationtypes/:id',
    id: (s) => s.reasonId,
    body: () => ({ name: 'Coolant low' }),
    audience: 'admin',
    reach: 'company',
    full: true,
  },
  ...(['archive', 'restore'] as const).map((action): MatrixRoute => ({
    method: 'POST',
    path: `/api/annotationtypes/:id/${action}`,
    id: (s) => s.reasonId,
    audience: 'admin',
    reach: 'company',
    full: true,
  })),
  {
    method: 'GET',
    path: '/api/partadjustmenttypes',
    audience: 'anyone',
    reach: 'own',
    scope: 'operations:write',
  },
  {
    method: 'POST',
    path: '/api/partadjustmenttypes',
    body: () => ({ name: 'Burr', color: '#828282', scrap: true, reject_behavior: 'operator' }),
    audience: 'admin',
    reach: 'own',
    full: true,
    ok: 201,
  },
  {
    method: 'PUT',
    path: '/api/partadjustmenttypes/:id',
    id: (s) => s.rejectReasonId,
    body: () => ({ name: 'Burr 2' }),
    audience: 'admin',
    reach: 'company',
    full: true,
  },
  ...(['archive', 'restore'] as const).map((action): MatrixRoute => ({
    method: 'POST',
    path: `/api/partadjustmenttypes/:id/${action}`,
    id: (s) => s.rejectReasonId,
    audience: 'admin',
    reach: 'company',
    full: true,
  })),

  // Settings (§2 Settings: region list; enabling setup stages needs the company name and FullProduct).
  { method: 'GET', path: '/api/company/settings', audience: 'admin', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/company/settings',
    body: () => ({ locale: 'en-GB' }),
    audience: 'admin',
    reach: 'own',
  },
  {
    method: 'PUT',
    path: '/api/company/settings',
    // §5 "Enabling setup stages requires typing the company name": another company's admin types this one's.
    body: (s) => ({ enable_setup_stages: true, companyName: s.companyName }),
    audience: 'admin',
    reach: 'company',
    full: true,
    foreign: 400,
  },

  // Setup stages (§2, §6 FullProduct; the floor's setup flow reads them).
  { method: 'GET', path: '/api/setup/stages', audience: 'anyone', reach: 'own', full: true },
  {
    method: 'PUT',
    path: '/api/setup/stages',
    body: (s) => ({ setupStages: [{ id: s.stageId, name: 'Fixture', stageOrder: 0, setupPercentage: 100 }] }),
    audience: 'admin',
    reach: 'company',
    full: true,
    foreign: 400,
  },

  // Shifts (§2 Shifts; the reports read them, and so does a reports:read key).
  { method: 'GET', path: '/api/shifts', audience: 'anyone', reach: 'own', scope: 'reports:read' },
  { method: 'GET', path: '/api/shifts/current', audience: 'anyone', reach: 'own', scope: 'reports:read' },
  { method: 'GET', path: '/api/shifts/color', audience: 'anyone', reach: 'own', scope: 'reports:read' },
  { method: 'GET', path: '/api/shifts/defaults', audience: 'anyone', reach: 'own', scope: 'reports:read' },
  {
    method: 'POST',
    path: '/api/shifts',
    // Shifts here overlap the shop's Day shift, kept on purpose (decision 1050): the overlap rule has its own
    // tests.
    body: () => ({ name: 'Late', ...shiftTimes, allowOverlap: true }),
    audience: 'admin',
    reach: 'own',
    ok: 201,
  },
  // §4 Shift: an edit is a pending version effective from tomorrow to 1 month ahead; its pending change can
  // be deleted; a termination can be undone.
  {
    method: 'PUT',
    path: '/api/shifts/:id',
    id: (s) => s.shiftId,
    body: (s) => ({ name: 'Early', ...shiftTimes, effectivedate: dayAfter(s.T, 2), allowOverlap: true }),
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'DELETE',
    path: '/api/shifts/:id/pending',
    id: (s) => s.shiftId,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'PUT',
    path: '/api/shifts/:id/terminate',
    id: (s) => s.shiftId,
    body: (s) => ({ terminationdate: dayAfter(s.T, 2) }),
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'PUT',
    path: '/api/shifts/:id/restore',
    id: (s) => s.shiftId,
    audience: 'admin',
    reach: 'company',
  },

  // Start of day (§2 "Start-of-day (time context) change"; every report reads it).
  { method: 'GET', path: '/api/timecontext', audience: 'anyone', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/timecontext',
    body: (s) => ({ offset_millis: 3_600_000, effectivedate: dayAfter(s.T, 2) }),
    audience: 'admin',
    reach: 'own',
  },
  { method: 'DELETE', path: '/api/timecontext', audience: 'admin', reach: 'own' },

  // Operators (§2 Operators; live-operations §6: the operator picker is FullProduct, so the whole resource is).
  {
    method: 'GET',
    path: '/api/operators',
    audience: 'anyone',
    reach: 'own',
    full: true,
    scope: 'operations:write',
  },
  {
    method: 'POST',
    path: '/api/operators',
    body: () => ({ name: 'Ann', erpId: 'E1' }),
    audience: 'admin',
    reach: 'own',
    full: true,
    ok: 201,
  },
  {
    method: 'PUT',
    path: '/api/operators/:id',
    id: (s) => s.operatorId,
    body: () => ({ name: 'Ann B.' }),
    audience: 'admin',
    reach: 'company',
    full: true,
  },
  ...(['archive', 'restore'] as const).map((action): MatrixRoute => ({
    method: 'PUT',
    path: `/api/operators/:id/${action}`,
    id: (s) => s.operatorId,
    audience: 'admin',
    reach: 'company',
    full: true,
  })),
  {
    method: 'DELETE',
    path: '/api/operators/:id',
    id: (s) => s.operatorId,
    audience: 'admin',
    reach: 'company',
    full: true,
    ok: 204,
  },

  // Tablets (§2, §4 tablet actions; decision 0890: every admin, no tier). The target is not the calling tablet.
  { method: 'GET', path: '/api/tablets', audience: 'admin', reach: 'own' },
  {
    method: 'GET',
    path: '/api/tablets/:id',
    id: (s) => s.tabletTargetId,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'PUT',
    path: '/api/tablets/:id',
    id: (s) => s.tabletTargetId,
    body: () => ({ remote_identifier: 'Lathe tablet' }),
    audience: 'admin',
    reach: 'company',
  },
  // No socket hears these in a test: §8 "Unable to refresh tablet …" (409, decision 0500).
  {
    method: 'POST',
    path: '/api/tablets/:id/refresh',
    id: (s) => s.tabletTargetId,
    audience: 'admin',
    reach: 'company',
    ok: 409,
  },
  {
    method: 'POST',
    path: '/api/tablets/:id/restart',
    id: (s) => s.tabletTargetId,
    audience: 'admin',
    reach: 'company',
    ok: 409,
  },
  { method: 'POST', path: '/api/tablets/refresh-all', audience: 'admin', reach: 'own' },
  // No tablet shows this code: the admin is told so (404), everyone else is refused first.
  {
    method: 'POST',
    path: '/api/tablets/associate',
    body: () => ({ code: 'ZZZ999' }),
    audience: 'admin',
    reach: 'own',
    ok: 404,
  },
  {
    method: 'POST',
    path: '/api/tablets/:id/revoke',
    id: (s) => s.tabletTargetId,
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'DELETE',
    path: '/api/tablets/:id',
    id: (s) => s.tabletTargetId,
    audience: 'admin',
    reach: 'company',
    ok: 204,
  },
  { method: 'POST', path: '/api/tablets/purge', audience: 'admin', reach: 'own' },
];
