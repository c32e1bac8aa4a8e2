import type { z } from 'zod';
import { healthSchema, readySchema, unavailableSchema } from '../routes/health';
import { errorResponse, toSchema } from './json-schema';

// The operations endpoints outside /api (routes/health.ts, decisions 0960, 0961): no session and no API key,
// for load balancers, orchestrators and Prometheus.

type JsonSchema = Record<string, unknown>;

export const OPERATIONS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

export const NODE_TAG = {
  name: 'node',
  description: 'Health, readiness and metrics of one node (outside /api, no login)',
};

const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { 'application/json': { schema: toSchema(schema) } },
});

export function NODE_PATHS(): Record<(typeof OPERATIONS_PATHS)[number], Record<'get', JsonSchema>> {
  // `{}`: a requirement met without credentials.
  const op = (
    operationId: string,
    summary: string,
    responses: JsonSchema,
    security: JsonSchema[] = [{}],
  ) => ({
    get: { summary, operationId, tags: [NODE_TAG.name], security, responses },
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
