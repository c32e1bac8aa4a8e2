import { Hono } from 'hono';
import { z } from 'zod';
import { dayStringSchema, parseDay } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { createShift, currentShift, listShifts } from '../services/shifts';
import { inTransaction } from './live-ctx';

const validDay = (s: string) => {
  try {
    parseDay(s);
    return true;
  } catch {
    return false;
  }
};

// reports-admin §3 Shift version and §5: at least one weekday; start and end differ (end ≤ start wraps
// overnight).
const offset = z.number().int().min(0).max(2880);
const shiftCreateSchema = z
  .object({
    name: z
      .string({ error: 'Missing required field: Name' })
      .trim()
      .min(1, 'Missing required field: Name')
      .max(250),
    startoffsetminutes: offset,
    endoffsetminutes: offset,
    byweekday: z.array(z.number().int().min(0).max(6)).min(1, 'Select at least one day'),
    effectivedate: dayStringSchema.refine(validDay, 'Not a valid date').optional(),
  })
  .refine((v) => v.startoffsetminutes !== v.endoffsetminutes, {
    message: 'A shift cannot be empty',
    path: ['endoffsetminutes'],
  });

/**
 * Shifts (reports-admin §3; live-operations §7 "Shifts: current shift").
 * GET  /api/shifts → shifts with their current and latest versions
 * GET  /api/shifts/current → `{ id, name, start, end, shopDate }` of the shift running now, or null
 * POST /api/shifts `{ name, startoffsetminutes, endoffsetminutes, byweekday, effectivedate? }` (admins) → 201
 */
export const shiftsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => listShifts(ctx))))
  .get('/current', async (c) => c.json(await inTransaction(c, (ctx) => currentShift(ctx))))
  .post('/', requireAdmin, async (c) => {
    const body = await jsonBody(c, shiftCreateSchema);
    return c.json(await inTransaction(c, (ctx) => createShift(ctx, body)), 201);
  });
