import { Hono } from 'hono';
import { apiKeyCreateRequestSchema, apiKeyUpdateRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { apiKeys, createApiKey, editApiKey, removeApiKey } from '../services/api-keys';
import { inTransaction } from './live-ctx';

/**
 * API keys (reports-admin §2 "API keys: list, create, edit, delete, with scopes; access token shown once at
 * creation"; decision 0840), for admins. A key itself never reaches these routes (auth/api-key-scopes.ts).
 * GET /api/apikeys → keys without tokens, by name
 * POST /api/apikeys `{ name, scopes }` → 201 the key with `accessToken` (the only time it is sent)
 * PUT /api/apikeys/:id `{ name?, scopes? }` → the key; DELETE /api/apikeys/:id → 204 (404: not the company's)
 */
export const apiKeysRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await apiKeys(c.var.scope)))
  .post('/', async (c) => {
    const body = await jsonBody(c, apiKeyCreateRequestSchema);
    return c.json(await inTransaction(c, (ctx) => createApiKey(ctx, body)), 201);
  })
  .put('/:id', async (c) => {
    const body = await jsonBody(c, apiKeyUpdateRequestSchema);
    return c.json(await inTransaction(c, (ctx) => editApiKey(ctx, c.req.param('id'), body)));
  })
  .delete('/:id', async (c) => {
    await inTransaction(c, (ctx) => removeApiKey(ctx, c.req.param('id')));
    return c.body(null, 204);
  });
