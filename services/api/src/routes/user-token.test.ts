import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { DIALECTS } from '../testing/db';
import { USER_TOKEN_TTL_MS } from './user-token';

describe.each(DIALECTS)('user token for CSV links on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('authenticates GET requests as ?token= for a few minutes, never writes', async () => {
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

    const me = await h.app.request(`/api/me?token=${encodeURIComponent(token)}`);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(user.email);
    const write = await h.app.request(`/api/sync?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ commands: [] }),
    });
    expect(write.status).toBe(401);

    h.clock.now += USER_TOKEN_TTL_MS + 1;
    expect((await h.app.request(`/api/me?token=${encodeURIComponent(token)}`)).status).toBe(401);
    expect((await h.app.request('/api/me?token=made-up')).status).toBe(401);
  });
});
