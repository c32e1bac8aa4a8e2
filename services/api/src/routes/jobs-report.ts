import { Hono } from 'hono';
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
import {
  jobByMachine,
  jobByMachineCsv,
  jobsWithoutRunsReport,
  warehouseJobs,
  warehouseJobsCsv,
} from '../services/jobs-report';

// The warehouse job calls (reports-admin §2 Jobs report, §7; decision 0813). Company-scoped: a
// job, machine or group of another company answers 404. Job figures are OEE figures: FullProduct. CSV
// downloads authenticate with `?token=` like the other report CSVs.

const full = requirePermission('FullProduct');

/**
 * Mounted at /api/reports.
 * GET /warehouse/jobs                      job_id, machine_id, start, end, format=csv → range, jobs (with runs)
 * GET /warehouse/jobs/aggregatedbymachine  job_id, start, end, format=csv → range, job, machines
 * GET /warehouse/jobs/withoutruns          group, start, end, machine_id → range, jobs (job_id, job_name)
 */
export const jobsReportRoutes = new Hono<AppEnv>()
  .get('/warehouse/jobs', full, async (c) => {
    const q = queryParams(c, warehouseJobsQuerySchema);
    const report = await warehouseJobs(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv')
      return csvResponse(c, 'jobs.csv', warehouseJobsCsv(report, c.var.caller.company.timezone));
    return c.json(report);
  })
  .get('/warehouse/jobs/aggregatedbymachine', full, async (c) => {
    const q = queryParams(c, warehouseJobByMachineQuerySchema);
    const report = await jobByMachine(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv')
      return csvResponse(c, 'job-machines.csv', jobByMachineCsv(report, c.var.caller.company.timezone));
    return c.json(report);
  })
  .get('/warehouse/jobs/withoutruns', full, async (c) => {
    const q = queryParams(c, warehouseJobsWithoutRunsQuerySchema);
    return c.json(await jobsWithoutRunsReport(requestCtx(c, c.var.scope), q));
  });
