import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { callerPermissions } from '../http/permissions';
import { workcenterWithoutFullProduct } from '../services/full-product';
import { workcenterLive } from '../services/workcenter';

/**
 * GET /api/workcenter/:machineId: live-operations §3 "Work center live data" for the workcenter card, with
 * `machineId`, `jobRunId`, `inSetup` and `workcenterType`. A caller without FullProduct gets the fields §6
 * gates blanked (services/full-product.ts). Another company's machine is 404.
 */
export const workcenterRoutes = new Hono<AppEnv>().get('/:machineId', async (c) => {
  const now = c.var.deps.now();
  const live = await workcenterLive(
    { scope: c.var.scope, at: now, now, caller: c.var.caller },
    c.req.param('machineId'),
  );
  const full = callerPermissions(c.var.caller, c.var.deps.demoMode).includes('FullProduct');
  return c.json(full ? live : workcenterWithoutFullProduct(live));
});
