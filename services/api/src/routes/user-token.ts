import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { forbidden } from '../http/errors';
import { createSession, findLiveSession } from '../repositories/sessions';

/** The apps refresh the token every 3 minutes (live-operations §7); it stays valid a little longer. */
export const USER_TOKEN_REFRESH_MS = 180_000;
export const USER_TOKEN_TTL_MS = 2 * USER_TOKEN_REFRESH_MS;

/**
 * GET /api/user-token: a temporary token that CSV links carry as `?token=` (a download opened in a new tab
 * or by a spreadsheet has no cookie). It is a link token of the same user (decision 0502): good for GET
 * requests as `?token=` only, for USER_TOKEN_TTL_MS, revoked at logout. Only the session cookie mints one:
 * a link token asking for a fresh link token is refused, so a leaked link cannot renew itself.
 */
export const userTokenRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const caller = c.var.caller;
  if (caller.kind !== 'user') throw forbidden();
  const { db } = c.var.deps;
  const now = c.var.deps.now();
  // The caller came in by the cookie or by `?token=`; only a real session (kind 'session') may mint.
  if (!(await findLiveSession(db, caller.sessionToken, now, 'session'))) throw forbidden();
  const { token, session } = await createSession(
    db,
    { companyId: caller.company.id, userId: caller.user.id, ttlMs: USER_TOKEN_TTL_MS, kind: 'link' },
    now,
  );
  return c.json({ token, expiresAt: session.expiresAt, refreshMs: USER_TOKEN_REFRESH_MS });
});
