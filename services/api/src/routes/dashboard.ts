import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context';
import { queryParams } from '../http/validate';
import { callerPermissions, requirePermission } from '../http/permissions';
import {
  dashboard,
  dashboardCycles,
  dashboardParts,
  dashboardStatus,
  dashboardUtilization,
} from '../services/dashboard';

export const dashboardQuery = z.object({ group: z.string().min(1).optional() });

export const statusQuery = z.object({
  /** One part only, so each can be polled at its own rate; both by default. */
  include: z.enum(['unmapped', 'gateways']).optional(),
});

/** live-operations §6: fields gated by FullProduct are blanked for a caller without it. */
const hasFullProduct = (c: Context<AppEnv>) =>
  callerPermissions(c.var.caller, c.var.deps.demoMode).includes('FullProduct');

/**
 * GET /api/dashboard: the caller's machines as live tiles (polled every 5 s by the apps).
 * GET /api/dashboard/utilization and /api/dashboard/parts (live-operations §7, polled every 15 s): arrays, one
 * entry per machine, in the machines' order. Each takes the optional `group` query.
 * GET /api/dashboard/status: unmapped keys (polled every 10 s) and gateway health (every 15 s), company wide.
 * GET /api/dashboard/cycles: last cycle against expected per machine, for the one configured company only.
 */
export const dashboardRoutes = new Hono<AppEnv>()
  // Shared between the callers of the same company and view while its live data stay the same (decision 1200).
  .get('/', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const { scope, deps } = c.var;
    const [now, full] = [deps.now(), hasFullProduct(c)];
    const compute = () => dashboard(scope, group, now, full, deps.heldSums);
    const text = deps.dashboardAnswers
      ? await deps.dashboardAnswers.json(scope, JSON.stringify([group ?? null, full]), now, compute)
      : JSON.stringify(await compute());
    return c.body(text, 200, { 'Content-Type': 'application/json' });
  })
  .get('/utilization', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    return c.json(await dashboardUtilization(c.var.scope, group, c.var.deps.now(), hasFullProduct(c)));
  })
  // live-operations §6: parts goal is FullProduct.
  .get('/parts', requirePermission('FullProduct'), async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    return c.json(await dashboardParts(c.var.scope, group, c.var.deps.now(), c.var.deps.heldSums));
  })
  .get('/status', async (c) => {
    const { include } = queryParams(c, statusQuery);
    const { now, cyclesDashboardCompany } = c.var.deps;
    return c.json(await dashboardStatus(c.var.scope, include, now(), cyclesDashboardCompany));
  })
  .get('/cycles', async (c) => {
    const { group } = queryParams(c, dashboardQuery);
    const { now, cyclesDashboardCompany } = c.var.deps;
    return c.json(await dashboardCycles(c.var.scope, group, now(), cyclesDashboardCompany));
  });
