import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { loginRequestSchema, permissionsFor } from '@takt/domain';
import type { Me } from '@takt/domain';
import { SESSION_COOKIE } from '../auth/middleware';
import { verifyPassword } from '../auth/passwords';
import type { AppEnv, Caller } from '../http/context';
import { ApiError } from '../http/errors';
import { jsonBody } from '../http/validate';
import { getCompany } from '../repositories/companies';
import { createSession, revokeSession, SESSION_TTL_MS } from '../repositories/sessions';
import { findUserForLogin } from '../repositories/users';

const badLogin = () => new ApiError(401, 'INVALID_CREDENTIALS', 'The e-mail or password is incorrect.');

export function toMe(caller: Pick<Caller, 'user' | 'company'>, demoMode: boolean): Me {
  const { user, company } = caller;
  const isAdmin = user.role === 'admin' || user.isRoot;
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    isRoot: user.isRoot,
    isAdmin,
    isOperator: user.role === 'operator',
    permissions: permissionsFor({ tier: company.productTier, isRoot: user.isRoot, isAdmin, demoMode }),
    company: {
      id: company.id,
      name: company.name,
      timezone: company.timezone,
      locale: company.locale,
      product_tier: company.productTier,
    },
  };
}

/** POST /login and DELETE /logout (ARCHITECTURE.md "Conventions"); outside /api, no caller needed. */
export const authRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const { db, now, demoMode, secureCookies } = c.var.deps;
    const body = await jsonBody(c, loginRequestSchema);
    const found = await findUserForLogin(db, body.email);
    // An unknown e-mail and a wrong password answer the same text, so logins cannot probe for accounts.
    if (!found || found.user.locked || !(await verifyPassword(found.passwordHash, body.password)))
      throw badLogin();
    const company = await getCompany(db, found.user.companyId);
    if (!company) throw badLogin();
    const { token } = await createSession(db, { companyId: company.id, userId: found.user.id }, now());
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secureCookies,
      path: '/',
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return c.json({ user: toMe({ user: found.user, company }, demoMode) });
  })
  .delete('/logout', async (c) => {
    const { db, now } = c.var.deps;
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await revokeSession(db, token, now());
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  })
  // live-operations §7: GET /timesync lets clients correct their clock (offline commands' occurredAt).
  .get('/timesync', (c) => c.json({ now: c.var.deps.now() }));

export const meRoutes = new Hono<AppEnv>().get('/', (c) => c.json(toMe(c.var.caller, c.var.deps.demoMode)));
