import { Hono } from 'hono';
import { endSetupRequestSchema, setupPartsQuerySchema, stageTransitionRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { endSetup, SETUP_TEXTS, setupParts, transitionStage } from '../services/setup';
import { inTransaction } from './live-ctx';

/**
 * Setup (live-operations §7 Setup; part of Start/Stop Job, FullProduct); /api/setup/stages is setup-stages.ts.
 * GET  /api/setup/parts?jsgId&machineId            → `{ netCount }`
 * POST /api/setup/transition `{ laborActivitySetId, setupStageId }` → the labor activity set
 * POST /api/setup/end `{ jsgId, machineId, keptParts?, message? }` → `{ setupParts, keptParts,
 *   removedParts, adjustmentId, jobRun }`
 */
export const setupRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
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
