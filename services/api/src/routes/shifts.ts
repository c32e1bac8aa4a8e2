import { Hono } from 'hono';
import { z } from 'zod';
import { queryBool } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { dayString, jsonBody, optionalJsonBody, queryParams } from '../http/validate';
import {
  createShift,
  currentShift,
  deletePendingShiftChange,
  listShifts,
  newShiftDefaults,
  restoreShift,
  SHIFT_TEXTS,
  shiftColors,
  terminateShift,
  updateShift,
} from '../services/shifts';
import { inTransaction } from './live-ctx';

// reports-admin §3 Shift version and §5: at least one weekday; start and end differ (end ≤ start wraps
// overnight).
const offset = z.number().int().min(0).max(2880);
const name = z
  .string({ error: 'Missing required field: Name' })
  .trim()
  .min(1, 'Missing required field: Name')
  .max(250, 'At most 250 characters');
const byweekday = z.array(z.number().int().min(0).max(6)).min(1, 'Select at least one day');
const differ = <T extends { startoffsetminutes?: number; endoffsetminutes?: number }>(v: T) =>
  v.startoffsetminutes === undefined || v.startoffsetminutes !== v.endoffsetminutes;
const notEmpty = { message: SHIFT_TEXTS.empty, path: ['endoffsetminutes'] };

const shiftFields = {
  startoffsetminutes: offset.optional(),
  endoffsetminutes: offset.optional(),
  byweekday: byweekday.optional(),
  effectivedate: dayString.optional(),
  /** Save even though the times overlap another shift (decision 1050). */
  allowOverlap: z.boolean().optional(),
};
export const shiftCreateSchema = z.object({ name, ...shiftFields }).refine(differ, notEmpty);
export const shiftUpdateSchema = z.object({ name: name.optional(), ...shiftFields }).refine(differ, notEmpty);
export const terminateSchema = z.object({ terminationdate: dayString.optional() });
export const listQuerySchema = z.object({ includeTerminated: queryBool.optional() });

/**
 * Shifts (reports-admin §3, §4, §5, §7; live-operations §7 "Shifts: current shift"; decision 0704).
 * GET    /api/shifts[?includeTerminated=false] → shifts with their current and latest (pending) versions
 * GET    /api/shifts/current → `{ id, name, start, end, shopDate }` of the shift running now, or null
 * GET    /api/shifts/color → `[{ id, name, color }]`
 * GET    /api/shifts/defaults → a new shift's form: 8 hours from the last shift's end, effective tomorrow
 * Admins:
 * POST   /api/shifts `{ name, startoffsetminutes?, endoffsetminutes?, byweekday?, effectivedate? }` → 201
 * PUT    /api/shifts/:id `{ name?, startoffsetminutes?, endoffsetminutes?, byweekday?, effectivedate? }`
 * PUT    /api/shifts/:id/terminate `{ terminationdate? }` (default tomorrow)
 * PUT    /api/shifts/:id/restore (undo termination)
 * DELETE /api/shifts/:id/pending → the shift, or 204 when it only existed as the pending version
 */
export const shiftsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const q = queryParams(c, listQuerySchema);
    return c.json(await inTransaction(c, (ctx) => listShifts(ctx, q)));
  })
  .get('/current', async (c) => c.json(await inTransaction(c, (ctx) => currentShift(ctx))))
  .get('/color', async (c) => c.json(await inTransaction(c, (ctx) => shiftColors(ctx))))
  .get('/defaults', async (c) => c.json(await inTransaction(c, (ctx) => newShiftDefaults(ctx))))
  .post('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, shiftCreateSchema);
    return c.json(await inTransaction(c, (ctx) => createShift(ctx, body)), 201);
  })
  .put('/:id', requireAdmin, async (c) => {
    const body = await jsonBody(c, shiftUpdateSchema);
    return c.json(await inTransaction(c, (ctx) => updateShift(ctx, c.req.param('id'), body)));
  })
  .put('/:id/terminate', requireAdmin, async (c) => {
    const body = await optionalJsonBody(c, terminateSchema);
    return c.json(await inTransaction(c, (ctx) => terminateShift(ctx, c.req.param('id'), body)));
  })
  .put('/:id/restore', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => restoreShift(ctx, c.req.param('id')))),
  )
  .delete('/:id/pending', requireAdmin, async (c) => {
    const view = await inTransaction(c, (ctx) => deletePendingShiftChange(ctx, c.req.param('id')));
    return view ? c.json(view) : c.body(null, 204);
  });
