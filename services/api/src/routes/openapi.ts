import { z } from 'zod';
import {
  API_KEY_SCOPES,
  apiKeyCreateRequestSchema,
  apiKeyCreatedSchema,
  apiKeySchema,
  apiKeyUpdateRequestSchema,
  cyclesQuerySchema,
  dashboardResponseSchema,
  downtimeReportQuerySchema,
  endSetupRequestSchema,
  idSchema,
  jobStartRequestSchema,
  jobStopRequestSchema,
  oeeByRequestSchema,
  oeeReportQuerySchema,
  operatorRunStartRequestSchema,
  operatorRunStopRequestSchema,
  operatorRunsQuerySchema,
  overridesQuerySchema,
  partAdjustmentCreateRequestSchema,
  partAdjustmentQuerySchema,
  partAdjustmentUpdateRequestSchema,
  productionRequestSchema,
  rejectsByCategoryQuerySchema,
  setupPartsQuerySchema,
  stageTransitionRequestSchema,
  timelineQuerySchema,
  warehouseJobsQuerySchema,
  warehouseJobsWithoutRunsQuerySchema,
} from '@takt/domain';
import type { ApiKeyScope } from '@takt/domain';
import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { API_VERSION } from '../version';
import { annotationQuerySchema, annotationRangeSchema } from './annotations';
import { healthSchema, readySchema, unavailableSchema } from './health';
import { downtimeQuerySchema, splitDowntimeRequestSchema } from './downtime';
import { jobByMachineQuerySchema } from './jobs-report';
import { rejectListSchema } from './part-adjustments';
import { partGoalsSchema, subprogramsSchema, utilizationSchema } from './reports';

// GET /api/openapi.json (decision 0841): an OpenAPI 3.1 description built from the same zod schemas the
// routes validate with, through zod 4's own z.toJSONSchema, so the description cannot drift from the rules.
// It covers every call an API key may make (auth/api-key-scopes.ts, decision 0840), /api/me and the API-key
// administration itself.

type Method = 'get' | 'post' | 'put' | 'delete';

export interface DocumentedCall {
  method: Method;
  /** OpenAPI form: `{id}` for a path parameter. */
  path: string;
  summary: string;
  /** The API-key scope that opens the call; 'any' every key; 'session' a logged-in admin only. */
  access: ApiKeyScope | 'any' | 'session';
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** The success status when not 200. */
  status?: 201 | 204;
}

const group = z.object({ group: z.string().min(1).optional() });
const machineIdQuery = z.object({ machineId: idSchema });
const operatorsQuery = z.object({ includeArchived: z.enum(['true', 'false']).optional() });

const R = 'reports:read' as const;
const W = 'operations:write' as const;

