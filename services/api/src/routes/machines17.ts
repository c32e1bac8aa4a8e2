import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { queryParams } from '../http/validate';
import {
  autoJobDispatch,
  keyStatistics,
  keyStatisticsQuerySchema,
  streamInfo,
  unmappedStatus,
} from '../services/machine-streams';
import { machine17, machine17QuerySchema, machines17, queryMachines17 } from '../services/machines17';
import { inTransaction } from './live-ctx';

/**
 * The "version 17" machine (reports-admin §3 Machine, §7 "GET /api/machines17", "Machines: query17, get17";
 * decision 1107), admins of the company only, as the machine administration; another company's machine is not
 * found.
 *   GET /api/machines17                        → every machine, decommissioned too, in workcenter order
 *   GET /api/machines17/query?limit&offset&orderBy&orderDirection&filter → { items, total, limit, offset }
 *   GET /api/machines17/:id                    → one machine
 */
export const machines17Routes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => machines17(ctx))))
  // Before /:id, which would take "query" for an id.
  .get('/query', async (c) => {
    const q = queryParams(c, machine17QuerySchema);
    return c.json(await inTransaction(c, (ctx) => queryMachines17(ctx, q)));
  })
  .get('/:id', async (c) => c.json(await inTransaction(c, (ctx) => machine17(ctx, c.req.param('id')))));

/**
 * A machine's data stream (reports-admin §7 "streamInfo", "Adapters: … keyStatistics, unmappedStatus,
 * autoJobDispatch"; decision 1107), admins only:
 *   GET /api/machines/:id/stream-info                        → sources, counters, connection, last hour's keys
 *   GET /api/machines/:id/adapter/key-statistics?minutes=60  → each key's count, times, last value, mapping
 *   GET /api/machines/:id/adapter/unmapped-status            → keys of the last hour no adapter field maps
 *   GET /api/machines/:id/adapter/auto-job-dispatch          → the key naming the job, its value, the job
 */
export const machineStreamsRoutes = new Hono<AppEnv>()
  .get('/:id/stream-info', requireAdmin, async (c) =>
    c.json(await streamInfo(c.var.scope, c.req.param('id'), c.var.deps.now())),
  )
  .get('/:id/adapter/key-statistics', requireAdmin, async (c) => {
    const { minutes } = queryParams(c, keyStatisticsQuerySchema);
    return c.json(await keyStatistics(c.var.scope, c.req.param('id'), minutes, c.var.deps.now()));
  })
  .get('/:id/adapter/unmapped-status', requireAdmin, async (c) =>
    c.json(await unmappedStatus(c.var.scope, c.req.param('id'), c.var.deps.now())),
  )
  .get('/:id/adapter/auto-job-dispatch', requireAdmin, async (c) =>
    c.json(await autoJobDispatch(c.var.scope, c.req.param('id'), c.var.deps.now())),
  );
