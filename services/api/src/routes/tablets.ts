import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { z } from 'zod';
import { idSchema } from '@takt/domain';
import type { tabletSchema } from '@takt/domain';
import { TABLET_COOKIE } from '../auth/middleware';
import { bearerToken } from '../auth/tokens';
import type { AppEnv } from '../http/context';
import { ApiError, notAuthenticated, notFound } from '../http/errors';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { pushToTablets } from '../live/tablet-auth';
import {
  activateTablet,
  associateTablet,
  deleteTablet,
  findPendingByCode,
  getTablet,
  listTablets,
  revokeTablet,
  updateTablet,
} from '../repositories/tablets';
import { getMachine } from '../repositories/machines';
import type { Tablet } from '../repositories/tablets';
import type { CompanyScope } from '@takt/db';

// live-operations §2 "Operator runs (admin) and tablets", §3 Tablet, §7 Tablets, §8 tablet texts.
//
// Admin (role admin or root, company scoped; another company's tablet is 404):
//   GET    /api/tablets                        → Tablet[]
//   GET    /api/tablets/:id                    → the tablet (getTablet)
//   POST   /api/tablets/associate              { code, machineId?, remote_identifier? } → the tablet
//   PUT    /api/tablets/:id                    { remote_identifier?, machine_id?, dashboardView? } → the tablet
//   DELETE /api/tablets/:id                    → 204
//   POST   /api/tablets/:id/revoke             → the tablet (state revoked; its token answers 401)
//   POST   /api/tablets/:id/refresh | /restart → { pushed, notPushed }; 409 with §8's text when not reached
//   POST   /api/tablets/refresh-all            → { pushed, notPushed, message }
// Device (no session; the device token):
//   POST   /tablet/activate  Authorization: Bearer <token> → { tablet: { id, serial_number, remote_identifier,
//          machine_id, dashboardView }, redirectTo } + httpOnly takt_tablet cookie

// The view the tablet opens (live-operations §3 Tablet.dashboardView, default opdash).
const dashboardViewSchema = z.string().trim().min(1).max(40);
const remoteIdentifierSchema = z.string().trim().max(200).nullish();

const associateSchema = z.object({
  code: z.string().trim().min(1, 'Enter the code shown on the tablet.').max(20),
  machineId: idSchema.nullish(),
  remote_identifier: remoteIdentifierSchema,
});
const updateSchema = z.object({
  remote_identifier: remoteIdentifierSchema,
  machine_id: idSchema.nullish(),
  dashboardView: dashboardViewSchema.optional(),
});

/** A year: a tablet stays registered until revoked. */
const TABLET_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

export const TABLET_TEXTS = {
  codeInvalid: 'The code is invalid or has expired.',
  refreshOne: (label: string) => `Unable to refresh tablet ${label}`,
  restartOne: (label: string) => `Unable to restart application on tablet ${label}`,
  refreshAllFailed: 'Unable to refresh one or more tablets',
  refreshAllOk: 'Refreshing All Tablets',
};

const label = (t: Tablet) => t.remote_identifier || t.serial_number || t.id;

async function machineExists(scope: CompanyScope, id: string): Promise<void> {
  if (!(await getMachine(scope, id))) throw notFound('Machine');
}

async function tabletOr404(scope: CompanyScope, id: string): Promise<Tablet> {
  const t = await getTablet(scope, id);
  if (!t) throw notFound('Tablet');
  return t;
}

export const tabletsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await listTablets(c.var.scope)))
  .get('/:id', async (c) => c.json(await tabletOr404(c.var.scope, c.req.param('id'))))
  .post('/associate', async (c) => {
    const { db, now, bus } = c.var.deps;
    const body = await jsonBody(c, associateSchema);
    if (body.machineId) await machineExists(c.var.scope, body.machineId);
    const pending = await findPendingByCode(db, body.code, now());
    if (!pending) throw new ApiError(404, 'CODE_NOT_FOUND', TABLET_TEXTS.codeInvalid);
    const claimed = await associateTablet(db, pending.id, {
      companyId: c.var.scope.companyId,
      machineId: body.machineId ?? null,
      remoteIdentifier: body.remote_identifier ?? null,
      userId: c.var.caller.user.id,
    });
    if (!claimed) throw new ApiError(404, 'CODE_NOT_FOUND', TABLET_TEXTS.codeInvalid);
    // The tablet's socket may be held by another API process: the bus reaches it there.
    const { notPushed } = await pushToTablets(bus, c.var.scope.companyId, [pending.id], 'associated');
    const tablet = await tabletOr404(c.var.scope, pending.id);
    return c.json({ ...tablet, notified: notPushed.length === 0 });
  })
  .post('/refresh-all', async (c) => {
    const tablets = (await listTablets(c.var.scope)).filter((t) => t.state === 'active');
    const result = await pushToTablets(
      c.var.deps.bus,
      c.var.scope.companyId,
      tablets.map((t) => t.id),
      'refresh',
    );
    return c.json({
      ...result,
      message: result.notPushed.length ? TABLET_TEXTS.refreshAllFailed : TABLET_TEXTS.refreshAllOk,
    });
  })
  .put('/:id', async (c) => {
    const id = c.req.param('id');
    const body = await jsonBody(c, updateSchema);
    await tabletOr404(c.var.scope, id);
    if (body.machine_id) await machineExists(c.var.scope, body.machine_id);
    await updateTablet(c.var.scope, id, body);
    return c.json(await tabletOr404(c.var.scope, id));
  })
  .delete('/:id', async (c) => {
    if (!(await deleteTablet(c.var.scope, c.req.param('id')))) throw notFound('Tablet');
    return c.body(null, 204);
  })
  .post('/:id/revoke', async (c) => {
    const id = c.req.param('id');
    if (!(await revokeTablet(c.var.scope, id))) throw notFound('Tablet');
    return c.json(await tabletOr404(c.var.scope, id));
  })
  .post('/:id/:action{refresh|restart}', async (c) => {
    const tablet = await tabletOr404(c.var.scope, c.req.param('id'));
    const action = c.req.param('action') as 'refresh' | 'restart';
    const result = await pushToTablets(c.var.deps.bus, c.var.scope.companyId, [tablet.id], action);
    if (result.notPushed.length) {
      const text = action === 'refresh' ? TABLET_TEXTS.refreshOne : TABLET_TEXTS.restartOne;
      throw new ApiError(409, 'TABLET_UNREACHABLE', text(label(tablet)));
    }
    return c.json(result);
  });

/** The device side, outside /api: no session, the registration's device token. */
export const tabletDeviceRoutes = new Hono<AppEnv>().post('/activate', async (c) => {
  const { db, now, secureCookies } = c.var.deps;
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw notAuthenticated();
  const tablet = await activateTablet(db, token, now());
  if (!tablet) throw notAuthenticated();
  setCookie(c, TABLET_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: secureCookies,
    path: '/',
    maxAge: TABLET_COOKIE_MAX_AGE_S,
  });
  // live-operations §3 Tablet (tabletSchema): the menu's Remote Identifier shows remote_identifier.
  const body: { tablet: z.infer<typeof tabletSchema>; redirectTo: string } = {
    tablet: {
      id: tablet.id,
      serial_number: tablet.serial_number,
      remote_identifier: tablet.remote_identifier,
      machine_id: tablet.machine_id,
      dashboardView: tablet.dashboardView,
    },
    redirectTo: tablet.machine_id ? `/${encodeURIComponent(tablet.machine_id)}` : '/',
  };
  return c.json(body);
});
