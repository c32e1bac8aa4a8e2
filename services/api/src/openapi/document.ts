import { z } from 'zod';
import { API_KEY_SCOPES } from '@takt/domain';
import type { ApiKeyScope } from '@takt/domain';
import { SESSION_COOKIE, TABLET_COOKIE } from '../auth/middleware';
import { API_VERSION } from '../version';
import type { DocumentedCall } from './call';
import type { JsonSchema } from './json-schema';
import { ERROR, errorResponse, queryParameters, toAnswerSchema, toSchema } from './json-schema';
import { CREATE_OR_CHANGE, withAnswer } from './answers';
import { ADMINISTRATION_CALLS } from './administration';
import { INTERNAL_CALLS } from './internal';
import { MACHINE_STREAM_CALLS } from './machine-streams';
import { NODE_PATHS, NODE_TAG } from './node';
import { OPERATION_CALLS } from './operations';
import { PLANNING_CALLS } from './planning';
import { PUBLIC_CALLS } from './public';
import { REPORT_CALLS } from './reports';

// The OpenAPI 3.1 document (decisions 0841, 1045), built from the tables of documented calls, each naming
// the zod schemas its route validates with, through zod 4's own z.toJSONSchema: the description cannot
// drift from the rules. routes/openapi.test.ts fails on any route the app serves that is not described.

/** The feature areas, each a tag of the reference page, in reading order. */
export const AREAS = [
  {
    name: 'reports',
    description: 'Dashboards and reports (API-key scope reports:read)',
    calls: REPORT_CALLS,
  },
  {
    name: 'operations',
    description: 'Live operations of the workcenter view (API-key scope operations:write)',
    calls: OPERATION_CALLS,
  },
  {
    name: 'planning',
    description:
      'Jobs, job machines and production runs (API-key scope jobs:write: an ERP’s work orders), shifts, ' +
      'machine groups, operators, setup stages and reasons',
    calls: PLANNING_CALLS,
  },
  {
    name: 'administration',
    description: 'API keys, users, machines, tablets and settings: logged-in users only',
    calls: [...ADMINISTRATION_CALLS, ...MACHINE_STREAM_CALLS],
  },
  {
    name: 'internal',
    description: 'Root users: companies, gateways, adapters, system',
    calls: INTERNAL_CALLS,
  },
  {
    name: 'public',
    description: 'Without a session: login, account links, devices, gateways, this reference, WebSockets',
    calls: PUBLIC_CALLS,
  },
] as const;

/**
 * Every documented call under /api and the login paths (the node paths are in node.ts), with the schema of
 * its answer (answers.ts, decision 1079).
 */
export const DOCUMENTED_CALLS: readonly DocumentedCall[] = AREAS.flatMap((a) => a.calls.map(withAnswer));

/** The calls that answer 429 (with Retry-After) past their rate limit (decision 0987). */
const RATE_LIMITED = new Set([
  'post /login',
  'post /login/device',
  'post /login/code',
  'post /api/sync',
  'post /api/gateway-push',
  'post /api/tablets/associate',
  'get /tablet-auth',
]);

/** Schemas the document gets from outside this service (the ingest contract, through Deps.ingest). */
export interface ExternalSchemas {
  /** POST /api/gateway-push's body. */
  pushBatch?: z.ZodType;
}

function security(call: DocumentedCall): Array<Record<string, string[]>> {
  if (call.security) return call.security;
  if (call.access === 'public') return [{}];
  if (call.access === 'session') return [{ session: [] }];
  return [{ session: [] }, { apiKey: call.access === 'any' ? [] : [...call.access] }];
}

/** The scopes that open a call to an API key; null when no key may make it. */
export function keyScopes(call: DocumentedCall): readonly ApiKeyScope[] | null {
  if (call.access === 'any') return [];
  return Array.isArray(call.access) ? call.access : null;
}

function accessText(call: DocumentedCall): string {
  const scopes = keyScopes(call);
  const keys =
    call.access === 'public'
      ? 'No login.'
      : scopes === null
        ? 'Logged-in users only; no API key.'
        : scopes.length === 0
          ? 'Any caller, any API key.'
          : `API-key scope: ${scopes.join(' or ')}.`;
  return call.who ? `${keys} Needs: ${call.who}.` : keys;
}

