import { Hono } from 'hono';
import {
  machineDecommissionRequestSchema,
  machineOrderRequestSchema,
  machineSaveRequestSchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import {
  adapterStatus,
  createAdminMachine,
  decommissionAdminMachine,
  getAdminMachine,
  listAdminMachines,
  resetAdapter,
  setMachineOrder,
  updateAdminMachine,
} from '../services/machines-admin';
import { checkMachineSource } from '../services/machine-source-policy';
import { inTransaction } from './live-ctx';

/**
 * Machines admin (reports-admin §2, §7 "Machines: save, update, decommission, setOrder"), admins only;
 * another company's machine is not found.
 * GET  /api/machines                      → every machine, decommissioned too, in workcenter order
 * GET  /api/machines/:id                  → one machine with its source
 * POST /api/machines `{ name, workcenterType, downtimeFailureDelay, autostartBehavior, adapterId, source }` → 201;
 *                                          a source address the policy closes → 400, one another company's
 *                                          machine uses → 409 (decisions 0985, 0986)
 * PUT  /api/machines/order `{ machineIds }` → the machines in the new order
 * PUT  /api/machines/:id (as POST)        → the machine
 * PUT  /api/machines/:id/decommission `{ name }` (the machine's name typed to confirm) → the machine
 * POST /api/machines/:id/adapter/reset    → the adapter status after setting the adapter to none (§7 "Adapters:
 *                                          reset"; decision 0891)
 * GET  /api/machines/:id/adapter-status   → { status: mapped|waiting|gathering|problem, adapterId, adapterName,
 *                                          message, resetAt }, polled every 3 s by the machine form (§7)
 */
export const machinesAdminRoutes = new Hono<AppEnv>()
  // requireAdmin on each route, not `use('*')`: /api/machines is shared with the diagnostics routes (all users).
  .get('/', requireAdmin, async (c) => c.json(await inTransaction(c, (ctx) => listAdminMachines(ctx))))
  .post('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, machineSaveRequestSchema);
    await checkMachineSource(c.var.deps, c.var.scope, body.source);
    return c.json(await inTransaction(c, (ctx) => createAdminMachine(ctx, body)), 201);
  })
  .put('/order', requireAdmin, async (c) => {
    const { machineIds } = await jsonBody(c, machineOrderRequestSchema);
    return c.json(await inTransaction(c, (ctx) => setMachineOrder(ctx, machineIds)));
  })
  .get('/:id', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => getAdminMachine(ctx, c.req.param('id')))),
  )
  .put('/:id', requireAdmin, async (c) => {
    const body = await jsonBody(c, machineSaveRequestSchema);
    // Another company's machine is not found before its source is looked at.
    await inTransaction(c, (ctx) => getAdminMachine(ctx, c.req.param('id')));
    await checkMachineSource(c.var.deps, c.var.scope, body.source);
    return c.json(await inTransaction(c, (ctx) => updateAdminMachine(ctx, c.req.param('id'), body)));
  })
  .put('/:id/decommission', requireAdmin, async (c) => {
    const { name } = await jsonBody(c, machineDecommissionRequestSchema);
    return c.json(await inTransaction(c, (ctx) => decommissionAdminMachine(ctx, c.req.param('id'), name)));
  })
  .post('/:id/adapter/reset', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => resetAdapter(ctx, c.req.param('id')))),
  )
  .get('/:id/adapter-status', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => adapterStatus(ctx, c.req.param('id')))),
  );
