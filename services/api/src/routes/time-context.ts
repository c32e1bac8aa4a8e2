import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { dayString, jsonBody } from '../http/validate';
import {
  deleteTimeContext,
  getTimeContext,
  reinitEveryMachine,
  saveTimeContext,
} from '../services/time-context';
import { inTransaction } from './live-ctx';

const HOUR_MS = 3_600_000;

// reports-admin §3 Company time context: offset_millis from local midnight, whole minutes, within half a day.
export const timeContextSaveSchema = z.object({
  offset_millis: z
    .number({ error: 'Missing required field: Start of Day' })
    .int()
    .min(-12 * HOUR_MS, 'The start of day must be within 12 hours of midnight')
    .max(12 * HOUR_MS, 'The start of day must be within 12 hours of midnight')
    .refine((v) => v % 60_000 === 0, 'The start of day must be a whole minute'),
  effectivedate: z.string({ error: 'Missing required field: Effective Date' }).pipe(dayString),
});

/**
 * Start-of-day (time context; live-operations §7 "Time context save and delete", paths chosen in
 * decision 0703).
 * GET    /api/timecontext → `{ currentTimeContext: { offset_millis }, futureTimeContext: { offset_millis,
 *   effectivedate } | null }`
 * PUT    /api/timecontext `{ offset_millis, effectivedate }` (admins) → the same; replaces a pending change
 * DELETE /api/timecontext (admins) → the same without the pending change; 404 when there is none
 */
export const timeContextRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => getTimeContext(ctx))))
  .put('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, timeContextSaveSchema);
    const saved = await inTransaction(c, (ctx) => saveTimeContext(ctx, body));
    await reinitEveryMachine(c.var.scope, c.var.deps.bus);
    return c.json(saved);
  })
  .delete('/', requireAdmin, async (c) => {
    const saved = await inTransaction(c, (ctx) => deleteTimeContext(ctx));
    await reinitEveryMachine(c.var.scope, c.var.deps.bus);
    return c.json(saved);
  });
