import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiKeyCreatedSchema, apiKeySchema } from '@takt/domain';
import type { ApiKeyScope } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';
import type { Company } from '../repositories/company';

// reports-admin §2 API keys and the `Authorization: Bearer <key>` caller (decision 0840), on both dialects.

const keyList = z.array(apiKeySchema);
const DAY_MS = 24 * 3_600_000;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe.each(DIALECTS)('API keys on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A request with `Authorization: Bearer <token>` and nothing else. */
  const bearer = async (method: string, path: string, token: string, body?: unknown) =>
    h.app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const createKey = async (cookie: string, scopes: ApiKeyScope[], name = 'ERP export') => {
    const res = await h.send('POST', '/api/apikeys', cookie, { name, scopes });
    expect(res.status).toBe(201);
    return apiKeyCreatedSchema.parse(await res.json());
  };

  it('creates a key whose token is answered once and stored only as its sha256', async () => {
    const { company, cookie } = await h.tenant();
    const created = await createKey(cookie, ['reports:read', 'operations:write', 'reports:read'], ' ERP ');
    expect(created).toMatchObject({
      name: 'ERP',
      scopes: ['reports:read', 'operations:write'],
      lastUsedAt: null,
      createdAt: h.clock.now,
    });
    expect(created.accessToken).toMatch(/^tak_[\w-]{43}$/);
    expect(created.prefix).toBe(created.accessToken.slice(0, 8));
    const rows = await h.t.db
      .selectFrom('api_keys')
      .selectAll()
      .where('company_id', '=', company.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(sha256(created.accessToken));
    expect(JSON.stringify(rows)).not.toContain(created.accessToken);

    const listed = await (await h.get('/api/apikeys', cookie)).json();
    expect(JSON.stringify(listed)).not.toContain(created.accessToken);
    expect(keyList.parse(listed)).toEqual([
      {
        id: created.id,
        name: 'ERP',
        scopes: ['reports:read', 'operations:write'],
        prefix: created.prefix,
        createdAt: created.createdAt,
        lastUsedAt: null,
        expiresAt: created.createdAt + 365 * DAY_MS,
      },
    ]);
  });

  it('expires a key after its lifetime with a clear 401, and renews it with the same token (decision 0990)', async () => {
    const { company, cookie } = await h.tenant();
    const res = await h.send('POST', '/api/apikeys', cookie, {
      name: 'BI',
      scopes: ['reports:read'],
      expiresInDays: 30,
    });
    const key = apiKeyCreatedSchema.parse(await res.json());
    expect(key.expiresAt).toBe(h.clock.now + 30 * DAY_MS);
    expect((await bearer('GET', '/api/dashboard', key.accessToken)).status).toBe(200);
    h.clock.now += 30 * DAY_MS;
    const expired = await bearer('GET', '/api/dashboard', key.accessToken);
    expect(expired.status).toBe(401);
    expect(await errorOf(expired)).toEqual({
      code: 'API_KEY_EXPIRED',
      message: `This API key expired on ${new Date(key.expiresAt!).toISOString().slice(0, 10)}. An admin can renew it or make a new one.`,
    });
    // The admin's session has ended meanwhile: another admin of the company renews it.
    const admin = await loginAs(h, company, 'admin');
    const renewed = await h.send('PUT', `/api/apikeys/${key.id}`, admin, { expiresInDays: 90 });
    expect(apiKeySchema.parse(await renewed.json()).expiresAt).toBe(h.clock.now + 90 * DAY_MS);
    expect((await bearer('GET', '/api/dashboard', key.accessToken)).status).toBe(200);
    // At most two years; whole days.
    for (const expiresInDays of [0, 731, 1.5])
      expect(
        (await h.send('POST', '/api/apikeys', admin, { name: 'x', scopes: ['reports:read'], expiresInDays }))
          .status,
      ).toBe(400);
  });

  it('edits name and scopes, deletes, and lists by name', async () => {
    const { cookie } = await h.tenant();
    const b = await createKey(cookie, ['reports:read'], 'B');
    await createKey(cookie, ['reports:read'], 'A');
    const edited = await h.send('PUT', `/api/apikeys/${b.id}`, cookie, {
      name: 'C',
      scopes: ['operations:write'],
    });
    expect(edited.status).toBe(200);
    expect(apiKeySchema.parse(await edited.json())).toMatchObject({
      name: 'C',
      scopes: ['operations:write'],
    });
    const renamed = await h.send('PUT', `/api/apikeys/${b.id}`, cookie, { name: 'D' });
    expect(apiKeySchema.parse(await renamed.json()).scopes).toEqual(['operations:write']);
    expect(keyList.parse(await (await h.get('/api/apikeys', cookie)).json()).map((k) => k.name)).toEqual([
      'A',
      'D',
    ]);
    expect((await h.send('DELETE', `/api/apikeys/${b.id}`, cookie)).status).toBe(204);
    expect((await h.send('DELETE', `/api/apikeys/${b.id}`, cookie)).status).toBe(404);
    expect(keyList.parse(await (await h.get('/api/apikeys', cookie)).json()).map((k) => k.name)).toEqual([
      'A',
    ]);
  });

  it('refuses a key without name or scopes, or with an unknown scope, with the list of problems', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('POST', '/api/apikeys', cookie, { name: ' ', scopes: [] });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(issueFields(e)).toEqual(['name', 'scopes']);
    expect(e.message).toContain('Missing required field: Name');
    const unknown = await h.send('POST', '/api/apikeys', cookie, { name: 'x', scopes: ['admin'] });
    expect(unknown.status).toBe(400);
    const { id } = await createKey(cookie, ['reports:read']);
    expect((await h.send('PUT', `/api/apikeys/${id}`, cookie, {})).status).toBe(400);
  });

  describe('who may manage keys (admins of the company only)', () => {
    type Who = 'admin' | 'manager' | 'operator' | 'kiosk' | 'tablet' | 'key' | 'otherAdmin' | 'nobody';
    const expected: Record<Who, { list: number; create: number; edit: number; remove: number }> = {
      admin: { list: 200, create: 201, edit: 200, remove: 204 },
      manager: { list: 403, create: 403, edit: 403, remove: 403 },
      operator: { list: 403, create: 403, edit: 403, remove: 403 },
      kiosk: { list: 403, create: 403, edit: 403, remove: 403 },
      tablet: { list: 403, create: 403, edit: 403, remove: 403 },
      // Even a key with every scope: keys cannot mint keys.
      key: { list: 403, create: 403, edit: 403, remove: 403 },
      // Another company's admin: its own (empty) list, and this company's key does not exist for it.
      otherAdmin: { list: 200, create: 201, edit: 404, remove: 404 },
      nobody: { list: 401, create: 401, edit: 401, remove: 401 },
    };

    it.each(Object.keys(expected) as Who[])('%s', async (who) => {
      const { company, cookie: adminCookie } = await h.tenant();
      const target = await createKey(adminCookie, ['reports:read']);
      const call = await callerOf(h, company, who, adminCookie, bearer);
      const answers = {
        list: (await call('GET', '/api/apikeys')).status,
        create: (await call('POST', '/api/apikeys', { name: 'n', scopes: ['reports:read'] })).status,
        edit: (await call('PUT', `/api/apikeys/${target.id}`, { name: 'renamed' })).status,
        remove: (await call('DELETE', `/api/apikeys/${target.id}`)).status,
      };
      expect(answers).toEqual(expected[who]);
      if (who !== 'admin') {
        const still = keyList.parse(await (await h.get('/api/apikeys', adminCookie)).json());
        expect(still.find((k) => k.id === target.id)?.name).toBe('ERP export');
      }
      if (who === 'otherAdmin') {
        const listed = keyList.parse(await (await call('GET', '/api/apikeys')).json());
        expect(listed.map((k) => k.id)).not.toContain(target.id);
      }
    });
  });

  describe('calls made with a key (Authorization: Bearer)', () => {
    const T = 1_763_800_000_000;
    const reportQuery = `start=${T - 86_400_000}&end=${T}`;
    const calls = {
      dashboard: ['GET', '/api/dashboard'],
      downtimeReport: ['GET', `/api/reports/downtime?${reportQuery}`],
      rejects: ['GET', `/api/partadjustment/allRejectsByCategory?${reportQuery}`],
      operators: ['GET', '/api/operators'],
      operatorLogout: ['POST', '/api/operatorruns/stop'],
      me: ['GET', '/api/me'],
      apiKeys: ['GET', '/api/apikeys'],
      emailPreferences: ['GET', '/api/emailnotifications'],
      tablets: ['GET', '/api/tablets'],
      sync: ['POST', '/api/sync'],
      userToken: ['GET', '/api/user-token'],
      eventExport: ['POST', '/api/reports/event/queue'],
    } as const;
    type Call = keyof typeof calls;
    const OK = 'ok';
    // 'ok': anything but 401/403 (the call ran; its own validation may still answer 400 or 404).
    // Closed to every key, whatever its scopes; GET /api/me is open to every key.
    const everyKey = {
      me: OK,
      apiKeys: 403,
      emailPreferences: 403,
      tablets: 403,
      sync: 403,
      userToken: 403,
      eventExport: 403,
    } as const;
    const expected: Record<'reports' | 'operations', Record<Call, 'ok' | 403>> = {
      reports: {
        ...everyKey,
        dashboard: OK,
        downtimeReport: OK,
        rejects: OK,
        operators: 403,
        operatorLogout: 403,
      },
      operations: {
        ...everyKey,
        dashboard: 403,
        downtimeReport: 403,
        rejects: 403,
        operators: OK,
        operatorLogout: OK,
      },
    };

    it.each(['reports', 'operations'] as const)('a key with only the %s scope', async (which) => {
      const { company, cookie } = await h.tenant();
      const machineId = await aMachine(h.t.db, company);
      const key = await createKey(cookie, [which === 'reports' ? 'reports:read' : 'operations:write']);
      const got: Record<string, 'ok' | number> = {};
      for (const [name, [method, path]] of Object.entries(calls)) {
        const body = method === 'POST' ? { machineId } : undefined;
        const res = await bearer(method, path, key.accessToken, body);
        got[name] = res.status === 401 || res.status === 403 ? res.status : OK;
        if (res.status >= 500) throw new Error(`${name}: ${res.status} ${await res.text()}`);
      }
      expect(got).toEqual(expected[which]);
    });

    it("sees only its own company's data, acts as a non-admin, and records when it was last used", async () => {
      const { company, cookie } = await h.tenant();
      const mine = await aMachine(h.t.db, company, { name: 'Mine' });
      const other = await h.tenant();
      await aMachine(h.t.db, other.company, { name: 'Theirs' });
      const key = await createKey(cookie, ['reports:read']);
      const res = await bearer('GET', '/api/dashboard', key.accessToken);
      expect(res.status).toBe(200);
      const { machines } = (await res.json()) as { machines: Array<{ id: string }> };
      expect(machines.map((t) => t.id)).toEqual([mine]);
      const me = (await (await bearer('GET', '/api/me', key.accessToken)).json()) as Record<string, unknown>;
      expect(me).toMatchObject({ isAdmin: false, isRoot: false, displayName: 'ERP export' });
      const [listed] = keyList.parse(await (await h.get('/api/apikeys', cookie)).json());
      expect(listed!.lastUsedAt).toBe(h.clock.now);
    });

    it('stops at once when deleted, and follows edited scopes', async () => {
      const { cookie } = await h.tenant();
      const key = await createKey(cookie, ['operations:write']);
      expect((await bearer('GET', '/api/dashboard', key.accessToken)).status).toBe(403);
      await h.send('PUT', `/api/apikeys/${key.id}`, cookie, { scopes: ['reports:read'] });
      expect((await bearer('GET', '/api/dashboard', key.accessToken)).status).toBe(200);
      await h.send('DELETE', `/api/apikeys/${key.id}`, cookie);
      const gone = await bearer('GET', '/api/dashboard', key.accessToken);
      expect(gone.status).toBe(401);
      expect((await errorOf(gone)).code).toBe('NOT_AUTHENTICATED');
    });

    it('answers 401 to an unknown or malformed key', async () => {
      await h.tenant();
      expect((await bearer('GET', '/api/dashboard', `tak_${'x'.repeat(43)}`)).status).toBe(401);
      expect((await bearer('GET', '/api/dashboard', 'tak_short')).status).toBe(401);
    });
  });
});

