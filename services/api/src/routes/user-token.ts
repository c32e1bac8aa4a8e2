import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { forbidden } from '../http/errors';
import { mintLinkToken, USER_TOKEN_REFRESH_MS } from '../services/link-tokens';

/**
 * GET /api/user-token: a temporary token that CSV links carry as `?token=` (a download opened in a new tab
 * or by a spreadsheet has no cookie). It is a link token of the same user (services/link-tokens.ts); a link
 * token asking for a fresh link token is refused, so a leaked link cannot renew itself.
 */
export const userTokenRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const minted = await mintLinkToken(c.var.deps.db, c.var.caller, c.var.deps.now());
  if (!minted) throw forbidden();
  return c.json({ token: minted.token, expiresAt: minted.expiresAt, refreshMs: USER_TOKEN_REFRESH_MS });
});
