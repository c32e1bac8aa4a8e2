import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { inlineScriptHashes } from '../http/security';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';

// Decision 1046: the API reference page is served by the product itself, without a login, from the
// installed Swagger UI (no CDN), under the product's own strict Content-Security-Policy.

describe.each(DIALECTS)('GET /api/docs on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('serves the reference page and its files from this server, with no inline script and the strict CSP', async () => {
    const page = await h.app.request('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = await page.text();
    expect(inlineScriptHashes(html)).toEqual([]);
    expect(html).not.toMatch(/<style|style=/i);
    // Every file the page loads is a path of this server, and each answers.
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const src of sources) {
      expect(src, src).toMatch(/^\/api\/docs\//);
      const res = await h.app.request(src);
      expect(res.status, src).toBe(200);
      expect((await res.arrayBuffer()).byteLength, src).toBeGreaterThan(0);
    }
    const start = await (await h.app.request('/api/docs/start.js')).text();
    expect(start).toContain("url: '/api/openapi.json'");
    expect(start).toContain('validatorUrl: null');
    expect(start).not.toMatch(/https?:/);
    const bundle = await h.app.request('/api/docs/swagger-ui-bundle.js');
    expect(bundle.headers.get('content-type')).toContain('text/javascript');
    expect(bundle.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 for a file the page does not use', async () => {
    for (const path of ['/api/docs/package.json', '/api/docs/..%2Fpackage.json', '/api/docs/index.html']) {
      expect((await h.app.request(path)).status, path).toBe(404);
    }
  });
});
