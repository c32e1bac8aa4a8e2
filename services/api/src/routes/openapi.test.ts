import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { apiKeyMayCall } from '../auth/api-key-scopes';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { healthSchema, readySchema } from './health';
import { DOCUMENTED_CALLS, OPERATIONS_PATHS } from './openapi';

// Decision 0841: the OpenAPI description is served, public, and agrees with the routes and with what each
// API-key scope opens (decision 0840).

const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, () => crypto.randomUUID());

describe.each(DIALECTS)('GET /api/openapi.json on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('serves an OpenAPI 3.1 document without a login, with every documented call', async () => {
    const res = await h.app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters: unknown[]; 'x-takt-api-key-scope': unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const call of DOCUMENTED_CALLS) expect(doc.paths[call.path]?.[call.method]).toBeDefined();
    // Query parameters come from the routes' zod schemas.
    const downtime = doc.paths['/api/reports/downtime']!.get!;
    expect(downtime.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'start', in: 'query', required: true })]),
    );
    expect(JSON.stringify(doc)).not.toContain('#/$defs');
  });

  it('documents only routes that exist', async () => {
    const { cookie } = await h.tenant();
    for (const call of DOCUMENTED_CALLS) {
      const path = toHonoPath(call.path);
      const method = call.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE';
      const res = method === 'GET' ? await h.get(path, cookie) : await h.send(method, path, cookie, {});
      const text = await res.text();
      expect(text, `${method} ${call.path}`).not.toContain('No such API route.');
    }
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

  it.each(DOCUMENTED_CALLS)('$method $path: open to exactly the keys its scope names', (call) => {
    const method = call.method.toUpperCase();
    const path = toHonoPath(call.path);
    for (const scope of API_KEY_SCOPES) {
      const allowed = call.access === 'any' || call.access === scope;
      expect(apiKeyMayCall([scope], method, path), `${scope}`).toBe(allowed);
    }
  });
});
