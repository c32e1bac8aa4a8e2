import {
  cyclesQuerySchema,
  downtimeReportQuerySchema,
  eventExportRequestSchema,
  oeeByRequestSchema,
  oeeReportQuerySchema,
  overridesQuerySchema,
  partAdjustmentQuerySchema,
  productionRequestSchema,
  rejectsByCategoryQuerySchema,
  timelineQuerySchema,
  warehouseJobsWithoutRunsQuerySchema,
} from '@takt/domain';
import { dashboardQuery, statusQuery } from '../routes/dashboard';
import { jobByMachineQuerySchema, jobsQuerySchema } from '../routes/jobs-report';
import { rejectListSchema } from '../routes/part-adjustments';
import { csvQuerySchema } from '../routes/production-report';
import { partGoalsSchema, subprogramsSchema, utilizationSchema } from '../routes/reports';
import type { DocumentedCall } from './call';
import { R } from './call';

// reports-admin §7 "Reports": the dashboards and every report, open to `reports:read` keys (decision 0840).

const CSV = 'text/csv; charset=utf-8';

export const REPORT_CALLS: readonly DocumentedCall[] = [
  {
    method: 'get',
    path: '/api/dashboard',
    summary: 'Live machine tiles',
    access: R,
    query: dashboardQuery,
  },
  {
    method: 'get',
    path: '/api/dashboard/utilization',
    summary: 'Utilization per machine',
    access: R,
    query: dashboardQuery,
  },
  {
    method: 'get',
    path: '/api/dashboard/parts',
    summary: 'Parts goal per machine',
    access: R,
    who: 'FullProduct',
    query: dashboardQuery,
  },
  {
    method: 'get',
    path: '/api/dashboard/status',
    summary: 'Status of the data feed: unmapped values, gateways, whether the Cycles dashboard is on',
    access: R,
    query: statusQuery,
  },
  {
    method: 'get',
    path: '/api/dashboard/cycles',
    summary: 'Cycle dashboard: each machine’s last cycles against its standard',
    access: R,
    query: dashboardQuery,
  },
  {
    method: 'get',
    path: '/api/reports/downtime',
    summary: 'Downtime report',
    access: R,
    query: downtimeReportQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/partGoals',
    summary: 'Parts report',
    access: R,
    who: 'FullProduct',
    query: partGoalsSchema,
  },
  {
    method: 'get',
    path: '/api/reports/utilization',
    summary: 'Utilization report',
    access: R,
    query: utilizationSchema,
  },
  {
    method: 'get',
    path: '/api/reports/cycles',
    summary: 'Cycles of one machine',
    access: R,
    query: cyclesQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/operation',
    summary: 'Machine timeline',
    access: R,
    query: timelineQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/subprograms',
    summary: 'Sub-programs',
    access: R,
    query: subprogramsSchema,
  },
  {
    method: 'get',
    path: '/api/reports/overrides',
    summary: 'Overrides report',
    access: R,
    query: overridesQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/oee',
    summary: 'OEE of one machine',
    access: R,
    who: 'FullProduct',
    query: oeeReportQuerySchema,
  },
  {
    method: 'post',
    path: '/api/reports/warehouse/production',
    summary: 'OEE and utilization figures grouped by machine, shift, group or interval',
    access: R,
    body: productionRequestSchema,
  },
  {
    method: 'get',
    path: '/api/reports/warehouse/production/csv',
    summary: 'The same figures as a CSV file (`request`: the POST body as JSON)',
    access: R,
    query: csvQuerySchema,
    produces: CSV,
  },
  {
    method: 'get',
    path: '/api/reports/warehouse/jobs',
    summary: 'Job report',
    access: R,
    who: 'FullProduct',
    query: jobsQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/warehouse/jobs/aggregatedbymachine',
    summary: 'Job report by machine',
    access: R,
    who: 'FullProduct',
    query: jobByMachineQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/warehouse/jobs/withoutruns',
    summary: 'Jobs without runs',
    access: R,
    who: 'FullProduct',
    query: warehouseJobsWithoutRunsQuerySchema,
  },
  {
    method: 'post',
    path: '/api/oee/bymachine',
    summary: 'OEE by machine',
    access: R,
    body: oeeByRequestSchema,
  },
  {
    method: 'post',
    path: '/api/oee/byabstractshift',
    summary: 'OEE by shift',
    access: R,
    body: oeeByRequestSchema,
  },
  {
    method: 'get',
    path: '/api/partadjustment',
    summary: 'Part adjustments of a machine',
    access: R,
    query: partAdjustmentQuerySchema,
  },
  {
    method: 'get',
    path: '/api/partadjustment/allRejectsByCategory',
    summary: 'Rejects by reason',
    access: R,
    query: rejectsByCategoryQuerySchema,
  },
  {
    method: 'get',
    path: '/api/partadjustment/rejects',
    summary: 'Reject list (JSON, or CSV with `format=csv`)',
    access: R,
    query: rejectListSchema,
  },
  // Event export e-mails the calling user a link, so it is for people, not keys (decision 0840).
  {
    method: 'post',
    path: '/api/reports/event/queue',
    summary: 'Queue an event export; the link to the CSV is e-mailed to the caller',
    access: 'session',
    body: eventExportRequestSchema,
    status: 202,
  },
  {
    method: 'get',
    path: '/api/reports/export/download/{id}',
    summary: 'Download a queued event export (CSV)',
    access: 'session',
    description: 'Also opened by the e-mailed link’s `?token=` (decision 0991).',
    produces: CSV,
  },
];
