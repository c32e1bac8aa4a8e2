import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { forbidden } from '../http/errors';
import { createSession } from '../repositories/sessions';

/** The apps refresh the token every 3 minutes (live-operations §7); it stays valid a little longer. */
export const USER_TOKEN_REFRESH_MS = 180_000;
export const USER_TOKEN_TTL_MS = 2 * USER_TOKEN_REFRESH_MS;

/**
 * GET /api/user-token: a temporary token that CSV links carry as `?token=` (a download opened in a new tab
 * or by a spreadsheet has no cookie). It is a short-lived session of the same user, valid for GET only.
 */
export const userTokenRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const caller = c.var.caller;
  if (caller.kind !== 'user') throw forbidden();
  const now = c.var.deps.now();
  const { token, session } = await createSession(
    c.var.deps.db,
    { companyId: caller.company.id, userId: caller.user.id, ttlMs: USER_TOKEN_TTL_MS },
    now,
  );
  return c.json({ token, expiresAt: session.expiresAt, refreshMs: USER_TOKEN_REFRESH_MS });
});