function success(call: DocumentedCall): JsonSchema {
  const status = call.status ?? 200;
  if (status === 204) return { description: 'Done' };
  if (status === 101) return { description: 'Switching protocols: the WebSocket is open' };
  if (call.produces)
    return { description: 'OK', content: { [call.produces]: { schema: { type: 'string' } } } };
  return {
    description: status === 202 ? 'Accepted' : status === 201 ? 'Created' : 'OK',
    content: {
      // Without a zod schema of the answer: JSON, shape not described (no made-up example).
      'application/json': call.response ? { schema: toAnswerSchema(call.response) } : {},
      // A report read that takes `format=csv` answers the same rows as a CSV file then.
      ...(takesCsvFormat(call) ? { [CSV]: { schema: { type: 'string' } } } : {}),
    },
  };
}

const CSV = 'text/csv; charset=utf-8';

/** The call's query takes `format=csv`. */
function takesCsvFormat(call: DocumentedCall): boolean {
  const format = queryParameters(call.query ?? z.object({})).find((p) => p.name === 'format');
  return JSON.stringify(format?.schema ?? {}).includes('"csv"');
}

function operation(call: DocumentedCall, tag: string, external: ExternalSchemas): JsonSchema {
  const pathParams = [...call.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: call.pathEnums?.[m[1]!] ? { type: 'string', enum: call.pathEnums[m[1]!] } : { type: 'string' },
  }));
  const body = call.path === '/api/gateway-push' ? external.pushBatch : call.body;
  const scopes = keyScopes(call);
  return {
    summary: call.summary,
    description: call.description ? `${accessText(call)}\n\n${call.description}` : accessText(call),
    operationId: `${call.method}${call.path.replace(/[^a-zA-Z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [tag],
    'x-takt-api-key-scopes': scopes,
    security: security(call),
    parameters: [...pathParams, ...(call.query ? queryParameters(call.query) : [])],
    ...(body
      ? {
          requestBody: {
            required: !call.optionalBody,
            content: { 'application/json': { schema: toSchema(body) } },
          },
        }
      : {}),
    responses: {
      [call.status ?? 200]: success(call),
      ...(CREATE_OR_CHANGE.has(`${call.method} ${call.path}`)
        ? { 200: { ...success(call), description: 'Changed' } }
        : {}),
      ...(body || call.query ? { 400: errorResponse('Invalid input: the list of problems') } : {}),
      ...(call.access === 'public' && !call.security?.some((s) => Object.keys(s).length > 0)
        ? {}
        : {
            401: errorResponse('Not authenticated'),
            403: errorResponse('Not permitted (role, product tier or API-key scope)'),
          }),
      ...(call.path.includes('{') ? { 404: errorResponse('Not found (or another company’s record)') } : {}),
      ...(call.method === 'get' || call.status === 101
        ? {}
        : {
            409: errorResponse(
              'Conflict: the state of the records refuses the change (the message says why)',
            ),
          }),
      ...(RATE_LIMITED.has(`${call.method} ${call.path}`)
        ? { 429: errorResponse('Too many requests: try again after the Retry-After header’s seconds') }
        : {}),
    },
  };
}

/** The whole OpenAPI 3.1 document. */
export function openApiDocument(external: ExternalSchemas = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = { ...NODE_PATHS() };
  for (const area of AREAS) {
    for (const call of area.calls.map(withAnswer))
      (paths[call.path] ??= {})[call.method] = operation(call, area.name, external);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Takt API',
      version: API_VERSION,
      description:
        'Machine monitoring and manufacturing operations. Authenticate with the session cookie (POST /login) ' +
        'or an API key: `Authorization: Bearer <key>`. A key opens only the calls of its scopes, in its own ' +
        'company. Times are epoch milliseconds (UTC). Every error answers `{ error: { code, message, issues? } }`.',
    },
    servers: [{ url: '/' }],
    tags: [...AREAS.map(({ name, description }) => ({ name, description })), NODE_TAG],
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: `The login session (a registered tablet sends ${TABLET_COOKIE} instead)`,
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (tak_…) with the scopes ${API_KEY_SCOPES.join(', ')}`,
        },
        gatewayToken: { type: 'http', scheme: 'bearer', description: 'A gateway’s token' },
        deviceToken: { type: 'http', scheme: 'bearer', description: 'A registered tablet’s device token' },
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
