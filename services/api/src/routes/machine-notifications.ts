import { Hono } from 'hono';
import { machineNotificationsSaveSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { machineNotifications, saveMachineNotifications } from '../notifications/service';
import { inTransaction } from './live-ctx';

/**
 * A machine's notifications (reports-admin §2 machines admin "Notifications" panel, §3 Machine notification;
 * decision 0900), admins only; another company's machine is not found.
 * GET /api/machines/:id/notifications → `{ notifications: [{ id, accountId, type, level, delayMinutes }], accounts }`
 * PUT /api/machines/:id/notifications `{ notifications: [{ accountId, type, level, delayMinutes? }] }` → the same
 */
export const machineNotificationRoutes = new Hono<AppEnv>()
  .get('/:id/notifications', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => machineNotifications(ctx, c.req.param('id')))),
  )
  .put('/:id/notifications', requireAdmin, async (c) => {
    const { notifications } = await jsonBody(c, machineNotificationsSaveSchema);
    return c.json(
      await inTransaction(c, (ctx) => saveMachineNotifications(ctx, c.req.param('id'), notifications)),
    );
  });
