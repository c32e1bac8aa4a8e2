import { Hono } from 'hono';
import { z } from 'zod';
import { epochMsSchema, idSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requirePermission } from '../http/permissions';
import { requestCtx } from '../http/request-ctx';
import { jsonBody, queryParams } from '../http/validate';
import {
  faultsReport,
  timelineListReport,
  warehouseDowntime,
  warehouseQuality,
} from '../services/report-warehouse';
import { subprogramsSchema } from './reports';

// The remaining report calls of reports-admin §7 (decision 1096), company-scoped like every report: a machine,
// group or shift of another company answers 404. Ranges: the two years of decision 0980 (http/time-bounds.ts),
// the timeline list its one day.

/** machineId, start, end (start before end). */
export const machineRangeSchema = subprogramsSchema;

/** reports-admin §7 "Warehouse downtime: start, end, groupBy (machine, reason)", the production call's filter. */
export const warehouseRequestSchema = z
  .strictObject({
    start: epochMsSchema,
    end: epochMsSchema,
    groupBy: z.enum(['machine', 'reason'], { error: 'groupBy must be machine or reason.' }).default('reason'),
    filter: z
      .strictObject({
        machine: idSchema.optional(),
        machineGroup: idSchema.optional(),
        shift: z.array(idSchema).optional(),
      })
      .default({}),
  })
  .refine((q) => q.start < q.end, { message: 'Start Date must be before End Date', path: ['end'] });

const performance = requirePermission('PerformanceDashboard');

/**
 * Mounted at /api/reports.
 * GET  /faults              machineId, start, end → range, recomputing, faults
 * GET  /timelinelist        machineId, start, end (≤ 1 day) → range, recomputing, items (the downtime rows)
 * POST /warehouse/downtime  warehouseRequestSchema → range, recomputing, items (downtimeMs, recordCount, reason), entities
 * POST /warehouse/quality   warehouseRequestSchema → range, items (rejectCount, reason), entities
 */
export const warehouseReportRoutes = new Hono<AppEnv>()
  .get('/faults', performance, async (c) => {
    const q = queryParams(c, machineRangeSchema);
    return c.json(await faultsReport(requestCtx(c, c.var.scope), q));
  })
  .get('/timelinelist', performance, async (c) => {
    const q = queryParams(c, machineRangeSchema);
    return c.json(await timelineListReport(requestCtx(c, c.var.scope), q));
  })
  .post('/warehouse/downtime', performance, async (c) => {
    const q = await jsonBody(c, warehouseRequestSchema);
    return c.json(await warehouseDowntime(requestCtx(c, c.var.scope), q));
  })
  .post('/warehouse/quality', performance, async (c) => {
    const q = await jsonBody(c, warehouseRequestSchema);
    return c.json(await warehouseQuality(requestCtx(c, c.var.scope), q));
  });
