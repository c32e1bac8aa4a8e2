import { Hono } from 'hono';
import { simulationActionSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import {
  END_WAIT_MS,
  inboxDrained,
  removeSimulator,
  simulate,
  simulationState,
  stopSimulation,
} from '../services/simulation';
import { inTransaction } from './live-ctx';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The test screen for simulated execution (live-operations §2; decision 1100), admins (and root) only; another
 * company's machine is not found.
 * GET /api/machines/:id/simulation → the machine's simulation (SimulationState)
 * POST /api/machines/:id/simulation `{ type: 'execution' | 'program' | 'parts' | 'fault' | 'clearFault' | 'cycles'
 *   | 'stopCycles', … }` → the same, after the action's line went into the ingest path; 409 when the machine
 *   cannot be simulated (a real source, a manual work center, no Execution item)
 * DELETE /api/machines/:id/simulation → the machine stops (UNAVAILABLE) and the simulator stops being its source
 *   once the ingest worker read that last line (waits up to 10 s; 409 when it has not)
 */
export const simulationRoutes = new Hono<AppEnv>()
  .get('/:id/simulation', requireAdmin, async (c) => {
    const deps = c.var.deps;
    return c.json(await inTransaction(c, (ctx) => simulationState(ctx, deps, c.req.param('id'))));
  })
  .post('/:id/simulation', requireAdmin, async (c) => {
    const action = await jsonBody(c, simulationActionSchema);
    const deps = c.var.deps;
    return c.json(await inTransaction(c, (ctx) => simulate(ctx, deps, c.req.param('id'), action)));
  })
  .delete('/:id/simulation', requireAdmin, async (c) => {
    const deps = c.var.deps;
    const id = c.req.param('id');
    if (await inTransaction(c, (ctx) => stopSimulation(ctx, deps, id))) {
      // Outside any transaction: the ingest worker (this process or another) derives the line meanwhile.
      const deadline = Date.now() + END_WAIT_MS;
      while (!(await inTransaction(c, (ctx) => inboxDrained(ctx, id))) && Date.now() < deadline)
        await pause(200);
    }
    return c.json(await inTransaction(c, (ctx) => removeSimulator(ctx, deps, id)));
  });