type Call = (method: string, path: string, body?: unknown) => Promise<Response>;

/** A way to call the API as `who`, next to the admin of `company`. */
async function callerOf(
  h: ApiHarness,
  company: Company,
  who: string,
  adminCookie: string,
  bearer: (method: string, path: string, token: string, body?: unknown) => Promise<Response>,
): Promise<Call> {
  const withCookie =
    (cookie: string): Call =>
    (method, path, body) =>
      method === 'GET' ? h.get(path, cookie) : h.send(method as 'POST', path, cookie, body);
  switch (who) {
    case 'admin':
      return withCookie(adminCookie);
    case 'manager':
    case 'operator':
    case 'kiosk':
      return withCookie(await loginAs(h, company, who));
    case 'tablet':
      return withCookie((await aTablet(h.t.db, company, null, h.clock.now)).cookie);
    case 'key': {
      const res = await h.send('POST', '/api/apikeys', adminCookie, {
        name: 'all scopes',
        scopes: ['reports:read', 'operations:write'],
      });
      const { accessToken } = apiKeyCreatedSchema.parse(await res.json());
      return (method, path, body) => bearer(method, path, accessToken, body);
    }
    case 'otherAdmin':
      return withCookie((await h.tenant()).cookie);
    default:
      return withCookie('');
  }
}
