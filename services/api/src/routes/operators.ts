import { Hono } from 'hono';
import { z } from 'zod';
import {
  operatorRunStartRequestSchema,
  operatorRunStopRequestSchema,
  epochMsSchema,
  idSchema,
  operatorRunsQuerySchema,
  queryBool,
  queryEpochMs,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin, requirePermission } from '../http/permissions';
import { jsonBody, optionalJsonBody, queryParams } from '../http/validate';
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
import { correctOperatorRun, endOperatorRunAt, listOperatorRuns } from '../services/operator-runs';
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

const startBeforeEnd = { message: 'Start Date must be before End Date', path: ['endAt'] };

/** The operator runs screen's list (decision 1091): a range, optionally one machine and one operator. */
export const runsListQuerySchema = z
  .strictObject({
    startAt: queryEpochMs,
    endAt: queryEpochMs,
    machineId: idSchema.optional(),
    operatorId: idSchema.optional(),
  })
  .refine((q) => q.startAt < q.endAt, startBeforeEnd);

/** A run's corrected start and end; end null keeps an open run open (decision 1091). */
export const runCorrectionSchema = z
  .strictObject({ startAt: epochMsSchema, endAt: epochMsSchema.nullable() })
  .refine((b) => b.endAt == null || b.startAt < b.endAt, startBeforeEnd);

/** End an open run at endAt, or now when left out. */
export const runEndSchema = z.strictObject({ endAt: epochMsSchema.optional() });

/**
 * Operator runs (live-operations §7; operator picker, FullProduct).
 * GET  /api/operatorruns?machineId&startAt&endAt → runs overlapping the range, with operator.name
 * POST /api/operatorruns/start `{ machineId, operatorId, pinToPreviousEvent }` → 201 the new run
 * POST /api/operatorruns/stop `{ machineId }` → the ended run
 * The operator runs screen (decision 1091):
 * GET  /api/operatorruns/list?startAt&endAt[&machineId][&operatorId] → runs overlapping the range, newest first
 * PUT  /api/operatorruns/:id `{ startAt, endAt }` (admins) → the corrected run
 * POST /api/operatorruns/:id/end `{ endAt? }` (admins) → the ended run
 */
export const operatorRunsRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const q = queryParams(c, runsQuerySchema);
    return c.json(await inTransaction(c, (ctx) => queryOperatorRuns(ctx, q)));
  })
  .get('/list', async (c) => {
    const q = queryParams(c, runsListQuerySchema);
    return c.json(await inTransaction(c, (ctx) => listOperatorRuns(ctx, q)));
  })
  .put('/:id', requireAdmin, async (c) => {
    const body = await jsonBody(c, runCorrectionSchema);
    return c.json(await inTransaction(c, (ctx) => correctOperatorRun(ctx, c.req.param('id'), body)));
  })
  .post('/:id/end', requireAdmin, async (c) => {
    const body = await optionalJsonBody(c, runEndSchema);
    return c.json(await inTransaction(c, (ctx) => endOperatorRunAt(ctx, c.req.param('id'), body)));
  })
  .post('/start', async (c) => {
    const body = await jsonBody(c, operatorRunStartRequestSchema);
    return c.json(await inTransaction(c, (ctx) => startOperatorRun(ctx, body)), 201);
  })
  .post('/stop', async (c) => {
    const body = await jsonBody(c, operatorRunStopRequestSchema);
    return c.json(await inTransaction(c, (ctx) => stopOperatorRun(ctx, body)));
  });
