import type { Context } from 'hono';
import type { CompanyScope } from '@takt/db';
import type { ServiceCtx } from '../services/context';
import type { AppEnv } from './context';

/** The service context of a request: facts happen now (the sync endpoint passes occurredAt instead). */
export function requestCtx(c: Context<AppEnv>, scope: CompanyScope): ServiceCtx {
  const now = c.var.deps.now();
  return { scope, at: now, now, caller: c.var.caller };
}
