import { Hono } from 'hono';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { z } from 'zod';
import { boardPathOf, DEVICE_VIEWS, idSchema } from '@takt/domain';
import type { tabletSchema } from '@takt/domain';
import { TABLET_COOKIE } from '../auth/middleware';
import { bearerToken } from '../auth/tokens';
import type { AppEnv } from '../http/context';
import { requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import {
  activateDevice,
  associateByCode,
  changeTablet,
  companyTablets,
  purgeTablets,
  pushTabletAction,
  refreshAllTablets,
  removeTablet,
  revokeTabletById,
  tabletOr404,
} from '../services/tablets';
import type { Tablet } from '../repositories/tablets';

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
//   POST   /api/tablets/purge                  → { purgedTabletCount } (reports-admin §7; the revoked ones,
//                                                decision 0890)
// Device (no session; the device token):
//   POST   /tablet/activate  Authorization: Bearer <token> → { tablet: { id, serial_number, remote_identifier,
//          machine_id, dashboardView }, redirectTo } + httpOnly takt_tablet cookie

// The view the tablet opens (live-operations §3 Tablet.dashboardView, default opdash).
// A view of DEVICE_VIEWS: `opdash` (the workcenter) or a live board, which makes the device a TV (decision 1041).
const dashboardViewSchema = z.enum(DEVICE_VIEWS, {
  message: `Choose one of: ${DEVICE_VIEWS.join(', ')}.`,
});
const remoteIdentifierSchema = z.string().trim().max(200).nullish();

export const associateSchema = z.object({
  code: z.string().trim().min(1, 'Enter the code shown on the tablet.').max(20),
  machineId: idSchema.nullish(),
  remote_identifier: remoteIdentifierSchema,
  dashboardView: dashboardViewSchema.optional(),
});
export const updateSchema = z.object({
  remote_identifier: remoteIdentifierSchema,
  machine_id: idSchema.nullish(),
  dashboardView: dashboardViewSchema.optional(),
});

/** A year: a tablet stays registered until revoked. */
const TABLET_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

export const tabletsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await companyTablets(c.var.scope)))
  .get('/:id', async (c) => c.json(await tabletOr404(c.var.scope, c.req.param('id'))))
  .post('/associate', async (c) => {
    const { db, now, bus } = c.var.deps;
    const body = await jsonBody(c, associateSchema);
    const tablet = await associateByCode(
      c.var.scope,
      { db, bus, now: now(), userId: c.var.caller.user.id },
      {
        code: body.code,
        machineId: body.machineId ?? null,
        remoteIdentifier: body.remote_identifier ?? null,
        ...(body.dashboardView ? { dashboardView: body.dashboardView } : {}),
      },
    );
    return c.json(tablet);
  })
  .post('/refresh-all', async (c) => c.json(await refreshAllTablets(c.var.scope, c.var.deps.bus)))
  .post('/purge', async (c) => c.json(await purgeTablets(c.var.scope)))
  .put('/:id', async (c) => {
    const body = await jsonBody(c, updateSchema);
    return c.json(await changeTablet(c.var.scope, c.req.param('id'), body, c.var.deps.bus));
  })
  .delete('/:id', async (c) => {
    await removeTablet(c.var.scope, c.req.param('id'));
    return c.body(null, 204);
  })
  .post('/:id/revoke', async (c) => c.json(await revokeTabletById(c.var.scope, c.req.param('id'))))
  .post('/:id/:action{refresh|restart}', async (c) => {
    const action = c.req.param('action') as 'refresh' | 'restart';
    return c.json(await pushTabletAction(c.var.scope, c.var.deps.bus, c.req.param('id'), action));
  });

/**
 * A registered device's answer, the same for POST /tablet/activate and POST /login/device so the floor app
 * keeps the device the same way: the httpOnly device cookie, then live-operations §3 Tablet (tabletSchema);
 * the menu's Remote Identifier shows remote_identifier.
 */
export function deviceAnswer(c: Context<AppEnv>, tablet: Tablet, token: string, secure: boolean) {
  renewDeviceCookie(c, token, secure);
  const body: { tablet: z.infer<typeof tabletSchema>; redirectTo: string } = {
    tablet: {
      id: tablet.id,
      serial_number: tablet.serial_number,
      remote_identifier: tablet.remote_identifier,
      machine_id: tablet.machine_id,
      dashboardView: tablet.dashboardView,
    },
    // A TV opens its board (decision 1041); a tablet its machine's workcenter, or the machine list.
    redirectTo:
      boardPathOf(tablet) ?? (tablet.machine_id ? `/${encodeURIComponent(tablet.machine_id)}` : '/'),
  };
  return c.json(body);
}

/**
 * The device cookie's year starts again whenever the device asks who it is (every page load, and the 24-hour
 * reload): a TV or tablet in use never loses its credential mid-shift, only by a revoke (decision 1041).
 */
export function renewDeviceCookie(c: Context<AppEnv>, token: string, secure: boolean): void {
  setCookie(c, TABLET_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure,
    path: '/',
    maxAge: TABLET_COOKIE_MAX_AGE_S,
  });
}

/** The device side, outside /api: no session, the registration's device token. */
export const tabletDeviceRoutes = new Hono<AppEnv>().post('/activate', async (c) => {
  const { db, now, secureCookies } = c.var.deps;
  const { tablet, token } = await activateDevice(db, bearerToken(c.req.header('authorization')), now());
  return deviceAnswer(c, tablet, token, secureCookies);
});
