import { Hono } from 'hono';
import { jobStartRequestSchema, jobStopRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { startJob, stopJob } from '../services/jobs';
import { inTransaction } from './live-ctx';

/**
 * Job dispatch (live-operations §7; Start/Stop Job need FullProduct, §6).
 * POST /api/dispatch/start `{ id (machine), jobId, setup, setupStageId? }` → 201 the job run with its
 *   labor activity set; 400/409 "Job could not be started" with the reasons in `issues`.
 * POST /api/dispatch/stop `{ id (machine), jobId, laborActivitySetId? }` → 200 the ended job run.
 */
export const dispatchRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .post('/start', async (c) => {
    const body = await jsonBody(c, jobStartRequestSchema);
    const run = await inTransaction(c, (ctx) => startJob(ctx, body));
    return c.json(run, 201);
  })
  .post('/stop', async (c) => {
    const body = await jsonBody(c, jobStopRequestSchema);
    const run = await inTransaction(c, (ctx) => stopJob(ctx, body));
    return c.json(run);
  });
