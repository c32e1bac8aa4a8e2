import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { aShop, asQuery, ROUTES, sendRaw } from '../testing/route-table';
import type { Method } from '../testing/route-table';

// Malformed input on every live-operations write route, sync command and query: never a 5xx (nor a sync
// command answered `error`), always a 4xx with a code and a message (STYLE.md "bad input answers 4xx with
// the list of problems"), and the version header on each answer.

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

describe.each(DIALECTS)('malformed requests on %s', (dialect) => {
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
    for (const route of ROUTES) {
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

  it('refuses numbers the columns cannot hold, on both dialects, naming the field', async () => {
    const me = await h.tenant();
    const shop = await aShop(h, me.company, me.cookie);
    const TOO_BIG = 2 ** 31;
    const jm = (fields: Record<string, unknown>) => ({
      job_id: shop.jobId,
      job_machine: { machine_id: shop.machineId, ...fields },
    });
    const cases: Array<[Method, string, unknown, string, string]> = [
      [
        'POST',
        '/api/jobs',
        { name: 'J', actualParts: TOO_BIG },
        'actualParts',
        'Actual parts must be at most',
      ],
      ['POST', '/api/jobs', { name: 'J', expectedCycleTime: 1.5 }, 'expectedCycleTime', 'whole number'],
      ['POST', '/api/jobs', { name: 'J', setuptime: TOO_BIG }, 'setuptime', 'Setup time must be at most'],
      ['POST', '/api/jobmachines', jm({ requiredCycles: TOO_BIG }), 'job_machine.requiredCycles', 'at most'],
      [
        'POST',
        '/api/jobmachines',
        jm({ idealCycleTime: 1e300 }),
        'job_machine.idealCycleTime',
        'whole number',
      ],
      [
        'PUT',
        '/api/setup/stages',
        { setupStages: [{ name: 'A', stageOrder: TOO_BIG, setupPercentage: 100 }] },
        'setupStages',
        'Stage order must be at most',
      ],
      [
        'POST',
        '/api/annotationtypes',
        { name: 'R', plannedBehavior: 'plannedWithLimit', plannedLimitMs: 0.5 },
        'plannedLimitMs',
        'whole number of milliseconds',
      ],
      [
        'POST',
        '/api/partadjustment',
        { machine_id: shop.machineId, category_id: shop.rejectReasonId, scrapcount: TOO_BIG, scrap: true },
        'scrapcount',
        'Count must be at most 2147483647',
      ],
      [
        'POST',
        '/api/partadjustment',
        { machine_id: shop.machineId, count: -TOO_BIG, scrap: false },
        'count',
        'Count must be between -2147483647 and 2147483647',
      ],
    ];
    for (const [method, path, body, field, text] of cases) {
      const res = await sendRaw(h, me.cookie, method, path, JSON.stringify(body));
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const { error } = (await res.json()) as {
        error: { issues: Array<{ field: string; message: string }> };
      };
      expect(error.issues.find((i) => i.field === field)?.message, `${path} ${field}`).toContain(text);
    }
  });

  it('answers an empty patch with the record unchanged', async () => {
    const me = await h.tenant();
    const shop = await aShop(h, me.company, me.cookie);
    for (const path of [
      `/api/operators/${shop.operatorId}`,
      `/api/partadjustmenttypes/${shop.rejectReasonId}`,
    ]) {
      const before = await (await h.get(path.replace(/\/[^/]+$/, '?includeHidden=true'), me.cookie)).json();
      const res = await sendRaw(h, me.cookie, 'PUT', path, '{}');
      expect(res.status, path).toBe(200);
      expect(await (await h.get(path.replace(/\/[^/]+$/, '?includeHidden=true'), me.cookie)).json()).toEqual(
        before,
      );
    }
  });
});
