import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { oeeByRequestSchema, oeeReportQuerySchema, productionRequestSchema } from '@takt/domain';
import type { Permission } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { csvResponse } from '../http/csv';
import { forbidden } from '../http/errors';
import { sharedJson } from '../http/shared-json';
import { callerPermissions, requirePermission } from '../http/permissions';
import { requestCtx } from '../http/request-ctx';
import { jsonBody, queryParams } from '../http/validate';
import {
  asksForOee,
  oeeByMachine,
  oeeByShift,
  oeeReport,
  productionReport,
} from '../services/production-report';
import type { ProductionQuery } from '../services/production-report';
import { productionCsv } from '../services/production-csv';
import { mintLinkToken } from '../services/link-tokens';
import type { ServiceCtx } from '../services/context';
import { sharedAnswer } from '../services/report-shared';
import { inReportThread } from '../services/report-threads';
import type { ReportTask } from '../services/report-threads';

// The calls behind the OEE and utilization reports (reports-admin §2, §7; decision 0801).
// Company-scoped like every report: a machine, group, shift or job of another company answers 404.
// Permissions: OEE figures need FullProduct (as the OEE dashboards, reports-admin §6); utilization figures
// need Utilization.

const needs = (c: Context<AppEnv>, permission: Permission) => {
  if (!callerPermissions(c.var.caller, c.var.deps.demoMode).includes(permission)) throw forbidden();
};

const CSV_PATH = '/api/reports/warehouse/production/csv';

/** GET …/production/csv?request=<the POST body as JSON>&token=…: the same figures as CSV. */
export const csvQuerySchema = z.object({
  request: z
    .string({ error: 'request is required' })
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'request must be the report request as JSON' });
        return z.NEVER;
      }
    })
    .pipe(productionRequestSchema),
});

/** The calls of these routes a report thread computes (decision 1253). */
type Threaded = Extract<ReportTask, { call: 'production' | 'oee' | 'oee/bymachine' | 'oee/byabstractshift' }>;

/**
 * The service's answer, shared with the same call's other callers (decision 1148), computed in a report thread when
 * the node runs them (decision 1253).
 */
const shared = <T extends Threaded, R>(
  c: Context<AppEnv>,
  task: T,
  service: (ctx: ServiceCtx, q: T['q']) => Promise<R>,
): Promise<R> => {
  const ctx = requestCtx(c, c.var.scope);
  return sharedAnswer(ctx, task.call, task.q, task.q, (at) =>
    inReportThread(at, task, () => service(at, task.q)),
  );
};

const productionFor = async (c: Context<AppEnv>, q: ProductionQuery) => {
  // decision 0801: any OEE metric makes it an OEE report (FullProduct); utilization metrics need Utilization.
  needs(c, asksForOee(q.data) ? 'FullProduct' : 'Utilization');
  return shared(c, { call: 'production', q }, productionReport);
};

/**
 * Mounted at /api/reports.
 * POST /warehouse/production      productionRequestSchema → ProductionResponse (csv: true adds csv.url)
 * GET  /warehouse/production/csv  request (JSON), token → text/csv
 * GET  /oee                       oeeReportQuerySchema → OeeReportResponse (FullProduct)
 */
export const productionReportRoutes = new Hono<AppEnv>()
  .post('/warehouse/production', requirePermission('Utilization'), async (c) => {
    const q = await jsonBody(c, productionRequestSchema);
    const report = await productionFor(c, q);
    if (!q.csv) return sharedJson(c, report);
    // A link token for the CSV link (`?token=`, decision 0502), minted only for a user's real session as GET
    // /api/user-token does; other callers get the link without one and append their own.
    const token = (await mintLinkToken(c.var.scope.db, c.var.caller, c.var.deps.now()))?.token;
    const { csv: _csv, ...request } = q;
    const params = new URLSearchParams({ request: JSON.stringify(request), ...(token ? { token } : {}) });
    return c.json({ ...report, csv: { url: `${CSV_PATH}?${params.toString()}` } });
  })
  .get('/warehouse/production/csv', requirePermission('Utilization'), async (c) => {
    const { request } = queryParams(c, csvQuerySchema);
    const report = await productionFor(c, request);
    return csvResponse(
      c,
      'production.csv',
      productionCsv(report, request, c.var.caller.company.timezone),
      report.recomputing,
    );
  })
  .get('/oee', requirePermission('FullProduct'), async (c) => {
    const q = queryParams(c, oeeReportQuerySchema);
    return sharedJson(c, await shared(c, { call: 'oee', q }, oeeReport));
  });

/**
 * Mounted at /api/oee. POST /bymachine and /byabstractshift: oeeByRequestSchema → OeeByMachineResponse /
 * OeeByShiftResponse. The in-cycle metric needs Utilization, the OEE metrics FullProduct.
 */
export const oeeRoutes = new Hono<AppEnv>()
  .post('/bymachine', requirePermission('Utilization'), async (c) => {
    const q = await jsonBody(c, oeeByRequestSchema);
    needs(c, q.efficiencyMetric === 'inCycle' ? 'Utilization' : 'FullProduct');
    return sharedJson(c, await shared(c, { call: 'oee/bymachine', q }, oeeByMachine));
  })
  .post('/byabstractshift', requirePermission('Utilization'), async (c) => {
    const q = await jsonBody(c, oeeByRequestSchema);
    needs(c, q.efficiencyMetric === 'inCycle' ? 'Utilization' : 'FullProduct');
    return sharedJson(c, await shared(c, { call: 'oee/byabstractshift', q }, oeeByShift));
  });
