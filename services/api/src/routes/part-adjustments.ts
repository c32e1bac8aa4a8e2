import { Hono } from 'hono';
import { z } from 'zod';
import {
  idSchema,
  partAdjustmentQuerySchema,
  rejectListQuerySchema,
  rejectsByCategoryQuerySchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { csvResponse } from '../http/csv';
import { requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { headed, invalid } from '../services/issues';
import {
  ADJUSTMENT_FAILED,
  addManualParts,
  createPartAdjustment,
  deletePartAdjustment,
  listPartAdjustments,
  REJECT_FAILED,
  rejectList,
  rejectListCsv,
  rejectsByCategory,
  rejectsByCategoryCsv,
  undoManualParts,
  updatePartAdjustment,
  manualPartsSchema,
  manualUndoSchema,
  partAdjustmentBodySchema,
} from '../services/part-adjustments';
import { requestCtx } from '../http/request-ctx';

export const partAdjustmentPatchSchema = partAdjustmentBodySchema
  .partial()
  .extend({ id: idSchema.optional() });
/** The reject list: limit 25 and offset = 25 × (page − 1), or a page number (live-operations §7). */
export const rejectListSchema = rejectListQuerySchema.extend({
  page: z.coerce.number().int().min(1, 'page must be 1 or more').optional(),
});

const full = requirePermission('FullProduct');

/** The failure heading follows what was being saved: a reject or a correction (live-operations §8). */
async function adjustmentBody<S extends z.ZodType>(c: Parameters<typeof jsonBody>[0], schema: S) {
  const raw: unknown = await c.req.json().catch(() => null);
  const isCorrection =
    typeof raw === 'object' && raw !== null && (raw as { scrap?: unknown }).scrap === false;
  return headed(isCorrection ? ADJUSTMENT_FAILED : REJECT_FAILED, () => jsonBody(c, schema));
}

/** /api/partadjustment: rejects, part corrections and parts added by hand. */
export const partAdjustmentRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const q = queryParams(c, partAdjustmentQuerySchema);
    return c.json(await listPartAdjustments(requestCtx(c, c.var.scope), q));
  })
  .get('/allRejectsByCategory', async (c) => {
    const q = queryParams(c, rejectsByCategoryQuerySchema);
    const result = await rejectsByCategory(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv') {
      return csvResponse(
        c,
        'rejects-by-category.csv',
        rejectsByCategoryCsv(result.rejects, q.groupByMachine === true),
      );
    }
    return c.json(result);
  })
  .get('/rejects', async (c) => {
    const { page, format, ...q } = queryParams(c, rejectListSchema);
    const ctx = requestCtx(c, c.var.scope);
    // format=csv: every reject of the filter, not one page (decision 0812).
    if (format === 'csv') return csvResponse(c, 'rejects.csv', await rejectListCsv(ctx, q));
    const offset = page !== undefined ? (page - 1) * q.limit : q.offset;
    return c.json(await rejectList(ctx, { ...q, offset }));
  })
  .post('/', full, async (c) => {
    const input = await adjustmentBody(c, partAdjustmentBodySchema);
    return c.json(await c.var.scope.transaction((s) => createPartAdjustment(requestCtx(c, s), input)), 201);
  })
  .post('/manual', full, async (c) => {
    const input = await headed(ADJUSTMENT_FAILED, () => jsonBody(c, manualPartsSchema));
    return c.json(await c.var.scope.transaction((s) => addManualParts(requestCtx(c, s), input)), 201);
  })
  .post('/manual/undo', full, async (c) => {
    const input = await headed(ADJUSTMENT_FAILED, () => jsonBody(c, manualUndoSchema));
    return c.json(await c.var.scope.transaction((s) => undoManualParts(requestCtx(c, s), input)));
  })
  .put('/:id', full, async (c) => {
    const id = c.req.param('id');
    const { id: bodyId, ...patch } = await adjustmentBody(c, partAdjustmentPatchSchema);
    if (bodyId !== undefined && bodyId !== id) {
      throw invalid(ADJUSTMENT_FAILED, [
        { field: 'id', code: 'mismatch', message: 'The id in the body does not match the path.' },
      ]);
    }
    return c.json(await c.var.scope.transaction((s) => updatePartAdjustment(requestCtx(c, s), id, patch)));
  })
  .delete('/:id', full, async (c) => {
    const id = c.req.param('id');
    return c.json(await c.var.scope.transaction((s) => deletePartAdjustment(requestCtx(c, s), id)));
  });
