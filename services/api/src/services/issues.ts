import { ApiError, notFound } from '../http/errors';
import type { Machine } from '../repositories/machines';
import { getMachine } from '../repositories/machines';
import type { ServiceCtx } from './context';

// The error shapes the services answer with (live-operations §8: a heading the client shows, the problems
// listed under it), shared by every resource's service.

export interface Issue {
  field: string;
  code: string;
  message: string;
}

/** A 400 with the heading the client shows and the list of problems under it. */
export const invalid = (heading: string, issues: Issue[]) =>
  new ApiError(400, 'VALIDATION_ERROR', heading, issues);

/** Re-head a validation error from the request parser with the resource's failure text (§8). */
export async function headed<T>(heading: string, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') {
      throw new ApiError(400, 'VALIDATION_ERROR', heading, err.issues);
    }
    throw err;
  }
}

export async function machineOr404(ctx: ServiceCtx, machineId: string): Promise<Machine> {
  const m = await getMachine(ctx.scope, machineId);
  if (!m) throw notFound('Machine');
  return m;
}