export const DOCUMENTED_CALLS: readonly DocumentedCall[] = [
  { method: 'get', path: '/api/me', summary: 'The caller: user, role and permissions', access: 'any' },
  // reports-admin §7 "Reports"
  {
    method: 'get',
    path: '/api/dashboard',
    summary: 'Live machine tiles',
    access: R,
    query: group,
    response: dashboardResponseSchema,
  },
  {
    method: 'get',
    path: '/api/dashboard/utilization',
    summary: 'Utilization per machine',
    access: R,
    query: group,
  },
  { method: 'get', path: '/api/dashboard/parts', summary: 'Parts goal per machine', access: R, query: group },
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
    path: '/api/reports/warehouse/jobs',
    summary: 'Job report',
    access: R,
    query: warehouseJobsQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/warehouse/jobs/aggregatedbymachine',
    summary: 'Job report by machine',
    access: R,
    query: jobByMachineQuerySchema,
  },
  {
    method: 'get',
    path: '/api/reports/warehouse/jobs/withoutruns',
    summary: 'Jobs without runs',
    access: R,
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
    path: '/api/partadjustment/allRejectsByCategory',
    summary: 'Rejects by reason',
    access: R,
    query: rejectsByCategoryQuerySchema,
  },
  {
    method: 'get',
    path: '/api/partadjustment/rejects',
    summary: 'Reject list',
    access: R,
    query: rejectListSchema,
  },
  // live-operations calls
  {
    method: 'get',
    path: '/api/dispatch/current',
    summary: 'Current job of a machine',
    access: W,
    query: machineIdQuery,
  },
  {
    method: 'post',
    path: '/api/dispatch/start',
    summary: 'Start a job',
    access: W,
    body: jobStartRequestSchema,
  },
  {
    method: 'post',
    path: '/api/dispatch/stop',
    summary: 'Stop a job',
    access: W,
    body: jobStopRequestSchema,
  },
  {
    method: 'get',
    path: '/api/setup/parts',
    summary: 'Parts made in setup',
    access: W,
    query: setupPartsQuerySchema,
  },
  {
    method: 'post',
    path: '/api/setup/transition',
    summary: 'Change setup stage',
    access: W,
    body: stageTransitionRequestSchema,
  },
  { method: 'post', path: '/api/setup/end', summary: 'End setup', access: W, body: endSetupRequestSchema },
  { method: 'get', path: '/api/operators', summary: 'Operators', access: W, query: operatorsQuery },
  {
    method: 'get',
    path: '/api/operatorruns',
    summary: 'Operator runs',
    access: W,
    query: operatorRunsQuerySchema,
  },
  {
    method: 'post',
    path: '/api/operatorruns/start',
    summary: 'Log an operator in',
    access: W,
    body: operatorRunStartRequestSchema,
  },
  {
    method: 'post',
    path: '/api/operatorruns/stop',
    summary: 'Log the operator out',
    access: W,
    body: operatorRunStopRequestSchema,
  },
  {
    method: 'get',
    path: '/api/downtime',
    summary: 'Downtime of a machine',
    access: W,
    query: downtimeQuerySchema,
  },
  {
    method: 'post',
    path: '/api/downtime/split',
    summary: 'Split the current downtime',
    access: W,
    body: splitDowntimeRequestSchema,
  },
  {
    method: 'get',
    path: '/api/annotations',
    summary: 'Annotations',
    access: W,
    query: annotationQuerySchema,
  },
  {
    method: 'post',
    path: '/api/annotations/setRange',
    summary: 'Save annotations over a range',
    access: W,
    body: annotationRangeSchema,
  },
  {
    method: 'get',
    path: '/api/partadjustment',
    summary: 'Part adjustments of a machine',
    access: R,
    query: partAdjustmentQuerySchema,
  },
  {
    method: 'post',
    path: '/api/partadjustment',
    summary: 'Record rejects or a part correction',
    access: W,
    body: partAdjustmentCreateRequestSchema,
    status: 201,
  },
  {
    method: 'put',
    path: '/api/partadjustment/{id}',
    summary: 'Change a part adjustment',
    access: W,
    body: partAdjustmentUpdateRequestSchema,
  },
  {
    method: 'delete',
    path: '/api/partadjustment/{id}',
    summary: 'Delete a part adjustment',
    access: W,
    status: 204,
  },
  // reports-admin §2 API keys: for a logged-in admin, never for a key.
  {
    method: 'get',
    path: '/api/apikeys',
    summary: 'API keys (no tokens)',
    access: 'session',
    response: z.array(apiKeySchema),
  },
  {
    method: 'post',
    path: '/api/apikeys',
    summary: 'Create an API key; the access token is in this answer only',
    access: 'session',
    body: apiKeyCreateRequestSchema,
    response: apiKeyCreatedSchema,
    status: 201,
  },
  {
    method: 'put',
    path: '/api/apikeys/{id}',
    summary: 'Rename an API key or change its scopes',
    access: 'session',
    body: apiKeyUpdateRequestSchema,
    response: apiKeySchema,
  },
  {
    method: 'delete',
    path: '/api/apikeys/{id}',
    summary: 'Delete an API key',
    access: 'session',
    status: 204,
  },
];

type JsonSchema = Record<string, unknown>;

// Query schemas coerce strings and bodies transform: the description shows what a client sends (input).
const toSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
};

