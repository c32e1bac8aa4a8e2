import type { MiddlewareHandler } from 'hono';
import { permissionsFor } from '@takt/domain';
import type { Permission, SyncCommand, SyncCommandType } from '@takt/domain';
import type { ServiceCtx } from '../services/context';
import type { SyncHandlers } from '../services/sync';
import type { AppEnv, Caller } from './context';
import { forbidden } from './errors';

export function callerPermissions(caller: Caller, demoMode: boolean): Permission[] {
  const isAdmin = caller.user.role === 'admin' || caller.user.isRoot;
  return permissionsFor({ tier: caller.company.productTier, isRoot: caller.user.isRoot, isAdmin, demoMode });
}

/** live-operations §6 / reports-admin §6: a route that needs a permission answers 403 without it. */
export const requirePermission =
  (permission: Permission): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (!callerPermissions(c.var.caller, c.var.deps.demoMode).includes(permission)) throw forbidden();
    await next();
  };

/** Admin-only routes (isAdmin: role admin or root). */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const u = c.var.caller.user;
  if (!(u.role === 'admin' || u.isRoot)) throw forbidden();
  await next();
};

/**
 * Admin-only routes an integration may also call with an API key (decision 1047): the key's scope was already
 * checked before any route ran (auth/api-key-scopes.ts), and it acts only in its own company.
 */
export const requireAdminOrApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.caller.kind === 'apiKey') return next();
  return requireAdmin(c, next);
};

/** Internal screens are for root users (reports-admin §6); anyone else gets 403. */
export const requireRoot: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.caller.user.isRoot) throw forbidden();
  await next();
};

/**
 * The permission each offline command needs: the one its HTTP call's route requires (live-operations §6:
 * Start/Stop Job, setup, categorizing, Reject Part, manual add/undo and the operator picker are FullProduct).
 * Without it the sync endpoint would be a way around the routes' gates.
 */
export const SYNC_COMMAND_PERMISSION: Record<SyncCommandType, Permission> = {
  start_job: 'FullProduct',
  stop_job: 'FullProduct',
  setup_stage: 'FullProduct',
  start_production: 'FullProduct',
  categorize_downtime: 'FullProduct',
  split_downtime: 'FullProduct',
  reject_part: 'FullProduct',
  part_correction: 'FullProduct',
  manual_add_part: 'FullProduct',
  manual_undo: 'FullProduct',
  operator_login: 'FullProduct',
  operator_logout: 'FullProduct',
};

/** Sync commands whose permission the caller lacks are rejected (403 FORBIDDEN), each on its own. */
export function permitSyncHandlers(handlers: SyncHandlers): SyncHandlers {
  return Object.fromEntries(
    Object.entries(handlers).map(([type, handler]) => [
      type,
      async (ctx: ServiceCtx, command: SyncCommand) => {
        // demoMode only adds InviteUsers, which no command needs.
        const granted = callerPermissions(ctx.caller, false);
        if (!granted.includes(SYNC_COMMAND_PERMISSION[command.type])) throw forbidden();
        return handler!(ctx, command);
      },
    ]),
  ) as SyncHandlers;
}
