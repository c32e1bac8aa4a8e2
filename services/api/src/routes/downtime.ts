import { Hono } from 'hono';
import { z } from 'zod';
import { idSchema, queryBool, queryEpochMs, workcenterDowntimeQuerySchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { requestCtx } from '../http/request-ctx';
import { ANNOTATION_SAVE_FAILED, splitDowntime } from '../services/annotations';
import { listDowntime } from '../services/downtime';
import { headed } from '../services/issues';

/**
 * live-operations §7 "Downtime in workcenter": the domain's query schema with `start` optional (24 hours
 * back by default), plus an optional `end` (the per-machine downtime page, /machine/{id}/downtime?start&end)
 * and the list's filter toggles (all shown by default).
 */
export const downtimeQuerySchema = workcenterDowntimeQuerySchema.extend({
  start: queryEpochMs.optional(),
  end: queryEpochMs.optional(),
  showShort: queryBool.optional(),
  showCategorized: queryBool.optional(),
  onlyUncategorized: queryBool.optional(),
  onlyLong: queryBool.optional(),
});

export const splitDowntimeRequestSchema = z.object({ machineId: idSchema });

/** GET /api/downtime, POST /api/downtime/split ("Split Downtime": a new period from now). */
export const downtimeRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const q = queryParams(c, downtimeQuerySchema);
    return c.json(await listDowntime(requestCtx(c, c.var.scope), q));
  })
  .post('/split', requirePermission('FullProduct'), async (c) => {
    const body = await headed(ANNOTATION_SAVE_FAILED, () => jsonBody(c, splitDowntimeRequestSchema));
    const result = await c.var.scope.transaction((scope) => splitDowntime(requestCtx(c, scope), body));
    return c.json(result);
  });
