import { Hono } from 'hono';
import { z } from 'zod';
import { colorSchema, idSchema, plannedBehaviorSchema, queryBool } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin, requirePermission } from '../http/permissions';
import { durationMsField, jsonBody, queryParams } from '../http/validate';
import {
  createAnnotationType,
  listAnnotationTypes,
  REASON_SAVE_FAILED,
  setAnnotationTypeHidden,
  updateAnnotationType,
} from '../services/annotation-types';
import { headed } from '../services/issues';
import { requestCtx } from '../http/request-ctx';

export const annotationTypesQuerySchema = z.object({
  machineId: idSchema.optional(),
  includeHidden: queryBool.optional(),
});
/** A downtime reason as the admin form sends it; plannedLimitMs (ms) defaults to 5 minutes for plannedWithLimit. */
export const annotationTypeBodySchema = z.object({
  name: z.string({ error: 'Missing required field: Name' }),
  plannedBehavior: plannedBehaviorSchema,
  plannedLimitMs: durationMsField('Planned limit').nullish(),
  color: colorSchema.optional(),
});
export const annotationTypePatchSchema = annotationTypeBodySchema.partial();

const full = requirePermission('FullProduct');

/** /api/annotationtypes: downtime reasons; changes are for admins of FullProduct companies (live-operations §6). */
export const annotationTypeRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const q = queryParams(c, annotationTypesQuerySchema);
    return c.json(await listAnnotationTypes(requestCtx(c, c.var.scope), q));
  })
  .post('/', full, requireAdmin, async (c) => {
    const input = await headed(REASON_SAVE_FAILED, () => jsonBody(c, annotationTypeBodySchema));
    return c.json(await c.var.scope.transaction((s) => createAnnotationType(requestCtx(c, s), input)), 201);
  })
  .put('/:id', full, requireAdmin, async (c) => {
    const id = c.req.param('id');
    const patch = await headed(REASON_SAVE_FAILED, () => jsonBody(c, annotationTypePatchSchema));
    return c.json(await c.var.scope.transaction((s) => updateAnnotationType(requestCtx(c, s), id, patch)));
  })
  .post('/:id/archive', full, requireAdmin, async (c) => {
    const id = c.req.param('id');
    return c.json(await c.var.scope.transaction((s) => setAnnotationTypeHidden(requestCtx(c, s), id, true)));
  })
  .post('/:id/restore', full, requireAdmin, async (c) => {
    const id = c.req.param('id');
    return c.json(await c.var.scope.transaction((s) => setAnnotationTypeHidden(requestCtx(c, s), id, false)));
  });
