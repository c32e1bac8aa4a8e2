import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { loginRequestSchema } from '@takt/domain';
import { SESSION_COOKIE } from '../auth/middleware';
import type { AppEnv } from '../http/context';
import { jsonBody } from '../http/validate';
import { SESSION_TTL_MS } from '../repositories/sessions';
import { login, logout, toMe } from '../services/auth';
import { clientAddress } from '../http/client-address';

/** POST /login and DELETE /logout (ARCHITECTURE.md "Conventions"); outside /api, no caller needed. */
export const authRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const { db, now, demoMode, secureCookies } = c.var.deps;
    const { token, me } = await login(
      db,
      await jsonBody(c, loginRequestSchema),
      now(),
      demoMode,
      clientAddress(c),
    );
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookies,
      path: '/',
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return c.json({ user: me });
  })
  .delete('/logout', async (c) => {
    const { db, now } = c.var.deps;
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await logout(db, token, now());
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  })
  // live-operations §7: GET /timesync lets clients correct their clock (offline commands' occurredAt).
  .get('/timesync', (c) => c.json({ now: c.var.deps.now() }));

export const meRoutes = new Hono<AppEnv>().get('/', (c) => c.json(toMe(c.var.caller, c.var.deps.demoMode)));
