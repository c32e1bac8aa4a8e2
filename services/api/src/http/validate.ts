import type { Context } from 'hono';
import type { z } from 'zod';
import { dayStringSchema, parseDay } from '@takt/domain';
import { ApiError, validationError } from './errors';

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
  return parseWith(schema, raw);
}

/** jsonBody for calls whose body may be left out entirely (it then reads as `{}`). */
export async function optionalJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.trim() === '') return parseWith(schema, {});
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badJson();
  }
  return parseWith(schema, raw);
}

/** Parse query parameters with a zod schema. */
export function queryParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
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
