import { Hono } from 'hono';
import { userPreferencesUpdateSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { jsonBody } from '../http/validate';
import { updateUserPreferences, userPreferences } from '../services/user-preferences';
import { inTransaction } from './live-ctx';

/**
 * The caller's report preferences (reports-admin §9 "Stored preferences per company: last OEE or utilization
 * horizon and selected shifts", and §6's anonymize option; decisions 1115, 1116).
 * GET /api/me/preferences → `{ oeeHorizon, utilizationHorizon, shifts, anonymize, anonymizeOffered }`
 * PUT /api/me/preferences with any of `oeeHorizon`, `utilizationHorizon`, `shifts`, `anonymize` → the whole set;
 *   an unknown field, horizon or shift answers 400, anonymize where it is not offered 403.
 * Users only: a tablet has no preferences (403); API keys never reach it (their scopes).
 */
export const userPreferencesRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => userPreferences(ctx))))
  .put('/', async (c) => {
    const body = await jsonBody(c, userPreferencesUpdateSchema);
    return c.json(await inTransaction(c, (ctx) => updateUserPreferences(ctx, body)));
  });
