import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aUser } from '../testing/builders';
import { errorOf } from '../testing/live-builders';
import {
  LOGIN_WINDOW_MS,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_PAIR,
} from '../services/login-throttle';

// POST /login throttled per account and address pair, per address and per account (decision 0988), on both
// dialects. The race of many parallel guesses is in tests/security/accounts.test.ts.

describe.each(DIALECTS)('login throttling on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** POST /login from `address` (the socket's remote address, as @hono/node-server passes it). */
  const attempt = (email: string, password: string, address = '10.0.0.1') =>
    h.app.request(
      '/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );

  const someUser = async () => aUser(h.t.db, await aCompany(h.t.db));

  it('refuses an account from an address after too many failures there, even with the right password', async () => {
    const user = await someUser();
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
      expect((await attempt(user.email, 'wrong-Pass1', '10.0.0.1')).status).toBe(401);
    const refused = await attempt(user.email.toUpperCase(), user.password, '10.0.0.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(LOGIN_WINDOW_MS / 1000));
    expect(await errorOf(refused)).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      message: 'Too many failed logins. Try again in 15 minutes.',
    });
    // Another account from the same address is not affected.
    const other = await someUser();
    expect((await attempt(other.email, other.password, '10.0.0.1')).status).toBe(200);

    h.clock.now += LOGIN_WINDOW_MS - 60_000;
    expect((await errorOf(await attempt(user.email, user.password, '10.0.0.1'))).message).toBe(
      'Too many failed logins. Try again in a minute.',
    );
    h.clock.now += 60_000;
    expect((await attempt(user.email, user.password, '10.0.0.1')).status).toBe(200);
  });

  it('never locks the owner out from their own address for failures elsewhere (decision 0988)', async () => {
    const user = await someUser();
    for (let i = 0; i < 3 * MAX_FAILURES_PER_PAIR; i++)
      expect([401, 429]).toContain((await attempt(user.email, 'wrong-Pass1', `203.0.113.${i % 3}`)).status);
    expect((await attempt(user.email, user.password, '10.9.9.9')).status).toBe(200);
  });

  it('clears the pair on a good login', async () => {
    const user = await someUser();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < MAX_FAILURES_PER_PAIR - 1; i++)
        expect((await attempt(user.email, 'wrong-Pass1')).status).toBe(401);
      expect((await attempt(user.email, user.password)).status).toBe(200);
    }
  });

  it('refuses an address after too many failures over any accounts, unknown e-mails included', async () => {
    const user = await someUser();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++)
      expect((await attempt(`nobody-${i}@test.example`, 'wrong-Pass1', '192.0.2.7')).status).toBe(401);
    expect((await attempt(user.email, user.password, '192.0.2.7')).status).toBe(429);
    expect((await attempt(user.email, user.password, '192.0.2.8')).status).toBe(200);
  });

  it('refuses an account guessed at from many addresses once its ceiling is reached', async () => {
    const user = await someUser();
    // As if MAX_FAILURES_PER_ACCOUNT guesses had come from as many addresses in this window.
    await h.t.db
      .insertInto('rate_limits')
      .values({
        key: `login-account:${user.email}`,
        window_start: h.clock.now,
        count: MAX_FAILURES_PER_ACCOUNT,
      })
      .execute();
    const refused = await attempt(user.email, user.password, '10.7.7.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(LOGIN_WINDOW_MS / 1000));
    // The refused attempt took nothing from its pair or address.
    const rows = await h.t.db.selectFrom('rate_limits').select(['key', 'count']).execute();
    expect(Object.fromEntries(rows.map((r) => [r.key, Number(r.count)]))).toEqual({
      [`login-account:${user.email}`]: MAX_FAILURES_PER_ACCOUNT,
      [`login-pair:${user.email}|10.7.7.7`]: 0,
      'login-address:10.7.7.7': 0,
    });
  });

  it('stores no password and only the keys it counts', async () => {
    const user = await someUser();
    await attempt(user.email, 'wrong-Pass1', '192.0.2.9');
    const rows = await h.t.db.selectFrom('rate_limits').selectAll().execute();
    expect(rows.map((r) => r.key).sort()).toEqual([
      'login-account:' + user.email,
      'login-address:192.0.2.9',
      `login-pair:${user.email}|192.0.2.9`,
    ]);
    expect(JSON.stringify(rows)).not.toContain('wrong-Pass1');
  });
});
