import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { machineDiagnostics } from '../services/diagnostics';

/** GET /api/machines/:id/diagnostics (live-operations §4 live connection status), company scoped: another company's machine is not found. */
export const diagnosticsRoutes = new Hono<AppEnv>().get('/:id/diagnostics', async (c) =>
  c.json(await machineDiagnostics(c.var.scope, c.req.param('id'), c.var.deps.now())),
);
