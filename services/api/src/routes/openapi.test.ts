import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { apiKeyMayCall } from '../auth/api-key-scopes';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { DOCUMENTED_CALLS } from './openapi';

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

  it.each(DOCUMENTED_CALLS)('$method $path: open to exactly the keys its scope names', (call) => {
    const method = call.method.toUpperCase();
    const path = toHonoPath(call.path);
    for (const scope of API_KEY_SCOPES) {
      const allowed = call.access === 'any' || call.access === scope;
      expect(apiKeyMayCall([scope], method, path), `${scope}`).toBe(allowed);
    }
  });
});
