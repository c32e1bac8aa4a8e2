import type { Context } from 'hono';
import { z } from 'zod';
import { dayStringSchema, parseDay } from '@takt/domain';
import { ApiError, validationError } from './errors';
import { checkTimeWindow } from './time-bounds';

function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

const badJson = () => new ApiError(400, 'BAD_JSON', 'The request body must be valid JSON.');

/** Parse a JSON body with a zod schema; a malformed body or a failed rule answers 400 with the problems. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const raw: unknown = await c.req.json().catch(() => {
    throw badJson();
  });
  return bounded(c, parseWith(schema, raw), 'body');
}

/** Decision 0980: the parsed request's times checked against the window (http/time-bounds.ts). */
function bounded<T>(c: Context, data: T, from: 'query' | 'body'): T {
  checkTimeWindow(c, data, from);
  return data;
}

/** jsonBody for calls whose body may be left out entirely (it then reads as `{}`). */
export async function optionalJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.trim() === '') return bounded(c, parseWith(schema, {}), 'body');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badJson();
  }
  return bounded(c, parseWith(schema, raw), 'body');
}

/** Parse query parameters with a zod schema. */
export function queryParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return bounded(c, parseWith(schema, c.req.query()), 'query');
}

/** A 'YYYY-MM-DD' date that exists on the calendar (2025-02-30 does not). */
export const dayString = dayStringSchema.refine((s) => {
  try {
    parseDay(s);
    return true;
  } catch {
    return false;
  }
}, 'Not a valid date');

/**
 * The largest value of an `integer` column on PostgreSQL (int4). SQLite would store more, so the API refuses
 * it on both dialects instead of answering 500 on one of them.
 */
export const INT_COLUMN_MAX = 2_147_483_647;

/** A whole number that fits an `integer` column. */
export const intField = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(-INT_COLUMN_MAX, `${label} must be at least -${INT_COLUMN_MAX}`)
    .max(INT_COLUMN_MAX, `${label} must be at most ${INT_COLUMN_MAX}`);

/** Milliseconds in a `bigint` column: whole and not negative (live-operations §9: cycle time in ms). */
export const durationMsField = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number of milliseconds`)
    .min(0, `${label} must not be negative`);
