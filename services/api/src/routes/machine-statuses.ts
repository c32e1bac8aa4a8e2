import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { callerPermissions } from '../http/permissions';
import { queryParams } from '../http/validate';
import { machineStatuses } from '../services/dashboard-statuses';
import { dashboardQuery } from './dashboard';

/**
 * GET /api/machines/statuses (reports-admin §7 "GET /api/machines … and statuses", polled every 5 s; decision
 * 1096): each of the caller's machines with its tile status, `group` as the dashboard's. Any logged-in user of
 * the company, as the dashboard. Mounted before the machine administration, whose `/:id` would take the path.
 */
export const machineStatusesRoutes = new Hono<AppEnv>().get('/statuses', async (c) => {
  const { group } = queryParams(c, dashboardQuery);
  const full = callerPermissions(c.var.caller, c.var.deps.demoMode).includes('FullProduct');
  return c.json(await machineStatuses(c.var.scope, group, c.var.deps.now(), full));
});
