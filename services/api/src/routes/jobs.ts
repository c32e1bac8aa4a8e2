import { Hono } from 'hono';
import { z } from 'zod';
import {
  epochMsSchema,
  idSchema,
  jobsQuerySchema,
  partBehaviorSchema,
  queryBool,
  startInSetupSchema,
} from '@takt/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context';
import { forbidden } from '../http/errors';
import { requirePermission } from '../http/permissions';
import { expectedCycleTimeField, idealCycleTimeField, orNoStandard } from '../http/cycle-time';
import { intField, jsonBody, queryParams } from '../http/validate';
import {
  createJob,
  getJobView,
  JOB_PAGE_SIZE,
  JOB_SEARCH_LIMIT,
  listJobMachines,
  queryJobs,
  removeJobMachine,
  saveJobMachine,
  updateJob,
} from '../services/jobs';
import { inTransaction } from './live-ctx';

// Two resources, one file (decision 0114): jobs (/api/jobs) and their job machines (/api/jobmachines), a job's
// standards on one machine; both are services/jobs.ts and repositories/jobs.ts.

/**
 * Who plans jobs (decision 1084): admins and managers (the planners), and API keys with `jobs:write` (decision
 * 1047, their scope checked before any route ran). Operators and kiosks do not.
 */
const isPlanner = (c: { var: AppEnv['Variables'] }) =>
  c.var.caller.kind === 'apiKey' ||
  c.var.caller.user.isRoot ||
  c.var.caller.user.role === 'admin' ||
  c.var.caller.user.role === 'manager';

const requirePlanner: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isPlanner(c)) throw forbidden();
  await next();
};

const name = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'At most 250 characters');

/** live-operations §5 Part behavior: required, number, min 1 (and within an integer column). */
const countField = (label: string) => intField(label).min(1, `${label} must be at least 1`);
const setupSeconds = intField('Setup time').min(0, 'Setup time must not be negative');

/** The domain's jobs query with `limit` left unset when absent, so its default can follow the caller. */
export const jobsSearchSchema = jobsQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  /** Only the retired (hidden) jobs (the office's jobs list, decision 1084). */
  retired: queryBool.optional(),
});

// Own schema: the domain has no job-create body.
export const jobCreateSchema = z.object({
  name,
  /** The ERP job id. */
  job_id: z.string().trim().max(250).nullable().optional(),
  /** Decision 0998: 1 ms to 7 days; null = no standard. */
  expectedCycleTime: orNoStandard(expectedCycleTimeField()).optional(),
  /** 0 or null = no standard. */
  idealCycleTime: orNoStandard(idealCycleTimeField()).optional(),
  actualParts: countField('Actual parts').optional(),
  /** Seconds; null = no setup. */
  setuptime: setupSeconds.nullable().optional(),
  quantity: countField('Quantity').nullable().optional(),
  hidden: z.boolean().optional(),
});

/** PUT /api/jobs/:id: any of the create's fields; what is left out stays as it is. */
export const jobUpdateSchema = jobCreateSchema
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change');

/**
 * GET /api/jobs: jobs by case-insensitive name, `{ rows, count }`. A machine's jobs page by 15 unless
 * `limit` says otherwise. Searching every job of the company (no machineId) is the admins' server-side
 * search (live-operations §5, §6), 10 at a time by default (completions ask for 10 with includeHidden).
 * `retired=true` lists only the retired (hidden) jobs (the office's jobs list; decision 1084).
 * GET /api/jobs/:id: one job with every machine it is assigned to (planners: decision 1084).
 * POST /api/jobs: create a job (admins and managers, or an API key with `jobs:write`; decisions 1047, 1084).
 * PUT /api/jobs/:id: change a job's own fields (the same callers): an ERP's work order changed; `hidden`
 *   retires a job (no longer offered to start) or brings it back.
 */
