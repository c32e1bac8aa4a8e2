import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import type { ServiceCtx } from '../services/context';

/**
 * Run a service call in one transaction of the caller's company, with `at` = `now` = the server clock
 * (a route records facts when they arrive; the offline sync builds its own ServiceCtx with occurredAt).
 */
export async function inTransaction<R>(
  c: Context<AppEnv>,
  work: (ctx: ServiceCtx) => Promise<R>,
): Promise<R> {
  const now = c.var.deps.now();
  const caller = c.var.caller;
  return c.var.scope.transaction((scope) => work({ scope, at: now, now, caller }));
}
