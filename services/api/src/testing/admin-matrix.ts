import type { ApiKeyScope, ProductTier } from '@takt/domain';
import type { Method, Shop } from './route-table';
import { distinctMachineBodies } from './route-table';

// The administration routes (reports-admin §2 "Administration screens", the account screens and the API keys
// screen) with who may call each, written from reports-admin §6 and the decisions that fill it in, so a test
// can derive the expected status of every caller on every product tier instead of copying what a route does.

/**
 * Who a route is for, inside the caller's company:
 * - `anyone`: every caller of the company, tablets included (reference data the floor and reports read);
 * - `users`: people signed in with a session, each for their own account (profile, e-mail preferences;
 *   decision 0880, 0904): a tablet or an API key has no account of its own;
 * - `admin`: role admin or root (isAdmin, reports-admin §6; decisions 0831, 0840, 0861, 0880, 0890);
 * - `inviteUsers`: the InviteUsers permission (§6: root users, or admins not in demo mode).
 */
export type Audience = 'anyone' | 'users' | 'admin' | 'inviteUsers';

/**
 * What the route names: `company` a record of the caller's company (another company's caller gets 404:
 * ARCHITECTURE.md "Tenancy"), `own` nothing of the shop (the caller's own company or account).
 */
export type MatrixReach = 'company' | 'own';

export interface MatrixShop extends Shop {
  companyName: string;
  /** An API key of the company that no caller uses (the API keys screen edits and deletes it). */
  apiKeyId: string;
  /** A registered tablet of the company that no caller uses (the Tablets screen acts on it). */
  tabletTargetId: string;
}

export interface MatrixRoute {
  method: Method;
  /** `:id` stands for the record `id` picks from the shop. */
  path: string;
  id?: (s: MatrixShop) => string;
  /** JSON body, or for GET the query parameters. */
  body?: (s: MatrixShop) => Record<string, unknown>;
  audience: Audience;
  reach: MatrixReach;
  /** reports-admin §6: needs FullProduct (the full tier). */
  full?: true;
  /** The API key scope that opens the route to a key (decision 0840); none: closed to every key. */
  scope?: ApiKeyScope;
  /**
   * The status of an allowed call (200 unless said): the route's own answer with this shop's data, e.g. 201 for
   * a create, 409 for a refresh no tablet socket hears.
   */
  ok?: number;
  /**
   * The status another company's admin gets for a `company` route (404 unless said): a route that takes the
   * shop's ids in its body refuses them as it refuses any unknown id.
   */
  foreign?: number;
}

export const CALLERS = [
  'admin',
  'manager',
  'operator',
  'kiosk',
  'tablet',
  'keyWithScope',
  'keyWithoutScope',
  'otherCompanyAdmin',
] as const;
export type CallerName = (typeof CALLERS)[number];

/**
 * The status reports-admin §6 and the decisions give `caller` on `route` in a company of `tier`. The other
 * company's admin is an admin of a full-tier company.
 */
export function expectedStatus(route: MatrixRoute, caller: CallerName, tier: ProductTier): number {
  const ok = route.ok ?? 200;
  if (caller === 'otherCompanyAdmin') return route.reach === 'company' ? (route.foreign ?? 404) : ok;
  // Keys: an allow-list by scope, checked before any route runs (decision 0840); a key acts as a manager.
  if (caller === 'keyWithoutScope') return 403;
  if (caller === 'keyWithScope' && !route.scope) return 403;
  if (route.full && tier !== 'full') return 403;
  const role = caller === 'keyWithScope' ? 'key' : caller;
  switch (route.audience) {
    case 'anyone':
      return ok;
    case 'users':
      return role === 'tablet' || role === 'key' ? 403 : ok;
    case 'admin':
    case 'inviteUsers':
      // The test runs outside demo mode, so InviteUsers is every admin's (§6).
      return role === 'admin' ? ok : 403;
  }
}

const groupBody = (s: MatrixShop) => ({ name: 'Cell', erpGroupId: 'E-1', machines: [s.machineId] });
const machineBody = distinctMachineBodies(8);
/** The calendar day `days` after `at` (the test plant's clock is far from midnight in its zone). */
const dayAfter = (at: number, days: number) => new Date(at + days * 86_400_000).toISOString().slice(0, 10);
const shiftTimes = { startoffsetminutes: 300, endoffsetminutes: 780, byweekday: [0, 1, 2] };

