import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { workcenterLive } from '../services/workcenter';

/** GET /api/workcenter/:machineId: live-operations §3 "Work center live data" for the workcenter card. */
export const workcenterRoutes = new Hono<AppEnv>().get('/:machineId', async (c) => {
  const now = c.var.deps.now();
  return c.json(
    await workcenterLive(
      { scope: c.var.scope, at: now, now, caller: c.var.caller },
      c.req.param('machineId'),
    ),
  );
});
