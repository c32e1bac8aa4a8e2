import { Hono } from 'hono';
import { z } from 'zod';
import {
  operatorRunStartRequestSchema,
  operatorRunStopRequestSchema,
  operatorRunsQuerySchema,
  queryBool,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin, requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import {
  archiveOperator,
  createOperator,
  deleteOperator,
  listOperators,
  queryOperatorRuns,
  restoreOperator,
  startOperatorRun,
  stopOperatorRun,
  updateOperator,
} from '../services/operators';
import { inTransaction } from './live-ctx';

// Two resources, one file (decision 0114): operators (/api/operators) and their runs (/api/operatorruns);
// both are services/operators.ts and repositories/operators.ts.

const name = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'At most 250 characters');
const erpId = z.string().max(250, 'At most 250 characters').nullable().optional();

export const operatorsQuerySchema = z.object({ includeArchived: queryBool.optional() });
export const operatorCreateSchema = z.object({ name, erpId });
export const operatorUpdateSchema = z.object({ name: name.optional(), erpId });

/**
 * Operators (the operator picker needs FullProduct, live-operations §6; changes are for admins).
 * GET /api/operators[?includeArchived] → operators with runCount, by name (empty list: the UI shows
 *   "No Operators configured.")
 * POST /api/operators `{ name, erpId? }` → 201; PUT /api/operators/:id `{ name?, erpId? }`;
 * PUT /api/operators/:id/archive and /restore; DELETE /api/operators/:id → 204 (409 when it has runs).
 */
export const operatorsRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const { includeArchived } = queryParams(c, operatorsQuerySchema);
    return c.json(
      await inTransaction(c, (ctx) => listOperators(ctx, { includeArchived: includeArchived ?? false })),
    );
  })
  .post('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, operatorCreateSchema);
    return c.json(await inTransaction(c, (ctx) => createOperator(ctx, body)), 201);
  })
  .put('/:id', requireAdmin, async (c) => {
    const body = await jsonBody(c, operatorUpdateSchema);
    return c.json(await inTransaction(c, (ctx) => updateOperator(ctx, c.req.param('id'), body)));
  })
  .put('/:id/archive', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => archiveOperator(ctx, c.req.param('id')))),
  )
  .put('/:id/restore', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => restoreOperator(ctx, c.req.param('id')))),
  )
  .delete('/:id', requireAdmin, async (c) => {
    await inTransaction(c, (ctx) => deleteOperator(ctx, c.req.param('id')));
    return c.body(null, 204);
  });

export const runsQuerySchema = operatorRunsQuerySchema.refine((q) => q.startAt < q.endAt, {
  message: 'Start Date must be before End Date',
  path: ['endAt'],
});

/**
 * Operator runs (live-operations §7; operator picker, FullProduct).
 * GET  /api/operatorruns?machineId&startAt&endAt → runs overlapping the range, with operator.name
 * POST /api/operatorruns/start `{ machineId, operatorId, pinToPreviousEvent }` → 201 the new run
 * POST /api/operatorruns/stop `{ machineId }` → the ended run
 */
export const operatorRunsRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const q = queryParams(c, runsQuerySchema);
    return c.json(await inTransaction(c, (ctx) => queryOperatorRuns(ctx, q)));
  })
  .post('/start', async (c) => {
    const body = await jsonBody(c, operatorRunStartRequestSchema);
    return c.json(await inTransaction(c, (ctx) => startOperatorRun(ctx, body)), 201);
  })
  .post('/stop', async (c) => {
    const body = await jsonBody(c, operatorRunStopRequestSchema);
    return c.json(await inTransaction(c, (ctx) => stopOperatorRun(ctx, body)));
  });
