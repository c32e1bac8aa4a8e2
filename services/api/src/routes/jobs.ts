import { Hono } from 'hono';
import { z } from 'zod';
import {
  durationMsSchema,
  epochMsSchema,
  idSchema,
  jobsQuerySchema,
  partBehaviorSchema,
  startInSetupSchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { forbidden } from '../http/errors';
import { requireAdmin, requirePermission } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { createJob, listJobMachines, queryJobs, saveJobMachine } from '../services/jobs';
import { inTransaction } from './live-ctx';

const isAdmin = (c: { var: AppEnv['Variables'] }) =>
  c.var.caller.user.role === 'admin' || c.var.caller.user.isRoot;

const name = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'At most 250 characters');

// Own schema: the domain has no job-create body.
const jobCreateSchema = z.object({
  name,
  /** The ERP job id. */
  job_id: z.string().trim().max(250).nullable().optional(),
  expectedCycleTime: durationMsSchema.optional(),
  /** 0 = no standard. */
  idealCycleTime: durationMsSchema.optional(),
  actualParts: z
    .number({ error: 'Actual parts must be a number' })
    .int()
    .min(1, 'Actual parts must be at least 1')
    .optional(),
  /** Seconds; null = no setup. */
  setuptime: z.number().int().nonnegative().nullable().optional(),
  quantity: z.number().int().min(1).nullable().optional(),
  hidden: z.boolean().optional(),
});

/**
 * GET /api/jobs: jobs by case-insensitive name, `{ rows, count }`, page size 15 unless `limit` says
 * otherwise (completions ask for 10 with includeHidden). Searching every job of the company (no machineId)
 * is the admins' server-side search (live-operations §5, §6); others list one machine's jobs.
 * POST /api/jobs: create a job (admins).
 */
export const jobsRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const q = queryParams(c, jobsQuerySchema);
    if (!q.machineId && !isAdmin(c)) throw forbidden();
    const page = await inTransaction(c, (ctx) => queryJobs(ctx, q));
    return c.json(page);
  })
  .post('/', requireAdmin, async (c) => {
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
  });

const countField = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`);

// Own schema: the domain's jobMachineSaveRequestSchema fills every absent field with its default, which
// would reset a job machine's standards on a partial save. Here absent means "leave as it is".
const jobMachineSaveSchema = z.object({
  job_id: idSchema,
  job_machine: z.object({
    machine_id: idSchema,
    name: z.string().max(250).optional(),
    expectedCycleTime: durationMsSchema.optional(),
    idealCycleTime: durationMsSchema.optional(),
    partCountMultiplier: z.number().positive().optional(),
    actualParts: countField('Actual parts').optional(),
    reportedParts: countField('Reported parts').nullable().optional(),
    requiredCycles: countField('Required cycles').nullable().optional(),
    setuptime: z.number().int().nonnegative().nullable().optional(),
    partBehavior: partBehaviorSchema.optional(),
    startInSetup: startInSetupSchema.optional(),
    schedule: z.object({ ends: z.union([z.literal('never'), epochMsSchema]) }).optional(),
  }),
});

/**
 * GET /api/jobmachines?machineId=: the jobs associated with a machine.
 * POST /api/jobmachines: JobMachine save `{ job_id, job_machine: { machine_id, …fields } }` (admins):
 * 201 when it associates the job with the machine, 200 when it changes an association.
 */
export const jobMachinesRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('FullProduct'))
  .get('/', async (c) => {
    const { machineId } = queryParams(c, z.object({ machineId: idSchema }));
    const rows = await inTransaction(c, (ctx) => listJobMachines(ctx, machineId));
    return c.json(rows);
  })
  .post('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, jobMachineSaveSchema);
    const { jobMachine, created } = await inTransaction(c, (ctx) => saveJobMachine(ctx, body));
    return c.json(jobMachine, created ? 201 : 200);
  });
