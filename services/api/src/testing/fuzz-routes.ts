import fc from 'fast-check';
import type { ApiHarness } from './app';
import { aUser } from './builders';
import { ADMIN_ROUTES } from './admin-matrix';
import type { MatrixShop } from './admin-matrix';
import { aShop, asQuery, ROUTES, withFreshIds } from './route-table';
import { isJsonContentType } from '../http/content-type';
import { TIME_FIELDS } from '../http/time-bounds';

// Fuzzing every route of the app's own route table (app.routes, so a route added later is fuzzed without being
// listed here) with generated bodies, queries and path parameters, as a signed-in root admin (every route is
// open to it, internal ones included). Valid bodies of the route tables (route-table.ts, admin-matrix.ts) are
// the seeds that generated bodies start from, so the fuzz reaches past the first validation.

export interface FuzzTarget {
  method: string;
  /** The route pattern, e.g. /api/machines/:id or /api/tablets/:id/:action{refresh|restart}. */
  path: string;
  seed?: Record<string, unknown>;
  /** A real record id for the pattern's parameters (the seed route's). */
  id?: string;
}

export interface FuzzCase {
  path: string;
  /** The raw body; absent: none sent. */
  raw?: string;
  /** The body's Content-Type; absent: application/json as the apps send it; null: no header at all. */
  contentType?: string | null;
}

/**
 * Routes left out: DELETE /logout ends the fuzzing session (that the caller then gets 401 everywhere is not a
 * finding); the live channel and tablet registration are WebSocket upgrades, which take no body or query of
 * their own (their messages go over the socket).
 */
const SKIPPED = new Set(['DELETE /logout', 'GET /live', 'GET /tablet-auth']);

export interface FuzzCaller {
  cookie: string;
  shop: MatrixShop;
  /** Sign in again (a fuzzed call may revoke the caller's own sessions: POST /api/profile/revoke-sessions). */
  relogin(): Promise<void>;
}

/** A root admin of a company with a shop (route-table.ts aShop), signed in. */
export async function aFuzzCaller(h: ApiHarness): Promise<FuzzCaller> {
  const me = await h.tenant();
  const root = await aUser(h.t.db, me.company, { role: 'admin', isRoot: true });
  const caller = {
    cookie: await h.login(root.email, root.password),
    shop: undefined as unknown as MatrixShop,
    async relogin() {
      caller.cookie = await h.login(root.email, root.password);
    },
  };
  const shop = await aShop(h, me.company, caller.cookie);
  caller.shop = {
    ...shop,
    companyName: me.company.name,
    apiKeyId: crypto.randomUUID(),
    tabletTargetId: shop.tabletId,
  };
  return caller;
}

/** Every route the app answers (methods other than ALL), once each, with a seed body and id where a table has one. */
export function fuzzTargets(app: ApiHarness['app'], shop: MatrixShop): FuzzTarget[] {
  const seeds = new Map<string, { seed?: Record<string, unknown>; id?: string }>();
  for (const r of [...ROUTES, ...ADMIN_ROUTES]) {
    const key = `${r.method} ${r.path}`;
    if (seeds.has(key)) continue;
    const route = r as { body?: (s: MatrixShop) => Record<string, unknown>; id?: (s: MatrixShop) => string };
    seeds.set(key, {
      ...(route.body ? { seed: route.body(shop) } : {}),
      ...(route.id ? { id: route.id(shop) } : {}),
    });
  }
  const out = new Map<string, FuzzTarget>();
  for (const r of app.routes) {
    const key = `${r.method} ${r.path}`;
    if (r.method === 'ALL' || r.path.includes('*') || SKIPPED.has(key) || out.has(key)) continue;
    // Seeds are written with :id; the app names some parameters otherwise (:machineId).
    const seed = seeds.get(key) ?? seeds.get(`${r.method} ${r.path.replace(/:\w+(\{[^}]*\})?/g, ':id')}`);
    out.set(key, { method: r.method, path: r.path, ...seed });
  }
  return [...out.values()];
}

/** Values that have broken parsers and SQL elsewhere: out-of-range numbers, odd text, wrong types. */
const nasty = fc.constantFrom<unknown>(
  null,
  '',
  ' ',
  -1,
  0,
  1.5,
  1e300,
  -1e300,
  2 ** 31,
  2 ** 53,
  -(2 ** 63),
  'NaN',
  'Infinity',
  '2025-02-30',
  '9999-12-31T23:59:59Z',
  "1' OR '1'='1",
  '\u0000',
  '%00',
  '../../etc/passwd',
  '🙂'.repeat(50),
  'x'.repeat(5000),
  [],
  {},
  [null],
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
);
/**
 * Absurd times (decision 0980): year 1, before 2014-04-01, 1970, year 9999, the largest Date, fractions, and a
 * few good ones (2025) so the rest of a body still gets through; as numbers or as query text alike.
 */
