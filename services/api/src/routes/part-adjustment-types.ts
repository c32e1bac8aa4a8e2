import { Hono } from 'hono';
import { z } from 'zod';
import { colorSchema, queryBool, reasonRejectBehaviorSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin, requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { headed } from '../services/issues';
import {
  createPartAdjustmentType,
  listPartAdjustmentTypes,
  REJECT_REASON_SAVE_FAILED,
  setPartAdjustmentTypeHidden,
  updatePartAdjustmentType,
} from '../services/part-adjustment-types';
import { requestCtx } from '../http/request-ctx';

export const partAdjustmentTypesQuerySchema = z.object({
  scrapOnly: queryBool.optional(),
  includeHidden: queryBool.optional(),
});
/** A reject reason as the admin form sends it (colour default #828282, scrap flag default on). */
export const partAdjustmentTypeBodySchema = z.object({
  name: z.string({ error: 'Missing required field: Name' }),
  color: colorSchema.optional(),
  scrap: z.boolean().optional(),
  reject_behavior: reasonRejectBehaviorSchema,
});
export const partAdjustmentTypePatchSchema = partAdjustmentTypeBodySchema.partial();

const full = requirePermission('FullProduct');
const body = <S extends z.ZodType>(c: Parameters<typeof jsonBody>[0], schema: S) =>
  headed(REJECT_REASON_SAVE_FAILED, () => jsonBody(c, schema));

/** /api/partadjustmenttypes: reject reasons; changes are for admins of FullProduct companies. */
export const partAdjustmentTypeRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const q = queryParams(c, partAdjustmentTypesQuerySchema);
    return c.json(await listPartAdjustmentTypes(requestCtx(c, c.var.scope), q));
  })
  .post('/', full, requireAdmin, async (c) => {
    const input = await body(c, partAdjustmentTypeBodySchema);
    return c.json(
      await c.var.scope.transaction((s) => createPartAdjustmentType(requestCtx(c, s), input)),
      201,
    );
  })
  .put('/:id', full, requireAdmin, async (c) => {
    const id = c.req.param('id');
    const patch = await body(c, partAdjustmentTypePatchSchema);
    return c.json(
      await c.var.scope.transaction((s) => updatePartAdjustmentType(requestCtx(c, s), id, patch)),
    );
  })
  .post('/:id/archive', full, requireAdmin, async (c) => {
    const id = c.req.param('id');
    return c.json(
      await c.var.scope.transaction((s) => setPartAdjustmentTypeHidden(requestCtx(c, s), id, true)),
    );
  })
  .post('/:id/restore', full, requireAdmin, async (c) => {
    const id = c.req.param('id');
    return c.json(
      await c.var.scope.transaction((s) => setPartAdjustmentTypeHidden(requestCtx(c, s), id, false)),
    );
  });
