import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { companyScope } from '../db/scope';
import type { AppEnv } from '../http/context';
import { notAuthenticated } from '../http/errors';
import { getCompany } from '../repositories/companies';
import { findLiveSession } from '../repositories/sessions';
import { getUser } from '../repositories/users';

export const SESSION_COOKIE = 'takt_session';

/**
 * Resolve the caller from the session cookie and fix the company scope for the rest of the request.
 * Every /api route sits behind this: without a valid caller the answer is 401 (the apps then reload).
 */
export const requireCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { db, now } = c.var.deps;
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) throw notAuthenticated();
  const session = await findLiveSession(db, token, now());
  if (!session) throw notAuthenticated();
  const scope = companyScope(db, session.companyId);
  const [user, company] = await Promise.all([
    getUser(scope, session.userId),
    getCompany(db, session.companyId),
  ]);
  if (!user || !company || user.locked) throw notAuthenticated();
  c.set('caller', { kind: 'user', user, company, sessionToken: token });
  c.set('scope', scope);
  await next();
};