export const jobsRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const { limit, ...q } = queryParams(c, jobsSearchSchema);
    // An API key may search too (an ERP looks its work order up; decision 1047), and a manager plans jobs
    // in the office (decision 1084).
    if (!q.machineId && !isPlanner(c)) throw forbidden();
    // live-operations §5, §9: a machine's jobs page by 15; the admins' company-wide search answers 10.
    const page = await inTransaction(c, (ctx) =>
      queryJobs(ctx, { ...q, limit: limit ?? (q.machineId ? JOB_PAGE_SIZE : JOB_SEARCH_LIMIT) }),
    );
    return c.json(page);
  })
  .get('/:id', requirePlanner, async (c) => {
    return c.json(await inTransaction(c, (ctx) => getJobView(ctx, c.req.param('id'))));
  })
  .post('/', requirePlanner, async (c) => {
    const body = await jsonBody(c, jobCreateSchema);
    const job = await inTransaction(c, (ctx) =>
      createJob(ctx, {
        name: body.name,
        erpJobId: body.job_id ?? null,
        ...(body.expectedCycleTime !== undefined ? { expectedCycleTime: body.expectedCycleTime } : {}),
        ...(body.idealCycleTime !== undefined ? { idealCycleTime: body.idealCycleTime } : {}),
        ...(body.actualParts !== undefined ? { actualParts: body.actualParts } : {}),
        setuptime: body.setuptime ?? null,
        quantity: body.quantity ?? null,
        hidden: body.hidden ?? false,
      }),
    );
    return c.json(job, 201);
  })
  .put('/:id', requirePlanner, async (c) => {
    const body = await jsonBody(c, jobUpdateSchema);
    const job = await inTransaction(c, (ctx) =>
      updateJob(ctx, c.req.param('id'), {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.job_id !== undefined ? { erpJobId: body.job_id } : {}),
        ...(body.expectedCycleTime !== undefined ? { expectedCycleTime: body.expectedCycleTime } : {}),
        ...(body.idealCycleTime !== undefined ? { idealCycleTime: body.idealCycleTime } : {}),
        ...(body.actualParts !== undefined ? { actualParts: body.actualParts } : {}),
        ...(body.setuptime !== undefined ? { setuptime: body.setuptime } : {}),
        ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
        ...(body.hidden !== undefined ? { hidden: body.hidden } : {}),
      }),
    );
    return c.json(job);
  });

// Own schema: the domain's jobMachineSaveRequestSchema fills every absent field with its default, which
// would reset a job machine's standards on a partial save. Here absent means "leave as it is".
export const jobMachinesQuerySchema = z.object({ machineId: idSchema });
export const jobMachineSaveSchema = z.object({
  job_id: idSchema,
  job_machine: z.object({
    machine_id: idSchema,
    name: z.string().max(250).optional(),
    expectedCycleTime: orNoStandard(expectedCycleTimeField()).optional(),
    idealCycleTime: orNoStandard(idealCycleTimeField()).optional(),
    partCountMultiplier: z.number().positive().optional(),
    actualParts: countField('Actual parts').optional(),
    reportedParts: countField('Reported parts').nullable().optional(),
    requiredCycles: countField('Required cycles').nullable().optional(),
    setuptime: setupSeconds.nullable().optional(),
    partBehavior: partBehaviorSchema.optional(),
    startInSetup: startInSetupSchema.optional(),
    schedule: z.object({ ends: z.union([z.literal('never'), epochMsSchema]) }).optional(),
  }),
});

/**
 * GET /api/jobmachines?machineId=: the jobs associated with a machine.
 * POST /api/jobmachines: JobMachine save `{ job_id, job_machine: { machine_id, …fields } }` (admins and
 * managers, or a `jobs:write` key):
 * 201 when it associates the job with the machine, 200 when it changes an association.
 * DELETE /api/jobmachines/:id: the job no longer on the machine (the same callers); 204, or 409 while a run
 * of the job is open on the machine (decision 1106).
 */
export const jobMachinesRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const { machineId } = queryParams(c, jobMachinesQuerySchema);
    const rows = await inTransaction(c, (ctx) => listJobMachines(ctx, machineId));
    return c.json(rows);
  })
  .post('/', requirePlanner, async (c) => {
    const body = await jsonBody(c, jobMachineSaveSchema);
    const { jobMachine, created } = await inTransaction(c, (ctx) => saveJobMachine(ctx, body));
    return c.json(jobMachine, created ? 201 : 200);
  })
  // JobMachine delete (decision 1106): 409 while a run of the job is open on the machine.
  .delete('/:id', requirePlanner, async (c) => {
    await inTransaction(c, (ctx) => removeJobMachine(ctx, c.req.param('id')));
    return c.body(null, 204);
  });
