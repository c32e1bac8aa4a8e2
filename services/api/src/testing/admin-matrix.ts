import type { ApiKeyScope, ProductTier } from '@takt/domain';
import { ACCOUNT_ROUTES } from './admin-matrix-accounts';
import { PLANT_ROUTES } from './admin-matrix-plant';
import type { Method, Shop } from './route-table';

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

/**
 * Every administration route, in an order that keeps the shop usable: within a resource, changes before the
 * archive, restore and delete that end them. By screen group: admin-matrix-accounts.ts, admin-matrix-plant.ts.
 */
export const ADMIN_ROUTES: MatrixRoute[] = [...ACCOUNT_ROUTES, ...PLANT_ROUTES];

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
