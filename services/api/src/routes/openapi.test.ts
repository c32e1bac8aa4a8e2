import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { apiKeyMayCall } from '../auth/api-key-scopes';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { healthSchema, readySchema } from './health';
import { DOCUMENTED_CALLS, keyScopes, OPERATIONS_PATHS } from './openapi';

// Decisions 0841, 1045: the OpenAPI description is served, public, describes every route the app serves
// (the route table walked here) and agrees with what each API-key scope opens (decisions 0840, 1047).

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters: unknown[]; requestBody?: unknown; 'x-takt-api-key-scopes': unknown }>
  >;
};

/** A Hono route path in OpenAPI form: `:id` and `:action{a|b}` → `{id}`, `{action}`; no trailing slash. */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}').replace(/(.)\/$/, '$1');

const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, () => crypto.randomUUID());

describe.each(DIALECTS)('GET /api/openapi.json on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const documentOf = async () => {
    const res = await h.app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    return (await res.json()) as Doc;
  };

  it('serves an OpenAPI 3.1 document without a login, with every documented call', async () => {
    const doc = await documentOf();
    expect(doc.openapi).toBe('3.1.0');
    for (const call of DOCUMENTED_CALLS) expect(doc.paths[call.path]?.[call.method]).toBeDefined();
    // Query parameters and bodies come from the routes' zod schemas.
    const downtime = doc.paths['/api/reports/downtime']!.get!;
    expect(downtime.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'start', in: 'query', required: true })]),
    );
    const createJob = JSON.stringify(doc.paths['/api/jobs']!.post!.requestBody);
    for (const field of ['name', 'job_id', 'expectedCycleTime', 'idealCycleTime'])
      expect(createJob).toContain(field);
    // The gateway push body is the ingest contract's own schema (Deps.ingest).
    expect(JSON.stringify(doc.paths['/api/gateway-push']!.post!.requestBody)).toContain('machineRef');
    expect(doc.paths['/api/jobs']!.post!['x-takt-api-key-scopes']).toEqual(['jobs:write']);
    expect(JSON.stringify(doc)).not.toContain('#/$defs');
    // A valid OpenAPI 3.1 document, as a generator or the reference page reads it.
    const checked = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(checked.errors ?? [], JSON.stringify(checked.errors)).toEqual([]);
    expect(checked.valid).toBe(true);
  });

  it('describes every route the app serves, and only those (method and path)', async () => {
    const doc = await documentOf();
    const served = new Set(
      h.app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
        .map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`),
    );
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    expect(
      [...served].filter((r) => !described.has(r)),
      'served but not described',
    ).toEqual([]);
    expect(
      [...described].filter((r) => !served.has(r)),
      'described but not served',
    ).toEqual([]);
  });

  it('documents /healthz, /readyz and /metrics as they answer, without a login', async () => {
    const doc = (await (await h.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { security: unknown[]; responses: Record<string, unknown> } }>;
    };
    for (const path of OPERATIONS_PATHS) {
      expect(doc.paths[path]?.get, path).toBeDefined();
      // An empty requirement: callable without credentials.
      expect(doc.paths[path]!.get!.security, path).toContainEqual({});
    }
    expect(Object.keys(doc.paths['/readyz']!.get!.responses)).toEqual(['200', '503']);
    expect(healthSchema.parse(await (await h.app.request('/healthz')).json())).toEqual({ status: 'ok' });
    expect(readySchema.parse(await (await h.app.request('/readyz')).json())).toEqual({ status: 'ready' });
    // In-process requests have no peer address, so no loopback caller: the documented 403.
    expect(Object.keys(doc.paths['/metrics']!.get!.responses)).toEqual(['200', '403']);
    expect((await h.app.request('/metrics')).status).toBe(403);
  });
});

describe('the documented API-key access of every call', () => {
  it.each(DOCUMENTED_CALLS)('$method $path: open to exactly the keys it names', (call) => {
    const method = call.method.toUpperCase();
    const path = toHonoPath(call.path);
    const scopes = keyScopes(call);
    for (const scope of API_KEY_SCOPES) {
      const allowed = scopes !== null && (scopes.length === 0 || scopes.includes(scope));
      expect(apiKeyMayCall([scope], method, path), `${scope}`).toBe(allowed);
    }
  });
});
