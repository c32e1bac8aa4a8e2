import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyCreatedSchema } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { GATEWAY_PUSH_RATE } from '../../services/api/src/services/push-rates';
import { MAX_FAILURES_PER_PAIR } from '../../services/api/src/services/login-throttle';
import { apiHarness, apiHarnessOn } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aCompany, aUser } from '../../services/api/src/testing/builders';
import { listOutboxMail } from '../../services/api/src/testing/mail-outbox';
import { aTablet } from '../../services/api/src/testing/tablet-builders';

// Issue 26, accounts, links, throttles and keys: finding 3 (links built from a forged Host), finding 5 (the login
// throttle not atomic) and from finding 8 the lock-out by anyone, the forwarded client address, login timing,
// keys that never expire, the sign-in code in the subject, 429 without Retry-After, `?token=` opening every GET
// route, and no rate limit on sync and push (decisions 0987-0991). The probe's requests, on both dialects.

const PUBLIC_URL = 'https://takt.example.com';
const METRICS_TOKEN = 'metrics-token-for-the-security-test';

describe.each(DIALECTS)('accounts, links and throttles on %s', (dialect) => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await apiHarness(dialect, undefined, { publicUrl: PUBLIC_URL, metricsToken: METRICS_TOKEN });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A JSON POST as a client at `address` (the socket's remote address) would send it, with extra headers. */
  const post = (path: string, body: unknown, address: string, headers: Record<string, string> = {}) =>
    h.app.request(
      path,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );

  /** Password checks so far (the Prometheus counter behind decision 0988). */
  const passwordChecks = async () => {
    const res = await h.app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return Number(/^takt_login_password_checks_total (\d+)/m.exec(await res.text())?.[1]);
  };

  it('builds e-mailed links from TAKT_PUBLIC_URL, whatever Host the request names (finding 3)', async () => {
    const company = await aCompany(h.t.db);
    const user = await aUser(h.t.db, company);
    const forged = { host: 'evil.example', origin: 'http://evil.example' };
    const reset = await h.app.request('http://evil.example/api/account/forgot', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forged },
      body: JSON.stringify({ email: user.email }),
    });
    expect(reset.status).toBe(200);
    const code = await h.app.request('http://evil.example/login/code/request', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forged },
      body: JSON.stringify({ email: user.email }),
    });
    expect(code.status).toBe(200);
    const mail = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail).toHaveLength(2);
    for (const m of mail) expect(`${m.subject} ${m.text}`).not.toContain('evil.example');
    const resetMail = mail.find((m) => m.subject === 'Set a new Takt password')!;
    expect(resetMail.text).toContain(`${PUBLIC_URL}/app/set-password#token=`);
    // The sign-in code is in the text, never in the subject (lock screens show subjects).
    const codeMail = mail.find((m) => m.subject === 'Your Takt sign-in code')!;
    expect(codeMail.text).toContain(`${PUBLIC_URL}/app/?code`);
    const sent = /\n {4}(\d{6})\n/.exec(codeMail.text)?.[1];
    expect(sent).toMatch(/^\d{6}$/);
    expect(codeMail.subject).not.toMatch(/\d/);
  });

  it('checks at most the limit of 200 parallel wrong passwords; the rest answer 429 with Retry-After (finding 5)', async () => {
    const user = await aUser(h.t.db, await aCompany(h.t.db));
    const before = await passwordChecks();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        post('/login', { email: user.email, password: 'Wrong-pass1' }, '198.51.100.20'),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES_PER_PAIR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - MAX_FAILURES_PER_PAIR);
    expect(await passwordChecks()).toBe(before + MAX_FAILURES_PER_PAIR);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBe(15 * 60);
    expect(await refused.json()).toEqual({
      error: { code: 'TOO_MANY_ATTEMPTS', message: 'Too many failed logins. Try again in 15 minutes.' },
    });
  });

  it("does not lock the owner out for a stranger's failures from other addresses (finding 8)", async () => {
    const user = await aUser(h.t.db, await aCompany(h.t.db));
    for (const attacker of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      for (let i = 0; i <= MAX_FAILURES_PER_PAIR; i++)
        await post('/login', { email: user.email, password: 'Wrong-pass1' }, attacker);
    expect((await post('/login', { email: user.email, password: 'Wrong-pass1' }, '203.0.113.1')).status).toBe(
      429,
    );
    expect((await post('/login', { email: user.email, password: user.password }, '192.0.2.50')).status).toBe(
      200,
    );
  });

  it('ignores X-Forwarded-For unless the proxy is configured (finding 8)', async () => {
    const user = await aUser(h.t.db, await aCompany(h.t.db));
    const wrong = { email: user.email, password: 'Wrong-pass1' };
    // Not configured: a client that varies the header is still the one socket address.
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
      expect(
        (await post('/login', wrong, '198.51.100.30', { 'x-forwarded-for': `10.1.1.${i}` })).status,
      ).toBe(401);
    const varied = await post('/login', wrong, '198.51.100.30', { 'x-forwarded-for': '10.1.1.99' });
    expect(varied.status).toBe(429);

    // Configured (TAKT_TRUSTED_PROXIES=127.0.0.1): behind the proxy each client is its forwarded address.
    const proxied = apiHarnessOn(h.t, h.clock.now, { trustedProxies: ['127.0.0.1'] });
    const viaProxy = (client: string, password: string) =>
      proxied.app.request(
        '/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `${client}, 127.0.0.1` },
          body: JSON.stringify({ email: user.email, password }),
        },
        { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
      );
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
      expect((await viaProxy('198.51.100.40', 'Wrong-pass1')).status).toBe(401);
    expect((await viaProxy('198.51.100.40', user.password)).status).toBe(429);
    expect((await viaProxy('198.51.100.41', user.password)).status).toBe(200);
  });

  it('gives unknown and known e-mails the same answer after the same password check (finding 8)', async () => {
    const user = await aUser(h.t.db, await aCompany(h.t.db));
    const answers: unknown[] = [];
    for (const email of [user.email, 'nobody-here@test.example']) {
      const before = await passwordChecks();
      const res = await post('/login', { email, password: 'Wrong-pass1' }, '198.51.100.60');
      expect(res.status).toBe(401);
      answers.push(await res.json());
      expect(await passwordChecks()).toBe(before + 1);
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it('refuses an expired API key with 401 and a clear message (finding 8)', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('POST', '/api/apikeys', cookie, { name: 'BI', scopes: ['reports:read'] });
    const key = apiKeyCreatedSchema.parse(await res.json());
    expect(key.expiresAt).toBe(h.clock.now + 365 * 86_400_000);
    const call = () =>
      h.app.request('/api/dashboard', { headers: { authorization: `Bearer ${key.accessToken}` } });
    expect((await call()).status).toBe(200);
    await h.t.db.updateTable('api_keys').set({ expires_at: h.clock.now }).where('id', '=', key.id).execute();
    const expired = await call();
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      error: {
        code: 'API_KEY_EXPIRED',
        message: `This API key expired on ${new Date(h.clock.now).toISOString().slice(0, 10)}. An admin can renew it or make a new one.`,
      },
    });
  });

  it('opens only CSV downloads with a ?token= link (finding 8)', async () => {
    const { cookie } = await h.tenant();
    const { token } = (await (await h.get('/api/user-token', cookie)).json()) as { token: string };
    const range = `start=${h.clock.now - 86_400_000}&end=${h.clock.now}`;
    const download = await h.app.request(`/api/partadjustment/rejects?${range}&format=csv&token=${token}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    for (const path of ['/api/me', '/api/machines', '/api/users', `/api/partadjustment/rejects?${range}`])
      expect(
        (await h.app.request(`${path}${path.includes('?') ? '&' : '?'}token=${token}`)).status,
        path,
      ).toBe(401);
    expect((await h.app.request(`/api/me?format=csv&token=${token}`)).status).toBe(401);
  });

  it('rate-limits a tablet’s sync atomically, with Retry-After (finding 8)', async () => {
    const company = await aCompany(h.t.db);
    const tablet = await aTablet(h.t.db, company, null, h.clock.now);
    const sync = () =>
      h.app.request('/api/sync', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tablet.token}` },
        body: JSON.stringify({ commands: [] }),
      });
    const statuses = (await Promise.all(Array.from({ length: 130 }, sync))).map((r) => r.status);
    // An empty batch is a 400 once counted; 120 are let through to the check, the rest are refused before it.
    expect(statuses.filter((s) => s === 400)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = await sync();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    expect(await refused.json()).toEqual({
      error: {
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many sync requests from this device. Try again shortly.',
      },
    });
  });

  it('rate-limits a gateway’s pushes, with Retry-After (finding 8)', async () => {
    const company = await aCompany(h.t.db);
    const root = await aUser(h.t.db, company, { isRoot: true });
    const rootCookie = await h.login(root.email, root.password);
    const made = await h.send('POST', '/api/gateways', rootCookie, { name: 'Edge 1', companyId: company.id });
    const { gateway, token } = (await made.json()) as { gateway: { id: string }; token: string };
    const push = () =>
      h.app.request('/api/gateway-push', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ gatewayId: gateway.id, records: [] }),
      });
    expect((await push()).status).toBe(200);
    // As if the gateway had pushed its limit within this minute.
    await h.t.db
      .updateTable('rate_limits')
      .set({ count: GATEWAY_PUSH_RATE.limit })
      .where('key', '=', `${GATEWAY_PUSH_RATE.name}:${gateway.id}`)
      .execute();
    const refused = await push();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(60);
    expect(await refused.json()).toEqual({
      error: { code: 'TOO_MANY_REQUESTS', message: 'Too many pushes from this gateway. Try again shortly.' },
    });
  });
});
