import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { machineDiagnostics } from '../services/diagnostics';
import { storedSourceProblem } from '../services/machine-source-policy';

/** GET /api/machines/:id/diagnostics (live-operations §4 live connection status), company scoped: another company's machine is not found. */
export const diagnosticsRoutes = new Hono<AppEnv>().get('/:id/diagnostics', async (c) => {
  const id = c.req.param('id');
  const diagnostics = await machineDiagnostics(c.var.scope, id, c.var.deps.now());
  // Why ingest does not connect the source (decision 0985), null when nothing stops it.
  return c.json({ ...diagnostics, sourceProblem: await storedSourceProblem(c.var.deps, c.var.scope, id) });
});
