import { Hono } from 'hono';
import { z } from 'zod';
import {
  endSetupRequestSchema,
  queryBool,
  setupPartsQuerySchema,
  setupStagesSaveRequestSchema,
  stageTransitionRequestSchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { requireAdmin, requirePermission } from '../http/permissions';
import { INT_COLUMN_MAX, jsonBody, queryParams } from '../http/validate';
import { endSetup, listStages, SETUP_TEXTS, setupParts, transitionStage } from '../services/setup';
import { saveSetupStages } from '../services/setup-stages';
import { inTransaction } from './live-ctx';

/**
 * Setup (live-operations §7 Setup; part of Start/Stop Job, FullProduct).
 * GET  /api/setup/stages[?includeArchived]         → setup stages in order
 * PUT  /api/setup/stages `{ setupStages: [{ id?, name, stageOrder, setupPercentage }] }` (admins) → the
 *   active stages after the save; percentages total exactly 100 (reports-admin §5)
 * GET  /api/setup/parts?jsgId&machineId            → `{ netCount }`
 * POST /api/setup/transition `{ laborActivitySetId, setupStageId }` → the labor activity set
 * POST /api/setup/end `{ jsgId, machineId, keptParts?, message? }` → `{ setupParts, keptParts,
 *   removedParts, adjustmentId, jobRun }`
 */
/** The domain's save body, with stage orders that fit the integer column on both dialects. */
const setupStagesBodySchema = setupStagesSaveRequestSchema.refine(
  (v) => v.setupStages.every((s) => s.stageOrder <= INT_COLUMN_MAX),
  { message: `Stage order must be at most ${INT_COLUMN_MAX}`, path: ['setupStages'] },
);

export const setupRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/stages', async (c) => {
    const { includeArchived } = queryParams(c, z.object({ includeArchived: queryBool.optional() }));
    const stages = await inTransaction(c, (ctx) =>
      listStages(ctx, { includeArchived: includeArchived ?? false }),
    );
    return c.json(stages);
  })
  .put('/stages', requireAdmin, async (c) => {
    const body = await jsonBody(c, setupStagesBodySchema);
    return c.json(await inTransaction(c, (ctx) => saveSetupStages(ctx, body.setupStages)));
  })
  .get('/parts', async (c) => {
    const q = queryParams(c, setupPartsQuerySchema);
    return c.json(await inTransaction(c, (ctx) => setupParts(ctx, q)));
  })
  .post('/transition', async (c) => {
    const body = await jsonBody(c, stageTransitionRequestSchema);
    return c.json(await inTransaction(c, (ctx) => transitionStage(ctx, body)));
  })
  .post('/end', async (c) => {
    const body = await jsonBody(c, endSetupRequestSchema).catch((e: unknown) => {
      // live-operations §8: a refused number of parts to keep asks the operator to re-submit it.
      if (e instanceof ApiError && e.issues?.some((i) => i.field === 'keptParts')) {
        throw new ApiError(400, e.code, SETUP_TEXTS.partRemovalFailed, e.issues);
      }
      throw e;
    });
    return c.json(await inTransaction(c, (ctx) => endSetup(ctx, body)));
  });
