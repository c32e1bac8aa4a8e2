import type { MiddlewareHandler } from 'hono';
import { permissionsFor } from '@takt/domain';
import type { Permission } from '@takt/domain';
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
