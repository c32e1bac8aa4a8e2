import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_KEY_SCOPES, apiKeyCreatedSchema } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { ANSWERS, CREATE_OR_CHANGE } from '../openapi/answers';
import { AREAS } from '../openapi/document';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aJobMachine, aShift } from '../testing/live-builders';
import { aManualWorkcenter, anAnnotation, MIN, someStates } from '../testing/downtime-builders';
import { routeOf, KEY_ROUTES } from '../testing/key-routes';
import { aJobWithRun, aRejectRow, recomputeMachines, someCycles } from '../testing/report-plant';
import { aShop, requestFor, ROUTES, withFreshIds } from '../testing/route-table';
import type { RouteCase, Shop } from '../testing/route-table';
import { DOCUMENTED_CALLS, keyScopes, openApiDocument } from './openapi';

// Decision 1079: the OpenAPI document describes the answer of every JSON call an API key may make, and the
// descriptions stay true: each call is made with a key on a seeded plant (both dialects) and its real
// answer is read with the schema the served document gives (z.fromJSONSchema), every object closed, so a
// field the handler sends and the document does not name fails here.

type Operation = {
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const HOUR = 60 * MIN;
const successOf = (call: (typeof DOCUMENTED_CALLS)[number]) => call.status ?? 200;

/** The JSON calls an API key may make (CSV downloads, 204s and WebSockets have no JSON answer). */
const KEY_CALLS = DOCUMENTED_CALLS.filter(
  (c) => keyScopes(c) !== null && !c.produces && c.status !== 204 && c.status !== 101,
);

/** The dashboard of every machine (the shared table asks for an unknown group, an empty answer); the key. */
const PREFERRED: RouteCase[] = [
  { method: 'GET', path: '/api/dashboard', reach: 'own' },
  { method: 'GET', path: '/api/me', reach: 'own' },
];

/**
 * Deletes last (the annotation's reset before the range save, which replaces the annotation the other
 * calls name).
 */
const order = (call: (typeof DOCUMENTED_CALLS)[number]) =>
  call.path === '/api/annotations/{id}' && call.method === 'delete'
    ? 1
    : call.method === 'delete'
      ? 3
      : call.path === '/api/annotations/setRange'
        ? 2
        : 0;

type Place = 'shop' | 'plant' | 'lathe' | 'bench';
/**
 * The machine a call names: the reports and the lists of periods and adjustments read the plant's; a job is
 * started (then set up) on an idle lathe, a stop going on now split on the plant, parts added by hand on a
 * manual work center; the rest is the shop's.
 */
function placeOf(call: (typeof DOCUMENTED_CALLS)[number]): Place {
  const key = `${call.method} ${call.path}`;
  if (key === 'post /api/dispatch/start' || call.path.startsWith('/api/setup/')) return 'lathe';
  if (call.path.startsWith('/api/partadjustment/manual')) return 'bench';
  if (key === 'post /api/downtime/split' || key === 'post /api/annotations/bulk') return 'plant';
  if (/^\/api\/(reports|oee)\//.test(call.path)) return 'plant';
  return call.method === 'get' && /^\/api\/(downtime|annotations|partadjustment)(\/|$)/.test(call.path)
    ? 'plant'
    : 'shop';
}

/** The document's schema of a call's answer with `status`, as zod (undefined: not described). */
function documented(
  doc: Doc,
  call: (typeof DOCUMENTED_CALLS)[number],
  status = successOf(call),
): z.ZodType | undefined {
  const schema =
    doc.paths[call.path]?.[call.method]?.responses[String(status)]?.content?.['application/json']?.schema;
  return schema && Object.keys(schema).length > 0
    ? z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
    : undefined;
}

/**
 * A second machine of the shop's company with an hour of history (the shop's reads range over the last
 * hour) and a night shift: production with cycles, a categorized stop, no data, a job run with standards, a reject,
 * and a stop going on now; rollups recomputed as the worker would.
 */
async function aPlant(h: ApiHarness, shop: Shop, company: Parameters<typeof aShop>[1]): Promise<Shop> {
  const { T } = shop;
  const scope = companyScope(h.t.db, company.id);
  const machineId = await aMachine(h.t.db, company);
  // The shop's clock is at night in the company's zone: a night shift, so shift-filtered reads have time.
  const shiftId = await aShift(h.t.db, company, {
    name: 'Night',
    startoffsetminutes: 0,
    endoffsetminutes: 360,
  });
  await someStates(h.t.db, company, machineId, [
    [T - 60 * MIN, T - 40 * MIN, 'ACTIVE'],
    [T - 40 * MIN, T - 30 * MIN, 'INACTIVE'],
    [T - 30 * MIN, T - 25 * MIN, 'UNAVAILABLE'],
    [T - 25 * MIN, T - 20 * MIN, 'INACTIVE'],
    [T - 20 * MIN, T - 5 * MIN, 'ACTIVE'],
    [T - 5 * MIN, null, 'INACTIVE'],
  ]);
  const jobId = await aJobWithRun(scope, {
    machineId,
    name: 'Bracket',
    expected: 2 * MIN,
    ideal: 90_000,
    jobCreatedAt: T - 3 * HOUR,
    start: T - 2 * HOUR,
    end: null,
  });
  const cycles = [...Array(10).keys()].map((i) => ({
    start: T - 60 * MIN + i * 2 * MIN,
    end: T - 58 * MIN + i * 2 * MIN,
  }));
  await someCycles(scope, machineId, cycles);
  await anAnnotation(h.t.db, company, {
    machineId,
    start: T - 40 * MIN,
    end: T - 30 * MIN,
    typeId: shop.reasonId,
    message: 'Waiting for material',
  });
  await scope
    .insertInto(
      'part_adjustments',
      aRejectRow(machineId, T - 45 * MIN, { typeId: shop.rejectReasonId, scrapcount: 1 }),
    )
    .execute();
  await recomputeMachines(h.t.db, company, [machineId], { from: T - 3 * HOUR, to: T, now: T });
  return { ...shop, machineId, jobId, shiftId };
}

describe('the answers the OpenAPI document describes', () => {
  it('describe every JSON call an API key may make, each call in one place only', () => {
    const key = (c: { method: string; path: string }) => `${c.method} ${c.path}`;
    expect(KEY_CALLS.filter((c) => !c.response).map(key), 'calls without a described answer').toEqual([]);
    const inline = AREAS.flatMap((a) => a.calls).filter((c) => c.response && ANSWERS[key(c)]);
    expect(inline.map(key), 'answers described twice').toEqual([]);
    const known = new Set(DOCUMENTED_CALLS.map(key));
    expect(
      Object.keys(ANSWERS).filter((k) => !known.has(k)),
      'answers of no call',
    ).toEqual([]);
    // What the server sends, not a request's defaults (they would read as example values).
    const paths = openApiDocument().paths as Doc['paths'];
    expect(JSON.stringify(paths['/api/annotationtypes']!.get!.responses['200'])).not.toContain('"default"');
    // A report read that takes format=csv says so.
    const downtime = paths['/api/reports/downtime']!.get!.responses['200']!.content!;
    expect(Object.keys(downtime)).toEqual(['application/json', 'text/csv; charset=utf-8']);
    expect(Object.keys(paths['/api/reports/oee']!.get!.responses['200']!.content!)).toEqual([
      'application/json',
    ]);
  });
});

describe.each(DIALECTS)('real answers against the served OpenAPI document on %s', (dialect) => {
  let h: ApiHarness;
  let places: Record<Place, Shop>;
  let token: string;
  let doc: Doc;
  /** Each call's answer, by method and path, as the walk got it. */
  const answers = new Map<string, { status: number; body: unknown }>();

  const send = (route: RouteCase, s: Shop) => {
    const { path, raw } = requestFor(route, s);
    return h.app.request(path, {
      method: route.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(raw === undefined ? {} : { body: withFreshIds(raw) }),
    });
  };

  beforeAll(async () => {
    h = await apiHarness(dialect);
    const { company, cookie } = await h.tenant();
    const shop = await aShop(h, company, cookie);
    const lathe = await aMachine(h.t.db, company);
    await aJobMachine(h.t.db, company, shop.jobId, lathe, { setuptime: 600 });
    places = {
      shop,
      plant: await aPlant(h, shop, company),
      lathe: { ...shop, machineId: lathe },
      bench: { ...shop, machineId: await aManualWorkcenter(h.t.db, company) },
    };
    const created = await h.send('POST', '/api/apikeys', cookie, {
      name: 'ERP and BI',
      scopes: API_KEY_SCOPES,
    });
    token = apiKeyCreatedSchema.parse(await created.json()).accessToken;
    doc = (await (await h.app.request('/api/openapi.json')).json()) as Doc;
    for (const call of [...KEY_CALLS].sort((a, b) => order(a) - order(b))) {
      const route = routeOf(call, [PREFERRED, ROUTES, KEY_ROUTES]);
      if (!route) throw new Error(`no request for ${call.method} ${call.path}`);
      const res = await send(route, places[placeOf(call)]);
      const body = (await res.json()) as { id?: string };
      answers.set(`${call.method} ${call.path}`, { status: res.status, body });
      // The setup calls name the run the start made.
      if (call.path === '/api/dispatch/start' && body.id) places.lathe = { ...places.lathe, jsgId: body.id };
    }
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  it('answers every call, reports, live operations and work orders, as the document describes, field for field', () => {
    const wrong: string[] = [];
    for (const call of KEY_CALLS) {
      const { status, body } = answers.get(`${call.method} ${call.path}`)!;
      // The Cycles dashboard is for the one company the deployment names (not this test's): its 403.
      if (call.path === '/api/dashboard/cycles' && status === 403) continue;
      const changed = status === 200 && CREATE_OR_CHANGE.has(`${call.method} ${call.path}`);
      if (status !== successOf(call) && !changed) {
        wrong.push(`${call.method} ${call.path}: ${status} ${JSON.stringify(body)}`);
        continue;
      }
      const read = documented(doc, call, status)!.safeParse(body);
      if (!read.success) wrong.push(`${call.method} ${call.path}: ${read.error.message.slice(0, 600)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('reads the plant: the answers checked carry rows, not only empty lists', () => {
    const body = (k: string) => answers.get(k)!.body as Record<string, unknown[]>;
    expect(body('get /api/reports/downtime').data!.length).toBeGreaterThan(0);
    expect(body('get /api/reports/operation').cycleEvents!.length).toBeGreaterThan(0);
    expect(body('get /api/reports/cycles').cycles!.length).toBeGreaterThan(0);
    expect(body('get /api/downtime').items!.length).toBeGreaterThan(0);
    expect(body('post /api/oee/bymachine').machines!.length).toBeGreaterThan(0);
    // The shop's machine, the plant's, the lathe and the manual work center.
    expect(body('get /api/dashboard').machines!.length).toBe(4);
  });

  it('refuses an answer with a field the document does not name, or without one it requires', () => {
    const call = DOCUMENTED_CALLS.find((c) => c.method === 'get' && c.path === '/api/reports/downtime')!;
    const schema = documented(doc, call)!;
    const real = answers.get('get /api/reports/downtime')!.body as Record<string, Record<string, unknown>>;
    expect(schema.safeParse(real).success).toBe(true);
    expect(schema.safeParse({ ...real, extra: 1 }).success).toBe(false);
    expect(schema.safeParse({ ...real, summary: { ...real.summary, extra: 1 } }).success).toBe(false);
    const { summary: _summary, ...withoutSummary } = real;
    expect(schema.safeParse(withoutSummary).success).toBe(false);
  });

  it('answers its errors in the one shape the document names, with code and message', async () => {
    const error = z.fromJSONSchema(doc.components.schemas.Error as Parameters<typeof z.fromJSONSchema>[0]);
    const key = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const unknownRun = await h.app.request(`/api/productionruns/${crypto.randomUUID()}`, { headers: key });
    const badRange = await h.app.request('/api/reports/downtime?start=2&end=1', { headers: key });
    const noKey = await h.app.request('/api/reports/downtime?start=1&end=2');
    const statuses = [unknownRun, badRange, noKey].map((r) => r.status);
    expect(statuses).toEqual([404, 400, 401]);
    for (const res of [unknownRun, badRange, noKey]) {
      const body: unknown = await res.json();
      expect(error.safeParse(body).success, JSON.stringify(body)).toBe(true);
      expect(error.safeParse({}).success).toBe(false);
    }
    const described = doc.paths['/api/productionruns/{id}']!.get!.responses;
    expect(Object.keys(described)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
  });
});
