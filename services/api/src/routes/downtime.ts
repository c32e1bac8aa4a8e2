import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { idSchema, queryBool, queryEpochMs, workcenterDowntimeQuerySchema } from '@takt/domain';
import type { CompanyScope } from '../db/scope';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import type { ServiceCtx } from '../services/context';
import { ANNOTATION_SAVE_FAILED, headed, listDowntime, splitDowntime } from '../services/downtime';

/** The service context of a request: facts happen now (the sync endpoint passes occurredAt instead). */
export function requestCtx(c: Context<AppEnv>, scope: CompanyScope): ServiceCtx {
  const now = c.var.deps.now();
  return { scope, at: now, now, caller: c.var.caller };
}

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
