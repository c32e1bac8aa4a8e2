import { z } from 'zod';
import { REPORT_INTERVAL_UNITS } from '@takt/domain';

// The answers of the API (decision 1079): each documented call's success answer is a zod schema, written
// beside the call tables (answers-*.ts) from the domain's own entity schemas where they exist. Two checks keep
// a schema true to its handler: here at compile time (the schema's output and the type the handler returns
// must each be assignable to the other), and routes/openapi-answers.test.ts at run time (real answers read
// with the served document's schemas, objects closed: a field the schema does not name fails).

/** A handler's answer as JSON carries it: brands dropped, arrays writable, `undefined` fields left out. */
export type Json<T> = T extends number
  ? number
  : T extends string | boolean | null | undefined
    ? T
    : T extends readonly (infer U)[]
      ? Json<U>[]
      : T extends object
        ? { [K in keyof T]: Json<T[K]> }
        : T;

/** Each type assignable to the other. */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `answer<T>()(schema)`: the schema of an answer whose handler returns `T`. It does not compile ("Expected 2
 * arguments") when the schema's output and `T` differ: a field one has and the other lacks (unless optional
 * on both sides' terms), or a field of another type. Write the check out while mending:
 * `const x: Json<T> = null! as z.output<typeof schema>` and the reverse show the difference.
 */
export const answer =
  <T>() =>
  <S extends z.ZodType>(schema: S, ..._agree: Agree<z.output<S>, Json<T>> extends true ? [] : [never]): S =>
    schema;

/** A handler's answer: what its (async) function returns. */
export type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

// Pieces many answers share. Times are epoch ms, durations ms; fractions are 0..1 (performance above 1
// allowed) and null where the apps show '-'.
export const ms = z.number();
export const fraction = z.number().nullable();
export const range = z.object({ start: ms, end: ms });
/** Machines whose figures in the range are still being recomputed (decision 1030): they may change. */
export const recomputing = z.array(z.object({ machineId: z.string(), machineName: z.string() }));
export const intervalUnit = z.enum(REPORT_INTERVAL_UNITS);
/** A report interval and the company day it starts on (YYYY-MM-DD). */
export const intervalRef = z.object({ start: ms, end: ms, shopDate: z.string() });
/** Parts made (METRICS.md §3): total, rejected, good. */
export const partsMade = z.object({ total: z.number(), rejected: z.number(), good: z.number() });