/**
 * Every administration route, in an order that keeps the shop usable: within a resource, changes before the
 * archive, restore and delete that end them.
 */
export const ADMIN_ROUTES: MatrixRoute[] = [
  // Users (reports-admin §2 Users; decision 0880). The target is an operator no caller uses.
  { method: 'GET', path: '/api/users', audience: 'admin', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/users/:id',
    id: (s) => s.userId,
    body: () => ({ displayName: 'Otto', role: 'operator' }),
    audience: 'admin',
    reach: 'company',
  },
  ...(['lock', 'unlock', 'revoke', 'reset-password'] as const).map((action): MatrixRoute => ({
    method: 'POST',
    path: `/api/users/:id/${action}`,
    id: (s) => s.userId,
    audience: 'admin',
    reach: 'company',
  })),
  {
    method: 'DELETE',
    path: '/api/users/:id',
    id: (s) => s.userId,
    audience: 'admin',
    reach: 'company',
    ok: 204,
  },

  // Invites (§2 Invites; §6 InviteUsers gates the invites screen).
  { method: 'GET', path: '/api/invites', audience: 'inviteUsers', reach: 'own' },
  {
    method: 'POST',
    path: '/api/invites',
    body: () => ({ invitees: [`new-${crypto.randomUUID().slice(0, 8)}@shop.example`], role: 'operator' }),
    audience: 'inviteUsers',
    reach: 'own',
    ok: 201,
  },
  {
    method: 'POST',
    path: '/api/invites/:id/resend',
    id: (s) => s.inviteId,
    audience: 'inviteUsers',
    reach: 'company',
  },
  {
    method: 'DELETE',
    path: '/api/invites/:id',
    id: (s) => s.inviteId,
    audience: 'inviteUsers',
    reach: 'company',
    ok: 204,
  },

  // API keys (§2 API keys; decision 0840: admins, never a key).
  { method: 'GET', path: '/api/apikeys', audience: 'admin', reach: 'own' },
  {
    method: 'POST',
    path: '/api/apikeys',
    body: () => ({ name: 'ERP', scopes: ['reports:read'] }),
    audience: 'admin',
    reach: 'own',
    ok: 201,
  },
  {
    method: 'PUT',
    path: '/api/apikeys/:id',
    id: (s) => s.apiKeyId,
    body: () => ({ name: 'BI' }),
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'DELETE',
    path: '/api/apikeys/:id',
    id: (s) => s.apiKeyId,
    audience: 'admin',
    reach: 'company',
    ok: 204,
  },

  // Profile and e-mail preferences: each user's own (§2 Profile, E-mail notification preferences).
  { method: 'GET', path: '/api/profile', audience: 'users', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/profile/shift-notifications',
    body: () => ({ notify: true, shifts: [] }),
    audience: 'users',
    reach: 'own',
  },
  { method: 'POST', path: '/api/profile/revoke-sessions', audience: 'users', reach: 'own' },
  { method: 'POST', path: '/api/profile/reset-password', audience: 'users', reach: 'own' },
  { method: 'GET', path: '/api/emailnotifications', audience: 'users', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/emailnotifications',
    body: () => ({
      receiveDowntimeEmail: true,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: false,
    }),
    audience: 'users',
    reach: 'own',
  },
  { method: 'PUT', path: '/api/emailnotifications/sendemail', audience: 'users', reach: 'own' },

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
    body: () => ({ name: 'Late', ...shiftTimes }),
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
    body: (s) => ({ name: 'Early', ...shiftTimes, effectivedate: dayAfter(s.T, 2) }),
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

/** The mounts whose every route is an administration route of the table above (a new route must join it). */
export const ADMIN_PREFIXES = [
  '/api/users',
  '/api/invites',
  '/api/apikeys',
  '/api/profile',
  '/api/emailnotifications',
  '/api/machinegroups',
  '/api/annotationtypes',
  '/api/partadjustmenttypes',
  '/api/company/settings',
  '/api/setup/stages',
  '/api/shifts',
  '/api/timecontext',
  '/api/operators',
  '/api/tablets',
] as const;
