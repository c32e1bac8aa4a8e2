import { Hono } from 'hono';
import { z } from 'zod';
import { queryBool, setupStagesSaveRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin, requirePermission } from '../http/permissions';
import { INT_COLUMN_MAX, jsonBody, queryParams } from '../http/validate';
import { listStages, saveSetupStages } from '../services/setup-stages';
import { inTransaction } from './live-ctx';

/**
 * Setup stages (live-operations §7 Setup; reports-admin §2, §5, §7 setup stages; FullProduct).
 * GET  /api/setup/stages[?includeArchived]         → setup stages in order
 * PUT  /api/setup/stages `{ setupStages: [{ id?, name, stageOrder, setupPercentage }] }` (admins) → the
 *   active stages after the save; percentages total exactly 100 (reports-admin §5)
 */
export const setupStagesQuerySchema = z.object({ includeArchived: queryBool.optional() });
/** The domain's save body, with stage orders that fit the integer column on both dialects. */
export const setupStagesBodySchema = setupStagesSaveRequestSchema.refine(
  (v) => v.setupStages.every((s) => s.stageOrder <= INT_COLUMN_MAX),
  { message: `Stage order must be at most ${INT_COLUMN_MAX}`, path: ['setupStages'] },
);

export const setupStagesRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const { includeArchived } = queryParams(c, setupStagesQuerySchema);
    const stages = await inTransaction(c, (ctx) =>
      listStages(ctx, { includeArchived: includeArchived ?? false }),
    );
    return c.json(stages);
  })
  .put('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, setupStagesBodySchema);
    return c.json(await inTransaction(c, (ctx) => saveSetupStages(ctx, body.setupStages)));
  });
