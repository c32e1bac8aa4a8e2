import { Hono } from 'hono';
import type { Context } from 'hono';
import { machineGroupSaveRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { callerPermissions, requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import {
  createMachineGroup,
  getMachineGroup,
  listMachineGroups,
  removeMachineGroup,
  updateMachineGroupFields,
} from '../services/machine-groups';
import { inTransaction } from './live-ctx';

const access = (c: Context<AppEnv>) => ({
  fullProduct: callerPermissions(c.var.caller, c.var.deps.demoMode).includes('FullProduct'),
});

/**
 * Machine groups (reports-admin §2, §3 Machine group, §7 "GET /api/machinegroups/{id}"). Reading is for every
 * user (reports filter by group); writing is for admins. Downtime reasons (`annotationTypes`) need FullProduct
 * (§6): without it they read as [] and a body naming them is refused.
 * GET    /api/machinegroups        → groups by name
 * GET    /api/machinegroups/:id    → one group
 * POST   /api/machinegroups `{ name, erpGroupId, machines, annotationTypes? }` → 201 the group
 * PUT    /api/machinegroups/:id (as POST; annotationTypes left out keeps them) → the group
 * DELETE /api/machinegroups/:id    → 204
 */
export const machineGroupsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => listMachineGroups(ctx, access(c)))))
  .get('/:id', async (c) =>
    c.json(await inTransaction(c, (ctx) => getMachineGroup(ctx, c.req.param('id'), access(c)))),
  )
  .post('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, machineGroupSaveRequestSchema);
    return c.json(await inTransaction(c, (ctx) => createMachineGroup(ctx, body, access(c))), 201);
  })
  .put('/:id', requireAdmin, async (c) => {
    const body = await jsonBody(c, machineGroupSaveRequestSchema);
    return c.json(
      await inTransaction(c, (ctx) => updateMachineGroupFields(ctx, c.req.param('id'), body, access(c))),
    );
  })
  .delete('/:id', requireAdmin, async (c) => {
    await inTransaction(c, (ctx) => removeMachineGroup(ctx, c.req.param('id'), access(c)));
    return c.body(null, 204);
  });
