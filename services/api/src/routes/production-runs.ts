import { Hono } from 'hono';
import { z } from 'zod';
import { epochMsSchema, idSchema, startInSetupSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdminOrApiKey, requirePermission } from '../http/permissions';
import { expectedCycleTimeField, idealCycleTimeField } from '../http/cycle-time';
import { durationMsField, intField, jsonBody, queryParams } from '../http/validate';
import {
  createProductionRun,
  deleteProductionRun,
  getProductionRun,
  listProductionRuns,
  saveProductionRun,
} from '../services/production-runs';
import { inTransaction } from './live-ctx';

// Production runs (reports-admin §2 /reports/production-runs and the production-run editor, §3 Job schedule
// group; decision 0850). Job run figures are OEE facts: FullProduct; saving is for admins, as the job
// machine save is, and for an API key with `jobs:write` (decision 1047).

export const rangeQuery = z
  .object({
    start: z.coerce.number({ error: 'start must be a number' }).int('start must be a whole number'),
    end: z.coerce.number({ error: 'end must be a number' }).int('end must be a whole number'),
    machine_id: idSchema.optional(),
  })
  .refine((q) => q.start < q.end, { message: 'start must be before end', path: ['end'] });

const instant = (label: string) => epochMsSchema.refine(Number.isSafeInteger, `${label} must be a date`);

export const saveSchema = z.object({
  job_id: idSchema,
  machine_id: idSchema,
  startdate: instant('Start'),
  /** Null: never. */
  enddate: instant('End').nullable(),
  startInSetup: startInSetupSchema,
  /** Null: still in setup; ignored without setup. */
  setupend: instant('Setup end').nullable(),
  // Parts come from elapsed time over the expected cycle time (METRICS.md), so it cannot be 0.
  cycletime: expectedCycleTimeField(),
  /** 0 = no standard (decision 0998: at most 7 days, as the expected one). */
  idealcycletime: idealCycleTimeField(),
  partcount_multiplier: z
    .number({ error: 'Parts multiplier must be a number' })
    .positive('Parts multiplier must be more than 0'),
  actualParts: intField('Actual parts').min(1, 'Actual parts must be at least 1'),
  // The schedule form's fields (reports-admin §2 Schedule, §3; decision 0910); the editor leaves them out.
  partchangeovertime: durationMsField('Part changeover time').optional(),
  shifts: z.array(idSchema, { error: 'Shifts must be a list of shift ids' }).optional(),
  /** Planned setup's expected time in ms; none and unplanned ignore it (§4). */
  setuptime: durationMsField('Setup time').nullable().optional(),
  // The second schedule form: the setup stages planned from the start, in order (§3 Labor activity; 0940).
  laborActivities: z
    .array(
      z.object({
        setupStageId: idSchema,
        startAt: instant('Setup stage start'),
        /** Null: still in this stage. */
        endAt: instant('Setup stage end').nullable(),
      }),
      { error: 'Labor activities must be a list of setup stages' },
    )
    .optional(),
});

/**
 * GET /api/productionruns?start&end[&machine_id]: the job runs overlapping the range, by start.
 * GET /api/productionruns/:id: one run. PUT /api/productionruns/:id: save every field of it (admins).
 * POST /api/productionruns and DELETE /api/productionruns/:id: the schedule's create (and duplicate) and
 * delete (admins; reports-admin §2 Schedule, §7 "job runs: paths not shown"; decision 0910).
 */
export const productionRunsRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const q = queryParams(c, rangeQuery);
    const runs = await inTransaction(c, (ctx) =>
      listProductionRuns(ctx, { start: q.start, end: q.end, machineId: q.machine_id }),
    );
    return c.json(runs);
  })
  .get('/:id', async (c) => {
    const run = await inTransaction(c, (ctx) => getProductionRun(ctx, c.req.param('id')));
    return c.json(run);
  })
  .post('/', requireAdminOrApiKey, async (c) => {
    const body = await jsonBody(c, saveSchema);
    const run = await inTransaction(c, (ctx) => createProductionRun(ctx, body));
    return c.json(run, 201);
  })
  .delete('/:id', requireAdminOrApiKey, async (c) => {
    await inTransaction(c, (ctx) => deleteProductionRun(ctx, c.req.param('id')));
    return c.body(null, 204);
  })
  .put('/:id', requireAdminOrApiKey, async (c) => {
    const body = await jsonBody(c, saveSchema);
    const run = await inTransaction(c, (ctx) => saveProductionRun(ctx, c.req.param('id'), body));
    return c.json(run);
  });
