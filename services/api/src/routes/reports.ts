import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import {
  cyclesQuerySchema,
  downtimeReportQuerySchema,
  idSchema,
  partGoalsQuerySchema,
  queryEpochMs,
  queryList,
  REPORT_INTERVAL_UNITS,
  timelineQuerySchema,
  utilizationQuerySchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { csvResponse } from '../http/csv';
import { sharedJson } from '../http/shared-json';
import { requirePermission } from '../http/permissions';
import { queryParams } from '../http/validate';
import { cyclesCsv, cyclesReport } from '../services/report-cycles';
import { downtimeCsv, downtimeReport } from '../services/report-downtime';
import { partGoalsCsv, partGoalsReport } from '../services/report-part-goals';
import { subprogramsReport, timelineReport } from '../services/report-timeline';
import { utilizationCsv, utilizationReport } from '../services/report-utilization';
import { requestCtx } from '../http/request-ctx';

// The domain's query schemas quietly turn an unknown interval into 'day'; a report call answers 400 instead
// (reports-admin §5 "Interval must be hour, day, week, month or quarter", plus the shift horizon).
const INTERVAL_MESSAGE = `Interval must be one of ${REPORT_INTERVAL_UNITS.join(', ')}.`;
const interval = z.enum(REPORT_INTERVAL_UNITS, { error: INTERVAL_MESSAGE }).default('day');
const strictInterval = { interval };

export const partGoalsSchema = partGoalsQuerySchema.safeExtend(strictInterval);
/** `cache=false` (or 0) reads the stored facts instead of the stored rollups (decision 0700). */
const usesStoredRollups = (cache: string | undefined) => cache !== 'false' && cache !== '0';
export const utilizationSchema = utilizationQuerySchema.safeExtend({
  ...strictInterval,
  unit: z.enum(['hour', 'percent'], { error: 'Unit must be hour or percent.' }).default('percent'),
  shifts: queryList.optional(),
  format: z.literal('csv').optional(),
});
const START_BEFORE_END = { message: 'Start Date must be before End Date', path: ['end'] };
export const subprogramsSchema = z
  .object({ machineId: idSchema, start: queryEpochMs, end: queryEpochMs })
  .refine((q) => q.start < q.end, START_BEFORE_END);

const performance = requirePermission('PerformanceDashboard');
const timezoneOf = (c: Context<AppEnv>) => c.var.caller.company.timezone;

/**
 * /api/reports (live-operations §7, reports-admin §7; decision 0700). Everything is scoped to the caller's
 * company: a machine or group of another company answers 404. CSV downloads authenticate with `?token=`.
 * GET /partGoals   start, end, interval, group, machineId, format=csv, cache → range, machines, cacheToken
 * GET /utilization group, start, end, interval, unit, machineId, shifts, format=csv → range, machines,
 *                  machineAggregate, … (shifts: only those shifts' time)
 * GET /cycles      machineId, start, end, format=csv
 * GET /downtime    start, end (≤ 31 days), shifts, group, onlyScheduled, show*, includeHidden, categoryId,
 *                  machineId, detail, format=csv → range, data, summary, byMachine
 * GET /operation   machineId, start, end (≤ 7 days), includeSetup, instances → the timeline lanes
 * GET /subprograms machineId, start, end (≤ 2 h, padded to 2 h)
 */
export const reportsRoutes = new Hono<AppEnv>()
  .get('/partGoals', requirePermission('FullProduct'), async (c) => {
    const q = queryParams(c, partGoalsSchema);
    const report = await partGoalsReport(requestCtx(c, c.var.scope), {
      ...q,
      cache: usesStoredRollups(q.cache),
    });
    if (q.format === 'csv')
      return csvResponse(c, 'part-goals.csv', partGoalsCsv(report, timezoneOf(c)), report.recomputing);
    return c.json(report);
  })
  .get('/utilization', requirePermission('Utilization'), async (c) => {
    const q = queryParams(c, utilizationSchema);
    const report = await utilizationReport(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv')
      return csvResponse(c, 'utilization.csv', utilizationCsv(report), report.recomputing);
    return sharedJson(c, report);
  })
  .get('/cycles', performance, async (c) => {
    const q = queryParams(c, cyclesQuerySchema);
    const report = await cyclesReport(requestCtx(c, c.var.scope), q);
    if (q.format === 'csv')
      return csvResponse(c, 'cycles.csv', cyclesCsv(report, timezoneOf(c)), report.recomputing);
    return c.json(report);
  })
  .get('/downtime', performance, async (c) => {
    const q = queryParams(c, downtimeReportQuerySchema);
    const csv = q.format === 'csv';
    const { periods, ...report } = await downtimeReport(requestCtx(c, c.var.scope), q, 'downtime', csv);
    if (csv)
      return csvResponse(
        c,
        'downtime.csv',
        downtimeCsv(periods, timezoneOf(c), report.activities),
        report.recomputing,
      );
    return c.json(report);
  })
  .get('/operation', performance, async (c) => {
    const q = queryParams(c, timelineQuerySchema);
    return c.json(await timelineReport(requestCtx(c, c.var.scope), q));
  })
  .get('/subprograms', performance, async (c) => {
    const q = queryParams(c, subprogramsSchema);
    return c.json(await subprogramsReport(requestCtx(c, c.var.scope), q));
  });