function queryParameters(schema: z.ZodType): JsonSchema[] {
  const json = toSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}

const ERROR = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        issues: {
          type: 'array',
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
      required: ['code', 'message'],
    },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operation(call: DocumentedCall): JsonSchema {
  const pathParams = [...call.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const status = call.status ?? 200;
  return {
    summary: call.summary,
    operationId: `${call.method}${call.path.replace(/[^a-zA-Z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [call.access === 'session' ? 'administration' : call.access === R ? 'reports' : 'operations'],
    'x-takt-api-key-scope': call.access === 'session' ? null : call.access,
    security:
      call.access === 'session'
        ? [{ session: [] }]
        : [{ session: [] }, { apiKey: call.access === 'any' ? [] : [call.access] }],
    parameters: [...pathParams, ...(call.query ? queryParameters(call.query) : [])],
    ...(call.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(call.body) } } } }
      : {}),
    responses: {
      [status]:
        status === 204
          ? { description: 'Done' }
          : {
              description: 'OK',
              content: { 'application/json': { schema: call.response ? toSchema(call.response) : {} } },
            },
      400: errorResponse('Invalid input: the list of problems (reports-admin §5 ValidationError)'),
      401: errorResponse('Not authenticated'),
      403: errorResponse('Not permitted (role, product tier or API-key scope)'),
      404: errorResponse('Not found (or another company’s record)'),
    },
  };
}

const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { 'application/json': { schema: toSchema(schema) } },
});

/**
 * The operations endpoints outside /api (routes/health.ts, decisions 0960, 0961): no session and no API key,
 * for load balancers, orchestrators and Prometheus.
 */
export const OPERATIONS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

function operationsPaths(): Record<(typeof OPERATIONS_PATHS)[number], Record<'get', JsonSchema>> {
  // `{}`: a requirement met without credentials.
  const op = (
    operationId: string,
    summary: string,
    responses: JsonSchema,
    security: JsonSchema[] = [{}],
  ) => ({
    get: { summary, operationId, tags: ['node'], security, responses },
  });
  return {
    '/healthz': op('getHealthz', 'Liveness: the process answers HTTP (never touches the database)', {
      200: json('Alive', healthSchema),
    }),
    '/readyz': op(
      'getReadyz',
      'Readiness: the database answers and every migration of this build is applied',
      {
        200: json('Ready for traffic', readySchema),
        503: json('Not ready: the reason', unavailableSchema),
      },
    ),
    '/metrics': op(
      'getMetrics',
      'Prometheus metrics: ingest observations/s and lag, inbox depth, lease holders, HTTP latency, live sockets',
      {
        200: {
          description: 'Prometheus text exposition format',
          content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } },
        },
        403: errorResponse('Neither the metrics token nor a loopback caller'),
      },
      [{}, { metricsToken: [] }],
    ),
  };
}

/** The whole OpenAPI 3.1 document. */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = { ...operationsPaths() };
  for (const call of DOCUMENTED_CALLS) (paths[call.path] ??= {})[call.method] = operation(call);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Takt API',
      version: API_VERSION,
      description:
        'Machine monitoring and manufacturing operations. Authenticate with the session cookie (POST /login) ' +
        'or an API key: `Authorization: Bearer <key>`. A key opens only the calls of its scopes.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'reports', description: 'Scope reports:read' },
      { name: 'operations', description: 'Scope operations:write' },
      { name: 'administration', description: 'Logged-in admins only' },
      { name: 'node', description: 'Health, readiness and metrics of one node (outside /api, no login)' },
    ],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'takt_session' },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (tak_…) with the scopes ${API_KEY_SCOPES.join(', ')}`,
        },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'TAKT_METRICS_TOKEN; without it set, /metrics answers loopback callers only',
        },
      },
      schemas: { Error: ERROR },
    },
    paths,
  };
}

/** GET /api/openapi.json: public, like any API description; it names no company data. */
export const openApiRoutes = new Hono<AppEnv>().get('/', (c) => c.json(openApiDocument()));
