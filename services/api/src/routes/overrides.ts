import { Hono } from 'hono';
import { overridesQuerySchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { queryParams } from '../http/validate';
import { overridesReport } from '../services/overrides';

/**
 * GET /api/reports/overrides?machineId&start&end (≤ 7 days) → range, until, series of { key, label, steps,
 * summary } (reports-admin §7; decision 0807). A machine report, gated like the other machine reports.
 */
export const overridesRoutes = new Hono<AppEnv>().get(
  '/overrides',
  requirePermission('PerformanceDashboard'),
  async (c) =>
    c.json(await overridesReport(c.var.scope, queryParams(c, overridesQuerySchema), c.var.deps.now())),
);
