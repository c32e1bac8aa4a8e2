import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApiKeyScope, ProductTier } from '@takt/domain';
import { API_KEY_SCOPES, PRODUCT_TIERS } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aUser } from '../testing/builders';
import { aShop, asQuery, withFreshIds } from '../testing/route-table';
import { aTablet } from '../testing/tablet-builders';
import { ADMIN_PREFIXES, ADMIN_ROUTES, CALLERS, expectedStatus } from '../testing/admin-matrix';
import type { CallerName, MatrixRoute, MatrixShop } from '../testing/admin-matrix';

// Every administration route × every kind of caller × every product tier where reports-admin §6 gates by
// FullProduct, on both dialects: admin, manager, operator and kiosk users, a tablet, API keys with and
// without the route's scope, and another company's admin. The expected status comes from the §6 rules in
// testing/admin-matrix.ts, not from the routes. One harness and one plant per dialect; the requests run one
// after another over it.

/** How a caller authenticates: a cookie (session or tablet) or an API key. */
type Credentials = { cookie: string } | { bearer: string };

interface TierWorld {
  tier: ProductTier;
  shop: MatrixShop;
  callers: Record<Exclude<CallerName, 'keyWithScope' | 'keyWithoutScope' | 'otherCompanyAdmin'>, Credentials>;
  /** Keys by the scopes they hold: `all` every scope, and one key per scope. */
  keys: Record<ApiKeyScope | 'all', Credentials>;
}

const SCOPES = API_KEY_SCOPES;

async function aKey(h: ApiHarness, cookie: string, scopes: readonly ApiKeyScope[]) {
  const res = await h.send('POST', '/api/apikeys', cookie, { name: `Key ${scopes.join(' ')}`, scopes });
  if (res.status !== 201) throw new Error(`key setup failed: ${res.status} ${await res.text()}`);
  return z.object({ id: z.string(), accessToken: z.string() }).parse(await res.json());
}

/** A company of `tier` with its callers and a shop. Built on the full tier, then moved (aShop dispatches jobs). */
async function aTierWorld(h: ApiHarness, tier: ProductTier): Promise<TierWorld> {
  const { company, cookie } = await h.tenant();
  const base = await aShop(h, company, cookie);
  const userCookie = async (role: 'manager' | 'operator' | 'kiosk') => {
    const u = await aUser(h.t.db, company, { role });
    return { cookie: await h.login(u.email, u.password) };
  };
  const tablet = await aTablet(h.t.db, company, null, h.clock.now);
  const keyOf = async (scopes: readonly ApiKeyScope[]) => ({
    bearer: (await aKey(h, cookie, scopes)).accessToken,
  });
  const world: TierWorld = {
    tier,
    shop: {
      ...base,
      companyName: company.name,
      apiKeyId: (await aKey(h, cookie, ['reports:read'])).id,
      tabletTargetId: (await aTablet(h.t.db, company, null, h.clock.now)).id,
    },
    callers: {
      admin: { cookie },
      manager: await userCookie('manager'),
      operator: await userCookie('operator'),
      kiosk: await userCookie('kiosk'),
      tablet: { cookie: tablet.cookie },
    },
    keys: {
      all: await keyOf(SCOPES),
      'reports:read': await keyOf(['reports:read']),
      'operations:write': await keyOf(['operations:write']),
      'jobs:write': await keyOf(['jobs:write']),
    },
  };
  await h.t.db.updateTable('companies').set({ product_tier: tier }).where('id', '=', company.id).execute();
  return world;
}

/** The key "with" and "without" the route's scope: a route no scope opens is tried with a key holding all. */
function keyFor(world: TierWorld, route: MatrixRoute, withScope: boolean): Credentials {
  if (!route.scope) return withScope ? world.keys.all : world.keys['reports:read'];
  if (withScope) return world.keys[route.scope];
  return world.keys[SCOPES.find((s) => s !== route.scope)!];
}

function send(h: ApiHarness, route: MatrixRoute, shop: MatrixShop, who: Credentials) {
  const path = route.id ? route.path.replace(':id', encodeURIComponent(route.id(shop))) : route.path;
  const body = route.body?.(shop);
  const auth: Record<string, string> =
    'cookie' in who ? { cookie: who.cookie } : { authorization: `Bearer ${who.bearer}` };
  const headers = { ...auth, origin: 'http://localhost', 'content-type': 'application/json' };
  if (route.method === 'GET')
    return h.app.request(body ? `${path}?${asQuery(body)}` : path, { method: 'GET', headers });
  return h.app.request(path, {
    method: route.method,
    headers,
    ...(body ? { body: withFreshIds(JSON.stringify(body)) } : {}),
  });
}

/** A Hono path with `:name{a|b}` parameters as the paths it matches (`/x/:action{a|b}` → `/x/a`, `/x/b`). */
function alternatives(path: string): string[] {
  const m = /:\w+\{([^}]+)\}/.exec(path);
  if (!m) return [path];
  return m[1]!.split('|').flatMap((alt) => alternatives(path.replace(m[0], alt)));
}

const label = (r: MatrixRoute) => `${r.method} ${r.path}${r.full ? ' (FullProduct body)' : ''}`;

describe.each(DIALECTS)('administration routes by caller and tier on %s', (dialect) => {
  let h: ApiHarness;
  let worlds: TierWorld[];
  let other: Credentials;
  beforeAll(async () => {
    h = await apiHarness(dialect);
    worlds = [];
    for (const tier of PRODUCT_TIERS) worlds.push(await aTierWorld(h, tier));
    other = { cookie: (await h.tenant()).cookie };
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('answers each caller as reports-admin §6 says, on each tier', async () => {
    const wrong: string[] = [];
    let requests = 0;
    for (const world of worlds) {
      // Tiers matter only where §6 gates by FullProduct; every other route runs on the full tier.
      const routes = ADMIN_ROUTES.filter((r) => r.full || world.tier === 'full');
      for (const route of routes) {
        for (const caller of CALLERS) {
          const who =
            caller === 'otherCompanyAdmin'
              ? other
              : caller === 'keyWithScope' || caller === 'keyWithoutScope'
                ? keyFor(world, route, caller === 'keyWithScope')
                : world.callers[caller];
          const res = await send(h, route, world.shop, who);
          requests++;
          const want = expectedStatus(route, caller, world.tier);
          if (res.status !== want)
            wrong.push(
              `${world.tier} ${label(route)} as ${caller}: ${res.status}, want ${want} ${await res.text()}`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(requests).toBeGreaterThan(500);
  });

  it('lists every route under the administration mounts', () => {
    const covered = new Set(ADMIN_ROUTES.map((r) => `${r.method} ${r.path}`));
    const missing = h.app.routes
      .filter(
        (r) => r.method !== 'ALL' && ADMIN_PREFIXES.some((p) => r.path === p || r.path.startsWith(`${p}/`)),
      )
      .flatMap((r) => alternatives(r.path.replace(/\/$/, '')).map((path) => `${r.method} ${path}`))
      .filter((key) => !covered.has(key));
    expect([...new Set(missing)]).toEqual([]);
  });
});
