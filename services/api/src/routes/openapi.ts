import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { openApiDocument } from '../openapi/document';

// GET /api/openapi.json (decisions 0841, 1045): an OpenAPI 3.1 description of every route the app serves,
// built from the zod schemas the routes validate with. The tables of calls are per feature area in
// src/openapi/; its readable reference page is GET /api/docs (routes/api-docs.ts, decision 1046).

export type { Access, DocumentedCall } from '../openapi/call';
export { DOCUMENTED_CALLS, keyScopes, openApiDocument } from '../openapi/document';
export { OPERATIONS_PATHS } from '../openapi/node';

/** The document is the same for every request of this process: built once, on first use. */
let built: string | null = null;

/** GET /api/openapi.json: public, like any API description; it names no company data. */
export const openApiRoutes = new Hono<AppEnv>().get('/', (c) => {
  built ??= JSON.stringify(openApiDocument({ pushBatch: c.var.deps.ingest.pushBatchSchema }));
  return c.body(built, 200, { 'content-type': 'application/json' });
});
