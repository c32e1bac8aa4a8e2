import { Hono } from 'hono';
import { z } from 'zod';
import { idSchema, jobStartRequestSchema, jobStopRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { currentJobRun, startJob, stopJob } from '../services/dispatch';
import { inTransaction } from './live-ctx';

/**
 * Job dispatch (live-operations §7; Start/Stop Job need FullProduct, §6).
 * POST /api/dispatch/start `{ id (machine), jobId, setup, setupStageId? }` → 201 the job run with its
 *   labor activity set; 400/409 "Job could not be started" with the reasons in `issues`.
 * POST /api/dispatch/stop `{ id (machine), jobId, laborActivitySetId? }` → 200 the ended job run.
 * GET  /api/dispatch/current?machineId= → 200 the machine's open job run (the same view as start answers) or
 *   `null`; 400 without machineId; 404 for a machine of another company; 403 TABLET_BOUND for a tablet bound
 *   to another machine.
 */
/** GET /api/dispatch/current?machineId= */
export const dispatchCurrentQuerySchema = z.object({ machineId: idSchema });

export const dispatchRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/current', async (c) => {
    const { machineId } = queryParams(c, dispatchCurrentQuerySchema);
    return c.json(await inTransaction(c, (ctx) => currentJobRun(ctx, machineId)));
  })
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
