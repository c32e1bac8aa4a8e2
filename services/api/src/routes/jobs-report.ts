import { Hono } from 'hono';
import { z } from 'zod';
import {
  warehouseJobByMachineQuerySchema,
  warehouseJobsQuerySchema,
  warehouseJobsWithoutRunsQuerySchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { csvResponse } from '../http/csv';
import { requirePermission } from '../http/permissions';
import { requestCtx } from '../http/request-ctx';
import { queryParams } from '../http/validate';
import { jobByMachine, jobsWithoutRunsReport, warehouseJobs } from '../services/jobs-report';
import { jobByMachineCsv, warehouseJobsCsv } from '../services/jobs-report-csv';

// The warehouse job calls (reports-admin §2 Jobs report, §7; decision 0813). Company-scoped: a
// job, machine or group of another company answers 404. Job figures are OEE figures: FullProduct. CSV
// downloads authenticate with `?token=` like the other report CSVs.

const full = requirePermission('FullProduct');

/**
 * GET /warehouse/jobs also takes the Jobs report's Aggregate By (job, the default, or machine) and pages for its
 * infinite scroll: limit (1–100) entries from offset, with the total of all (decision 0821).
 */
export const jobsQuerySchema = warehouseJobsQuerySchema.safeExtend({
  aggregate_by: z.enum(['job', 'machine'], { error: 'aggregate_by must be job or machine' }).default('job'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be 1 or more')
    .max(100, 'limit must be 100 or less')
    .optional(),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
});

/**
 * …/aggregatedbymachine also takes machine_id: the machine-job report (reports-admin §2
 * /reports/machineoperationreport?machine_id&job_id) is the job's figures on that one machine (decision 0820).
 */
export const jobByMachineQuerySchema = warehouseJobByMachineQuerySchema.safeExtend({
  machine_id: z.string().min(1, 'machine_id must be a machine id').optional(),
});

/**
 * Mounted at /api/reports.
 * GET /warehouse/jobs                      job_id, machine_id, group, aggregate_by, limit, offset, start, end,
 *                                          format=csv → range, total, jobs (with runs)
 * GET /warehouse/jobs/aggregatedbymachine  job_id, machine_id, start, end, format=csv → range, job, machines,
 *                                          and the job detail: shifts (OEE by shift), downtime and rejects by
 *                                          reason (decision 0820)
 * GET /warehouse/jobs/withoutruns          group, start, end, machine_id → range, jobs (job_id, job_name)
 */
export const jobsReportRoutes = new Hono<AppEnv>()
  .get('/warehouse/jobs', full, async (c) => {
    const q = queryParams(c, jobsQuerySchema);
    const report = await warehouseJobs(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv') {
      const csv = warehouseJobsCsv(report, c.var.caller.company.timezone, q.aggregate_by === 'machine');
      return csvResponse(c, 'jobs.csv', csv, report.recomputing);
    }
    return c.json(report);
  })
  .get('/warehouse/jobs/aggregatedbymachine', full, async (c) => {
    const q = queryParams(c, jobByMachineQuerySchema);
    const report = await jobByMachine(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv')
      return csvResponse(
        c,
        'job-machines.csv',
        jobByMachineCsv(report, c.var.caller.company.timezone),
        report.recomputing,
      );
    return c.json(report);
  })
  .get('/warehouse/jobs/withoutruns', full, async (c) => {
    const q = queryParams(c, warehouseJobsWithoutRunsQuerySchema);
    return c.json(await jobsWithoutRunsReport(requestCtx(c, c.var.scope), q));
  });
