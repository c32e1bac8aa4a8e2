import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiRules } from '@takt/ingest';
import { openDb } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { createApp } from '../app';
import { inProcessBus } from '../live/bus';
import type { LogEntry } from '../http/log';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { openSocket, startNode, stopAll } from '../testing/ws';
import type { Node } from '../testing/ws';
import type WebSocket from 'ws';

// Operations (decisions 0960-0963): health and readiness without a session, Prometheus metrics behind a token
// or loopback, one JSON log line per request with its id, security headers and body limits on every answer.

const TOKEN = 'metrics-token-0123456789';
const scrape = async (h: ApiHarness) =>
  (await h.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
/** The value of one sample line of a scrape (`name{labels} value`), 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe.each(DIALECTS)('operations endpoints on %s', (dialect) => {
  let h: ApiHarness;
  const logged: LogEntry[] = [];
  beforeEach(async () => {
    logged.length = 0;
    h = await apiHarness(dialect, undefined, { metricsToken: TOKEN, log: (e) => logged.push(e) });
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers /healthz and /readyz without a session, never 401', async () => {
    const health = await h.app.request('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('MM-API-Version')).not.toBeNull();
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('is not ready while a migration is not applied, and says which', async () => {
    const last = await h.t.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    const name = (last as { name: string }).name;
    await h.t.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', name as never)
      .execute();
    const res = await h.app.request('/readyz');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { reason: string; message: string };
    expect(body.reason).toBe('MIGRATIONS_PENDING');
    expect(body.message).toContain(name);
    // Liveness does not look at the database.
    expect((await h.app.request('/healthz')).status).toBe(200);
  });

  it('reads /metrics with the token only, labels HTTP latency by route pattern, counts pushed observations', async () => {
    expect((await h.app.request('/metrics')).status).toBe(403);
    expect(
      (await h.app.request('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } }))
        .status,
    ).toBe(403);
    const me = await h.tenant();
    const machineId = await aMachine(h.t.db, me.company);
    await h.get(`/api/machines/${machineId}`, me.cookie);

    // A gateway pushes two lines of two observations each for the machine (root creates and binds it).
    const root = await aUser(h.t.db, await aCompany(h.t.db), { isRoot: true });
    const rootCookie = await h.login(root.email, root.password);
    const created = await h.send('POST', '/api/gateways', rootCookie, {
      name: 'Edge',
      companyId: me.company.id,
    });
    expect(created.status).toBe(201);
    const { gateway, token } = (await created.json()) as { gateway: { id: string }; token: string };
    const bind = await h.send('POST', `/api/gateways/${gateway.id}/machines`, rootCookie, {
      machineId,
      machineRef: 'mill-1',
    });
    expect(bind.status).toBe(201);
    const before = sample(await scrape(h), 'takt_ingest_observations_total');
    const observedAt = h.clock.now - 5000;
    const line = (seq: number) => ({
      seq,
      machineRef: 'mill-1',
      line: `${new Date(observedAt + seq).toISOString()}|execution|ACTIVE|part_count|${seq}`,
    });
    const push = await h.app.request('/api/gateway-push', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ gatewayId: gateway.id, records: [line(1), line(2)] }),
    });
    expect(push.status).toBe(200);

    const text = await scrape(h);
    expect(sample(text, 'takt_ingest_observations_total') - before).toBe(4);
    expect(sample(text, 'takt_ingest_last_lag_seconds')).toBeCloseTo(5, 1);
    expect(sample(text, 'takt_ingest_lag_seconds_count')).toBeGreaterThanOrEqual(1);
    // The inbox holds the pushed lines until an ingest worker derives them.
    expect(sample(text, 'takt_ingest_inbox_depth')).toBe(2);
    expect(text).toContain('takt_ingest_leases');
    expect(text).toContain('takt_live_sockets');
    expect(
      sample(
        text,
        'takt_http_request_duration_seconds_count{method="GET",route="/api/machines/:id",status="200"}',
      ),
    ).toBe(1);
    expect(text).not.toContain(machineId);
  });

  it('logs one JSON line per request with its id, honours X-Request-Id and logs errors with it', async () => {
    // A handler that fails, added before the first request builds the router.
    h.app.get('/boom', () => {
      throw new Error('kaboom');
    });
    const given = await h.app.request('/healthz', { headers: { 'X-Request-Id': 'probe-42' } });
    expect(given.headers.get('X-Request-Id')).toBe('probe-42');
    const made = await h.app.request('/nothing-here.js');
    const madeId = made.headers.get('X-Request-Id');
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged.filter((e) => e.msg === 'request')).toEqual([
      expect.objectContaining({
        level: 'info',
        reqId: 'probe-42',
        method: 'GET',
        route: '/healthz',
        status: 200,
      }),
      expect.objectContaining({ reqId: madeId, method: 'GET', route: 'unmatched', status: 404 }),
    ]);
    expect(typeof logged[0]!.ms).toBe('number');

    const boom = await h.app.request('/boom', { headers: { 'X-Request-Id': 'boom-1' } });
    expect(boom.status).toBe(500);
    expect(boom.headers.get('X-Request-Id')).toBe('boom-1');
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'unhandled error', reqId: 'boom-1', route: '/boom' }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'request', reqId: 'boom-1', status: 500 }),
    );
  });

  it('refuses a body over the limit with 413 and a clear JSON error, and takes larger sync batches', async () => {
    const me = await h.tenant();
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const res = await h.app.request('/api/jobs', {
      method: 'POST',
      headers: { cookie: me.cookie, origin: 'http://localhost', 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is too large: at most 1 MB is accepted here.',
      },
    });
    const sync = await h.app.request('/api/sync', {
      method: 'POST',
      headers: { cookie: me.cookie, origin: 'http://localhost', 'content-type': 'application/json' },
      body: big,
    });
    expect(sync.status).toBe(400);
  });
});

describe.each(DIALECTS)('text the database cannot hold on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('refuses a NUL character in a body, a query or a path with 400 on both dialects', async () => {
    const me = await h.tenant();
    const nul = 'Text must not contain the NUL character (\\u0000).';
    const body = await h.send('POST', '/api/jobs', me.cookie, { name: 'J\u0000', expectedCycleTime: 60_000 });
    expect(body.status).toBe(400);
    expect(await body.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: nul } });
    expect((await h.get('/api/jobs?filter=a%00b', me.cookie)).status).toBe(400);
    expect((await h.get('/api/machines/a%00b', me.cookie)).status).toBe(400);
    // An escaped backslash before "u0000" is text, not a NUL.
    const text = await h.send('POST', '/api/jobs', me.cookie, {
      name: 'J\\u0000',
      expectedCycleTime: 60_000,
    });
    expect(text.status).toBe(201);
  });
});

describe('security headers', () => {
  let dir: string;
  let h: ApiHarness;
  const inline = '\n      window.__early = 1;\n    ';
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'takt-csp-'));
    const dist = join(dir, 'apps', 'floor-pwa', 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(
      join(dist, 'index.html'),
      `<!doctype html><html><head><script>${inline}</script><script type="module" src="/floor-assets/a.js"></script></head><body></body></html>`,
    );
    mkdirSync(join(dist, 'floor-assets'));
    writeFileSync(join(dist, 'floor-assets', 'a.js'), 'export {};');
    h = await apiHarness('sqlite', undefined, { staticRoot: dir });
  });
  afterEach(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends CSP without unsafe-inline scripts, frame-ancestors none, nosniff and Referrer-Policy on pages, assets and the API', async () => {
    const hash = createHash('sha256').update(inline).digest('base64');
    for (const path of ['/dashboards/live/utilization', '/floor-assets/a.js', '/api/me', '/healthz']) {
      const res = await h.app.request(path, { headers: { host: 'plant.example:8080' } });
      const csp = res.headers.get('Content-Security-Policy') ?? '';
      const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scripts, path).not.toContain('unsafe-inline');
      expect(scripts.startsWith("'self'"), path).toBe(true);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("connect-src 'self' ws://plant.example:8080 wss://plant.example:8080");
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy'), path).toBe('same-origin');
      expect(res.headers.get('X-Frame-Options'), path).toBe('DENY');
      if (path === '/dashboards/live/utilization') expect(scripts).toBe(`'self' 'sha256-${hash}'`);
      else expect(scripts).toBe("'self'");
    }
  });

  it('lets listed origins frame the apps', async () => {
    const framed = createApp({
      db: h.t.db,
      dialect: 'sqlite',
      now: () => 0,
      demoMode: false,
      secureCookies: false,
      staticRoot: dir,
      bus: inProcessBus(),
      ingest: apiRules,
      frameAncestors: ['https://signage.example'],
    });
    const res = await framed.request('/dashboards/live/utilization');
    expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors https://signage.example');
    expect(res.headers.get('X-Frame-Options')).toBeNull();
  });
});

describe('readiness without a database', () => {
  it('answers 503 DATABASE_UNREACHABLE while the database does not answer, and /healthz 200', async () => {
    const gone = openDb('postgres://root@127.0.0.1:1/none', { poolSize: 1 });
    const app = createApp({
      db: gone.db,
      dialect: gone.dialect,
      now: () => 0,
      demoMode: false,
      secureCookies: false,
      staticRoot: null,
      bus: inProcessBus(),
      ingest: apiRules,
    });
    try {
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'unavailable',
        reason: 'DATABASE_UNREACHABLE',
        message: 'The database does not answer.',
      });
      expect((await app.request('/healthz')).status).toBe(200);
    } finally {
      await gone.close();
    }
  });
});

describe.each(DIALECTS)('live sockets gauge on %s', (dialect) => {
  const sockets: WebSocket[] = [];
  const nodes: Node[] = [];
  let t: ApiHarness['t'];
  beforeEach(async () => {
    t = (await apiHarness(dialect)).t;
  });
  afterEach(async () => {
    await stopAll(sockets, nodes);
    await t.cleanup();
  });

  it('counts open live channel sockets, readable from loopback without a token', async () => {
    const node = await startNode(t, dialect, inProcessBus());
    nodes.push(node);
    const gauge = async () =>
      sample(await (await fetch(`http://${node.url}/metrics`)).text(), 'takt_live_sockets{channel="live"}');
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const res = await fetch(`http://${node.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const socket = await openSocket(node, '/live', cookie);
    sockets.push(socket.ws);
    await expect.poll(gauge).toBe(1);
    socket.ws.close();
    await expect.poll(gauge).toBe(0);
  });
});