const times = fc.constantFrom<number>(
  -62135596800000,
  -1,
  0,
  1000,
  1_000_000,
  Date.UTC(2014, 2, 31),
  Date.UTC(9999, 11, 31),
  8.64e15,
  -8.64e15,
  1_763_800_000_000.5,
  1_763_800_000_000,
  1_763_700_000_000,
);
/** Absurd ranges: start after end, zero length, spans of years and of centuries, year 1 → now. */
const ranges = fc.constantFrom<[number, number]>(
  [1_763_800_000_000, 1_763_700_000_000],
  [1_763_800_000_000, 1_763_800_000_000],
  [0, 1_763_800_000_000],
  [-62135596800000, 1_763_800_000_000],
  [Date.UTC(2014, 3, 1), 1_763_800_000_000],
  [1_763_800_000_000 - 3 * 365 * 86_400_000, 1_763_800_000_000],
  [1_763_800_000_000, Date.UTC(9999, 0, 1)],
  [1_763_700_000_000, 1_763_800_000_000],
);

/** The seed with its time fields replaced by absurd times, or its range by an absurd range. */
function timed(seed: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> | null {
  const keys = Object.keys(seed).filter((k) => TIME_FIELDS.has(k));
  if (keys.length === 0) return null;
  const pair = [
    ['start', 'end'],
    ['startAt', 'endAt'],
  ].find(([s, e]) => keys.includes(s!) && keys.includes(e!));
  return fc.oneof(
    fc
      .array(times, { minLength: keys.length, maxLength: keys.length })
      .map((ts) => ({ ...seed, ...Object.fromEntries(keys.map((k, i) => [k, ts[i]])) })),
    ...(pair ? [ranges.map(([s, e]) => ({ ...seed, [pair[0]!]: s, [pair[1]!]: e }))] : []),
  );
}

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: times },
  { weight: 3, arbitrary: nasty },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** The seed with some of its fields (nested ones included) replaced, removed, or joined by unknown ones. */
function mutated(seed: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(seed);
  if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 4 });
  return fc
    .tuple(
      fc.subarray(keys, { minLength: 1 }),
      fc.array(value, { minLength: keys.length, maxLength: keys.length }),
      fc.boolean(),
      fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 2 }),
    )
    .chain(([picked, values, drop, extra]) => {
      const out: Record<string, unknown> = { ...seed, ...extra };
      const nested: Array<fc.Arbitrary<[string, unknown]>> = [];
      picked.forEach((k, i) => {
        const v = seed[k];
        if (drop && i === 0) delete out[k];
        else if (v && typeof v === 'object' && !Array.isArray(v) && i % 2 === 1)
          nested.push(mutated(v as Record<string, unknown>).map((m) => [k, m] as [string, unknown]));
        else if (Array.isArray(v) && v[0] && typeof v[0] === 'object' && i % 2 === 1)
          nested.push(mutated(v[0] as Record<string, unknown>).map((m) => [k, [m]] as [string, unknown]));
        else out[k] = values[i];
      });
      return nested.length === 0
        ? fc.constant(out)
        : fc.tuple(...nested).map((pairs) => ({ ...out, ...Object.fromEntries(pairs) }));
    });
}

const rawBodies = fc.oneof(
  fc.constantFrom(
    '{not json',
    'null',
    '[]',
    '"text"',
    '42',
    '{}',
    '{"a":',
    '\u0000',
    '{"__proto__":{"x":1}}',
  ),
  fc.string({ maxLength: 60 }),
);

/**
 * Content types a client may label a body with (decision 0994): mostly the apps' JSON, else what a form, a
 * script or a probe sends. Only `application/json` (charset utf-8 if any) is parsed; the rest answer 415.
 */
const contentTypes: fc.Arbitrary<string | null | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | null>(
      null,
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----takt',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/xml',
      'application/vnd.api+json',
      'APPLICATION/JSON; Charset="UTF-8"',
      'application/json;charset=utf-8',
    ),
  },
);

/** Whether the app must refuse this case with 415: a non-empty body not labelled JSON (http/content-type.ts). */
export const expectsUnsupportedType = (c: FuzzCase): boolean =>
  c.raw !== undefined && c.raw !== '' && c.contentType !== undefined && !isJsonContentType(c.contentType);

/** A path parameter: the real record, other ids, odd text (percent-encoded as a client would send it). */
function parameter(id: string | undefined): fc.Arbitrary<string> {
  return fc
    .oneof(
      ...(id ? [{ weight: 3, arbitrary: fc.constant(id) }] : []),
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('0', '-1', 'null', "1' OR '1'='1", 'x'.repeat(2000), '%E0%A4%A'),
      },
    )
    .map((p) => (/%[0-9A-F]{0,2}$/i.test(p) && p.startsWith('%') ? p : encodeURIComponent(p)));
}

