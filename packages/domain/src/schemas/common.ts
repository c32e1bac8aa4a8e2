import { z } from 'zod';

// Shared building blocks of the zod schemas. Times are epoch ms (METRICS.md intro);
// ids are strings (the API's ids are UUIDs or numeric strings).

export const idSchema = z.string().min(1);
export const epochMsSchema = z.number().int();
export const durationMsSchema = z.number().nonnegative();
/** A shop date 'YYYY-MM-DD'. */
export const dayStringSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD');
export const colorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Expected a colour as #RRGGBB');
/** live-operations §5: notes and description text, at most 250 characters. */
export const noteSchema = z.string().max(250, 'At most 250 characters');
/** Query strings: numbers and epoch ms arrive as text. */
export const queryEpochMs = z.coerce.number().int();
export const queryBool = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);
/** A comma-separated list or repeated parameter. */
export const queryList = z.union([
  z.array(z.string()),
  z.string().transform((s) => (s === '' ? [] : s.split(','))),
]);
