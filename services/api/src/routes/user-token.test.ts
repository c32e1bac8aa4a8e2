import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { TEST_PASSWORD } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { USER_TOKEN_TTL_MS } from '../services/link-tokens';

describe.each(DIALECTS)('user token for CSV links on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A CSV download of the rejects list over the day before the harness's clock (empty, still a CSV). */
  const csvPath = () =>
    `/api/partadjustment/rejects?start=${h.clock.now - 86_400_000}&end=${h.clock.now}&format=csv`;

  it('authenticates CSV downloads as ?token= for a few minutes, never writes', async () => {
    const { cookie, user } = await h.tenant();
    const res = await h.get('/api/user-token', cookie);
    expect(res.status).toBe(200);
    const { token, expiresAt, refreshMs } = (await res.json()) as {
      token: string;
      expiresAt: number;
      refreshMs: number;
    };
    expect(refreshMs).toBe(180_000);
    expect(expiresAt).toBe(h.clock.now + USER_TOKEN_TTL_MS);

    const csv = await h.app.request(`${csvPath()}&token=${encodeURIComponent(token)}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    // Any other GET route is as if the link had no token (decision 0991), even one given `format=csv`.
    expect((await h.app.request(`/api/me?token=${encodeURIComponent(token)}`)).status).toBe(401);
    const dressed = await h.app.request(`/api/me?format=csv&token=${encodeURIComponent(token)}`);
    expect(dressed.status).toBe(401);
    expect(JSON.stringify(await dressed.json())).not.toContain(user.email);
    // The OEE waterfall ignores `format`, so a link asking it for a CSV reaches the route and its JSON answer is
    // refused after the fact; to a browser that answer went gzipped (decision 1248), and the refusal is plain
    // JSON, not marked gzip.
    const report = `/api/reports/oee?start=${h.clock.now - 2 * 86_400_000}&end=${h.clock.now}&interval=hour&format=csv`;
    expect((await h.get(report, cookie)).headers.get('content-encoding')).toBeNull();
    expect(
      (await h.app.request(report, { headers: { cookie, 'accept-encoding': 'gzip' } })).headers.get(
        'content-encoding',
      ),
    ).toBe('gzip');
    const refused = await h.app.request(`${report}&token=${encodeURIComponent(token)}`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('NOT_AUTHENTICATED');
    const write = await h.app.request(`/api/sync?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ commands: [] }),
    });
    expect(write.status).toBe(401);

    h.clock.now += USER_TOKEN_TTL_MS + 1;
    expect((await h.app.request(`${csvPath()}&token=${encodeURIComponent(token)}`)).status).toBe(401);
    expect((await h.app.request(`${csvPath()}&token=made-up`)).status).toBe(401);
  });

  const mint = async (cookie: string) => {
    const res = await h.get('/api/user-token', cookie);
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  };
  const asLink = (token: string, path = csvPath()) =>
    h.app.request(`${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`);

  it('is never a session: refused as the cookie, as a bearer, and for writes with a cookie-less request', async () => {
    const { cookie } = await h.tenant();
    const token = await mint(cookie);
    expect((await h.get('/api/me', `takt_session=${token}`)).status).toBe(401);
    const bearer = await h.app.request('/api/me', { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(401);
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const res = await h.send(method, `/api/emailnotifications?token=${token}`, `takt_session=${token}`, {});
      expect(res.status, method).toBe(401);
    }
    // Nor is a session token taken from the query: only link tokens travel in URLs.
    const session = cookie.split('=')[1]!;
    expect((await asLink(session)).status).toBe(401);
    expect((await asLink(token)).status).toBe(200);
  });

  it('cannot mint a fresh link token, so a leaked link expires', async () => {
    const { cookie } = await h.tenant();
    const token = await mint(cookie);
    // Not a download: refused before it could mint anything.
    expect((await asLink(token, '/api/user-token')).status).toBe(401);
    // The session keeps minting; the first link still dies at its own expiry.
    h.clock.now += USER_TOKEN_TTL_MS - 1_000;
    const later = await mint(cookie);
    h.clock.now += 2_000;
    expect((await asLink(token)).status).toBe(401);
    expect((await asLink(later)).status).toBe(200);
  });

  it("is revoked at logout, with the session; another user's link tokens live on", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const first = await mint(a.cookie);
    const second = await mint(a.cookie);
    const theirs = await mint(b.cookie);
    const out = await h.send('DELETE', '/logout', a.cookie);
    expect(out.status).toBe(204);
    expect((await h.get('/api/me', a.cookie)).status).toBe(401);
    expect((await asLink(first)).status).toBe(401);
    expect((await asLink(second)).status).toBe(401);
    expect((await asLink(theirs)).status).toBe(200);
    // A fresh login of the same user mints again.
    const again = await h.login(a.user.email, TEST_PASSWORD);
    expect((await asLink(await mint(again))).status).toBe(200);
  });
});
