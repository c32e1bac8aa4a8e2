import { Hono } from 'hono';
import { z } from 'zod';
import { epochMsSchema, idSchema, queryEpochMs } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import {
  ANNOTATION_SAVE_FAILED,
  createAnnotations,
  listMachineAnnotations,
  mergeAnnotation,
  resetAnnotation,
  saveAnnotation,
  setAnnotationRange,
  splitAnnotation,
  updateAnnotation,
  annotationBodySchema,
  annotationSaveSchema,
} from '../services/annotations';
import { headed, invalid } from '../services/issues';
import { requestCtx } from '../http/request-ctx';

export const annotationBulkSchema = z.object({
  annotations: z.array(annotationBodySchema).min(1, 'Select at least one downtime period.'),
});
export const annotationPatchSchema = annotationBodySchema.partial().extend({ id: idSchema.optional() });
/** setRange with an optional window [start, end]; without it the window spans the annotations sent. */
export const annotationRangeSchema = z.object({
  annotations: z.array(annotationBodySchema),
  start: epochMsSchema.optional(),
  end: epochMsSchema.optional(),
});
/**
 * The timeline's annotation list (the Annotation grid under the operation timeline): start before end, like
 * every range of live-operations §5; at most one day ("timeline list 1 day", decision 0705) is checked on the
 * company's wall clock in the service.
 */
export const annotationQuerySchema = z
  .object({
    machineId: idSchema,
    start: queryEpochMs,
    end: queryEpochMs,
  })
  .refine((q) => q.start < q.end, { message: 'Start Date must be before End Date', path: ['end'] });

const body = <S extends z.ZodType>(c: Parameters<typeof jsonBody>[0], schema: S) =>
  headed(ANNOTATION_SAVE_FAILED, () => jsonBody(c, schema));

const full = requirePermission('FullProduct');

/**
 * /api/annotations: the annotation query; categorize, split, merge and reset downtime (FullProduct, live-operations §6).
 * GET /api/annotations?machineId&start&end → Annotation[] overlapping the range; 400 when start is not before
 *   end ("Start Date must be before End Date") or the range is over one day on the company's wall clock
 *   ("Select up to 1 day"); 404 for another company's machine.
 */
export const annotationRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const q = queryParams(c, annotationQuerySchema);
    return c.json(await listMachineAnnotations(requestCtx(c, c.var.scope), q));
  })
  .post('/', full, async (c) => {
    const input = await body(c, annotationSaveSchema);
    const saved = await c.var.scope.transaction((scope) => saveAnnotation(requestCtx(c, scope), input));
    return c.json(saved, input.id ? 200 : 201);
  })
  .post('/bulk', full, async (c) => {
    const input = await body(c, annotationBulkSchema);
    return c.json(
      await c.var.scope.transaction((scope) => createAnnotations(requestCtx(c, scope), input)),
      201,
    );
  })
  .post('/setRange', full, async (c) => {
    const input = await body(c, annotationRangeSchema);
    return c.json(await c.var.scope.transaction((scope) => setAnnotationRange(requestCtx(c, scope), input)));
  })
  .put('/:id', full, async (c) => {
    const id = c.req.param('id');
    const patch = await body(c, annotationPatchSchema);
    if (patch.id !== undefined && patch.id !== id) {
      throw invalid(ANNOTATION_SAVE_FAILED, [
        { field: 'id', code: 'mismatch', message: 'The id in the body does not match the path.' },
      ]);
    }
    return c.json(
      await c.var.scope.transaction((scope) => updateAnnotation(requestCtx(c, scope), id, patch)),
    );
  })
  .post('/:id/split', full, async (c) => {
    const id = c.req.param('id');
    return c.json(await c.var.scope.transaction((scope) => splitAnnotation(requestCtx(c, scope), id)));
  })
  .post('/:id/merge', full, async (c) => {
    const id = c.req.param('id');
    return c.json(await c.var.scope.transaction((scope) => mergeAnnotation(requestCtx(c, scope), id)));
  })
  .delete('/:id', full, async (c) => {
    const id = c.req.param('id');
    return c.json(await c.var.scope.transaction((scope) => resetAnnotation(requestCtx(c, scope), id)));
  });
