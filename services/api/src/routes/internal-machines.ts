import { Hono } from 'hono';
import { internalMachinePatchSchema, internalMachineQuerySchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireRoot } from '../http/permissions';
import { jsonBody, queryParams } from '../http/validate';
import { allMachines, labelMachine } from '../services/internal-machines';

// reports-admin §2 "Internal machine list", §7 "getAllMachines (limit, offset, orderBy, orderDirection,
// filter)"; root users only (§6), everyone else 403. Every company's machines, so the bare database
// (c.var.deps.db) on purpose: the caller's company scope would hide all other companies.
//
//   GET /api/internal/machines?limit=25&offset=0&orderBy=createdAt&orderDirection=desc&filter=
//       → { items: InternalMachine[], total, limit, offset }
//   PUT /api/internal/machines/:id { make?, model?, payer? } → 204 (decision 0923)

export const internalMachinesRoutes = new Hono<AppEnv>()
  .use('*', requireRoot)
  .get('/', async (c) => c.json(await allMachines(c.var.deps.db, queryParams(c, internalMachineQuerySchema))))
  .put('/:id', async (c) => {
    const patch = await jsonBody(c, internalMachinePatchSchema);
    await labelMachine(c.var.deps.db, c.req.param('id'), patch);
    return c.body(null, 204);
  });
