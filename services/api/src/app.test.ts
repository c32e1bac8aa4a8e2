import { apiRules } from '@takt/ingest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dashboardResponseSchema, meSchema } from '@takt/domain';
import { createApp } from './app';
import { SESSION_COOKIE } from './auth/middleware';
import type { Deps } from './http/context';
import { aCompany, aGroup, aMachine, aUser } from './testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { API_VERSION } from './version';
import { inProcessBus } from './live/bus';

describe.each(DIALECTS)('HTTP API on %s', (dialect) => {
  let t: TestDb;
  let clock = 1_763_800_000_000;
  let app: ReturnType<typeof createApp>;

  const depsOn = (db: Deps['db']): Deps => ({
    db,
    dialect,
    now: () => clock,
    demoMode: false,
    secureCookies: false,
    staticRoot: null,
    bus: inProcessBus(),
    ingest: apiRules,
  });

  beforeEach(async () => {
    t = await freshDb(dialect);
    clock = 1_763_800_000_000;
    app = createApp(depsOn(t.db));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  async function login(email: string, password: string) {
    const res = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
    return { res, cookie };
  }

  it('answers 401 on every API route without a caller, with the version header', async () => {
    for (const path of ['/api/me', '/api/dashboard', '/api/nothing-here']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('MM-API-Version')).toBe(API_VERSION);
      expect((await res.json()).error.code).toBe('NOT_AUTHENTICATED');
    }
  });

  it('answers a server failure 500 with the §8 text and the version header', async () => {
    const gone = await freshDb(dialect);
    const broken = createApp(depsOn(gone.db));
    await gone.cleanup();
    // The failure is logged on purpose; keep the test output clean.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await broken.request('/api/me', { headers: { cookie: `${SESSION_COOKIE}=abc` } });
      expect(res.status).toBe(500);
      expect(res.headers.get('MM-API-Version')).toBe(API_VERSION);
      expect((await res.json()).error).toEqual({
        code: 'INTERNAL',
        message: 'An error occurred with your request.',
      });
    } finally {
      quiet.mockRestore();
    }
  });

  it('logs in with the right password and sets an httpOnly SameSite session cookie', async () => {
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company, { email: 'Ada@Shop.example' });
    const { res, cookie } = await login('ada@shop.example', user.password);
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const me = await app.request('/api/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const body = meSchema.parse(await me.json());
    expect(body.email).toBe('ada@shop.example');
    expect(body.company.id).toBe(company.id);
    expect(body.isAdmin).toBe(true);
    expect(body.permissions).toEqual(
      expect.arrayContaining(['PerformanceDashboard', 'Utilization', 'FullProduct']),
    );
  });

  it('refuses a wrong password or unknown e-mail with the same clear message', async () => {
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const wrong = await login(user.email, 'Not-the-password1');
    const unknown = await login('nobody@shop.example', 'whatever');
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    const a = await wrong.res.json();
    const b = await unknown.res.json();
    expect(a.error.message).toBe('The e-mail or password is incorrect.');
    expect(b.error.message).toBe(a.error.message);
    expect(wrong.cookie).toBe('');
  });

  it('answers 400 with the list of problems for a malformed login', async () => {
    const res = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'not-an-email' }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.issues.map((i: { field: string }) => i.field).sort()).toEqual(['email', 'password']);
    const bad = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(bad.status).toBe(400);
  });

  it('ends the session on DELETE /logout', async () => {
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const { cookie } = await login(user.email, user.password);
    expect((await app.request('/api/me', { headers: { cookie } })).status).toBe(200);
    const out = await app.request('/logout', {
      method: 'DELETE',
      headers: { cookie, origin: 'http://localhost' },
    });
    expect(out.status).toBe(204);
    expect((await app.request('/api/me', { headers: { cookie } })).status).toBe(401);
  });

  it('expires sessions after 30 days', async () => {
    const company = await aCompany(t.db);
    const user = await aUser(t.db, company);
    const { cookie } = await login(user.email, user.password);
    clock += 30 * 86_400_000 + 1;
    expect((await app.request('/api/me', { headers: { cookie } })).status).toBe(401);
  });

  it('refuses a cross-site form post (CSRF)', async () => {
    const res = await app.request('/logout', {
      method: 'DELETE',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(403);
  });

  it('serves GET /timesync with the server clock', async () => {
    const res = await app.request('/timesync');
    expect(await res.json()).toEqual({ now: clock });
  });

  it("shows a caller only their own company's machines", async () => {
    const mine = await aCompany(t.db);
    const theirs = await aCompany(t.db);
    const me = await aUser(t.db, mine);
    const group = await aGroup(t.db, mine, 'Mills');
    const m1 = await aMachine(t.db, mine, { name: 'Mill 1', groupIds: [group], sortOrder: 1 });
    const m2 = await aMachine(t.db, mine, { name: 'Lathe 1', sortOrder: 2 });
    await aMachine(t.db, theirs, { name: 'Secret machine' });
    await aGroup(t.db, theirs, 'Secret group');
    const { cookie } = await login(me.email, me.password);

    const res = await app.request('/api/dashboard', { headers: { cookie } });
    expect(res.status).toBe(200);
    const body = dashboardResponseSchema.parse(await res.json());
    expect(body.machines.map((m) => m.id)).toEqual([m1, m2]);
    expect(body.groups.map((g) => g.name)).toEqual(['Mills']);
    expect(body.machines[0]!.groupIds).toEqual([group]);
    expect(body.now).toBe(clock);

    const filtered = dashboardResponseSchema.parse(
      await (await app.request(`/api/dashboard?group=${group}`, { headers: { cookie } })).json(),
    );
    expect(filtered.machines.map((m) => m.name)).toEqual(['Mill 1']);
  });

  it('shows a machine that never reported as unavailable and not configured', async () => {
    const company = await aCompany(t.db);
    const me = await aUser(t.db, company);
    await aMachine(t.db, company, { name: 'New machine' });
    const { cookie } = await login(me.email, me.password);
    const body = dashboardResponseSchema.parse(
      await (await app.request('/api/dashboard', { headers: { cookie } })).json(),
    );
    expect(body.machines[0]).toMatchObject({
      status: 'UNAVAILABLE',
      statusSince: null,
      stale: true,
      connection: 'NOT CONFIGURED',
    });
  });

  it('turns a machine UNAVAILABLE when its heartbeat is older than 5 minutes, even if ingest went quiet', async () => {
    const company = await aCompany(t.db);
    const me = await aUser(t.db, company);
    const id = await aMachine(t.db, company, { name: 'Quiet' });
    await t.db
      .insertInto('machine_live')
      .values({
        machine_id: id,
        company_id: company.id,
        state: 'ACTIVE',
        state_since: clock - 60_000,
        connection: 'CONNECTED',
        connection_since: clock - 60_000,
        last_heartbeat: clock - 1000,
        execution: 'ACTIVE',
        execution_since: clock - 60_000,
        availability: 'AVAILABLE',
        controller_mode: 'AUTOMATIC',
        program: 'O1000',
        part_count: 5,
        spindle_speed: 1200,
        fault_since: null,
        fault_message: null,
        in_setup: 0,
        updated_at: clock,
      })
      .execute();
    const { cookie } = await login(me.email, me.password);
    const lastHeartbeat = clock - 1000;
    const get = async () =>
      dashboardResponseSchema.parse(
        await (await app.request('/api/dashboard', { headers: { cookie } })).json(),
      ).machines[0]!;
    expect(await get()).toMatchObject({ status: 'ACTIVE', stale: false, program: 'O1000', partCount: 5 });
    clock += 5 * 60_000 + 1000;
    expect(await get()).toMatchObject({
      status: 'UNAVAILABLE',
      stale: true,
      statusSince: lastHeartbeat + 5 * 60_000,
    });
  });
});
