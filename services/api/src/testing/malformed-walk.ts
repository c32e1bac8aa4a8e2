import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from './app';
import type { ApiHarness } from './app';
import { aShop, asQuery, ROUTES, sendRaw } from './route-table';
import type { Method, RouteCase, Shop } from './route-table';

// Malformed input on every write route, sync command and query: never a 5xx (nor a sync command answered
// `error`), always a 4xx with a code and a message (STYLE.md "bad input answers 4xx with the list of
// problems"), and the version header on each answer. The walk is long, so the route table is dealt out to
// several test files (`part` of `parts`) that the runner can take in parallel (decision 0870).

const HUGE = 1e300;
/** Values each field is set to in turn: wrong types, numbers out of every column's range, unknown ids, long text. */
const BAD_VALUES: unknown[] = [
  null,
  'text',
  -1,
  1.5,
  HUGE,
  -HUGE,
  2 ** 53,
  2 ** 31,
  true,
  {},
  [],
  crypto.randomUUID(),
  'x'.repeat(5000),
];
const BAD_IDS = [crypto.randomUUID(), 'not-a-uuid', "1' OR '1'='1", '%E0%A4%A', 'x'.repeat(2000)];
/** Whole bodies that are not the object a route expects. */
const BAD_RAW_BODIES = ['{not json', 'null', '[]', '"text"', '42', '{}'];

/** Each field of a body broken one at a time, nested objects and first array items included. */
function mutations(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const [key, value] of Object.entries(body)) {
    for (const bad of BAD_VALUES) out.push({ ...body, [key]: bad });
    if (Array.isArray(value) && typeof value[0] === 'object' && value[0] !== null) {
      for (const m of mutations(value[0] as Record<string, unknown>)) out.push({ ...body, [key]: [m] });
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const m of mutations(value as Record<string, unknown>)) out.push({ ...body, [key]: m });
    }
  }
  return out;
}

interface ErrorResponse {
  error?: { code?: string; message?: string };
}

/** How many requests the walk sends for `route` (its body's shape decides; the shop's values do not). */
function requestsOf(route: RouteCase): number {
  const anyShop = new Proxy({} as Shop, { get: (_, key) => (key === 'T' ? 0 : 'x') });
  const body = route.body?.(anyShop);
  const ids = route.path.includes(':id') ? BAD_IDS.length + (route.id ? 1 : 0) : 1;
  const perId = !body ? 1 : mutations(body).length + (route.method === 'GET' ? 0 : BAD_RAW_BODIES.length);
  return ids * perId;
}

/**
 * The routes of part `part` of `parts`: dealt by their request counts, largest first, each to the part with
 * the fewest requests so far, so the files take about the same time.
 */
function routesOfPart(part: number, parts: number): RouteCase[] {
  const load = new Array<number>(parts).fill(0);
  const dealt: RouteCase[][] = Array.from({ length: parts }, () => []);
  const byCost = ROUTES.map((route) => ({ route, cost: requestsOf(route) })).sort((a, b) => b.cost - a.cost);
  for (const { route, cost } of byCost) {
    const lightest = load.indexOf(Math.min(...load));
    load[lightest]! += cost;
    dealt[lightest]!.push(route);
  }
  return dealt[part]!;
}

/** The walk over part `part` of `parts` of the route table (`routesOfPart`), on both dialects. */
export function describeMalformedWalk(part: number, parts: number): void {
  describe.each(DIALECTS)(`malformed requests (part ${part + 1} of ${parts}) on %s`, (dialect) => {
    let h: ApiHarness;
    beforeEach(async () => {
      h = await apiHarness(dialect);
    });
    afterEach(async () => {
      await h.close();
    });

    it('never answer 5xx; every 4xx carries an error code and message', async () => {
      const me = await h.tenant();
      const shop = await aShop(h, me.company, me.cookie);
      const failures: string[] = [];
      const check = async (method: Method, path: string, raw?: string) => {
        const res = await sendRaw(h, me.cookie, method, path, raw);
        const label = `${method} ${path.slice(0, 160)} ${String(raw).slice(0, 240)} → ${res.status}`;
        if (res.headers.get('MM-API-Version') === null) failures.push(`${label}: no MM-API-Version`);
        if (res.status >= 500) failures.push(label);
        else if (res.status >= 400) {
          const body = (await res.json().catch(() => null)) as ErrorResponse | null;
          if (!body?.error?.code || !body.error.message) failures.push(`${label}: no error code or message`);
        } else if (path === '/api/sync') {
          // A command the server failed on is answered `error` (retried forever), never refused with a text.
          const { results } = (await res.json()) as { results: Array<{ status: string; error?: unknown }> };
          for (const r of results) {
            if (r.status === 'error') failures.push(`${label}: sync ${JSON.stringify(r.error)}`);
          }
        }
      };
      for (const route of routesOfPart(part, parts)) {
        const ids = route.path.includes(':id') ? [...BAD_IDS, ...(route.id ? [route.id(shop)] : [])] : [''];
        for (const id of ids) {
          const path = route.path.replace(':id', encodeURIComponent(id));
          const body = route.body?.(shop);
          if (route.method === 'GET') {
            if (!body) await check('GET', path);
            else for (const m of mutations(body)) await check('GET', `${path}?${asQuery(m)}`);
          } else if (!body) {
            await check(route.method, path);
          } else {
            for (const raw of BAD_RAW_BODIES) await check(route.method, path, raw);
            for (const m of mutations(body)) await check(route.method, path, JSON.stringify(m));
          }
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);
  });
}