/** Generated requests for `target`: its path parameters, a query, and for writes a body. */
export function fuzzCases(target: FuzzTarget): fc.Arbitrary<FuzzCase> {
  const params = [...target.path.matchAll(/:(\w+)(\{([^}]*)\})?/g)];
  const paramArbs = params.map((m) =>
    m[3] ? fc.oneof(fc.constantFrom(...m[3].split('|')), parameter(undefined)) : parameter(target.id),
  );
  const seed = target.seed;
  const withTimes = seed ? timed(seed) : null;
  const query: fc.Arbitrary<string> = fc.oneof(
    fc.constant(target.method === 'GET' && seed ? asQuery(seed) : ''),
    ...(withTimes && target.method === 'GET' ? [withTimes.map((m) => asQuery(m))] : []),
    ...(seed
      ? [
          mutated(seed).map((m) =>
            m && typeof m === 'object' && !Array.isArray(m) ? asQuery(m as Record<string, unknown>) : '',
          ),
        ]
      : []),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), value, { maxKeys: 4 }).map((d) => asQuery(d)),
  );
  const body: fc.Arbitrary<string | undefined> =
    target.method === 'GET'
      ? fc.constant(undefined)
      : fc.oneof(
          ...(seed ? [{ weight: 4, arbitrary: mutated(seed).map((m) => JSON.stringify(m)) }] : []),
          ...(withTimes ? [{ weight: 2, arbitrary: withTimes.map((m) => JSON.stringify(m)) }] : []),
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: rawBodies },
          { weight: 1, arbitrary: fc.constant(undefined) },
        );
  return fc.tuple(fc.tuple(...paramArbs), query, body, contentTypes).map(([values, q, raw, type]) => {
    let i = 0;
    const path = target.path.replace(/:(\w+)(\{[^}]*\})?/g, () => values[i++]!);
    return {
      path: q ? `${path}?${q}` : path,
      ...(raw === undefined ? {} : { raw }),
      ...(raw === undefined || type === undefined ? {} : { contentType: type }),
    };
  });
}

/** Send one case as the apps do (same origin; JSON unless the case says otherwise), with fresh sync command ids. */
export async function sendCase(
  h: ApiHarness,
  cookie: string,
  method: string,
  c: FuzzCase,
): Promise<Response> {
  const type = c.contentType === undefined ? 'application/json' : c.contentType;
  const raw = c.raw === undefined ? undefined : withFreshIds(c.raw);
  return await h.app.request(c.path, {
    method,
    headers: { cookie, origin: 'http://localhost', ...(type === null ? {} : { 'content-type': type }) },
    // Bytes carry no type of their own (a string body would be labelled text/plain).
    ...(raw === undefined ? {} : { body: type === null ? new TextEncoder().encode(raw) : raw }),
  });
}

/**
 * Fuzz `targets`, `runs` cases each; the answers by status, and a line for each 5xx and each answer that breaks
 * the one-body-type rule (415 exactly for a non-empty body not labelled JSON; decision 0994).
 */
export async function fuzz(
  h: ApiHarness,
  caller: FuzzCaller,
  targets: readonly FuzzTarget[],
  runs: number,
  seed: number,
): Promise<{ byStatus: Map<number, number>; failures: string[]; cases: number }> {
  const byStatus = new Map<number, number>();
  const failures: string[] = [];
  let cases = 0;
  for (const [n, target] of targets.entries()) {
    for (const c of fc.sample(fuzzCases(target), { numRuns: runs, seed: seed + n })) {
      const res = await sendCase(h, caller.cookie, target.method, c);
      cases++;
      // A server takes each request in a turn of the event loop of its own. In-process on SQLite every await
      // here is a microtask, so without this the loop never turns: the finalizers of the requests' abort
      // signals never run and memory seems to grow by a kilobyte a case (bench/fuzz-routes.ts).
      await new Promise((resolve) => setImmediate(resolve));
      byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
      const unsupported = expectsUnsupportedType(c);
      if (res.status >= 500 || unsupported !== (res.status === 415)) {
        failures.push(
          `${target.method} ${c.path.slice(0, 200)} ${String(c.raw).slice(0, 300)}` +
            `${c.contentType !== undefined ? ` as ${String(c.contentType)}` : ''} → ${res.status}` +
            `${res.status < 500 ? ` (expected ${unsupported ? '' : 'no '}415)` : ''} ${(await res.text()).slice(0, 200)}`,
        );
      } else await res.body?.cancel();
      if (res.status === 401 && c.path.startsWith('/api/') && !c.path.startsWith('/api/gateway-push')) {
        await caller.relogin();
      }
    }
  }
  return { byStatus, failures, cases };
}
