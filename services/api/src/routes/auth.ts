import { Hono } from 'hono';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { idSchema, loginRequestSchema } from '@takt/domain';
import { SESSION_COOKIE, TABLET_COOKIE } from '../auth/middleware';
import type { AppEnv } from '../http/context';
import { jsonBody } from '../http/validate';
import { outboxTransport } from '../mail/transport';
import { SESSION_TTL_MS } from '../repositories/sessions';
import { loginWithCode, registerDevice, requestLoginCode } from '../services/accounts-login';
import { boardOfCaller } from '../auth/board-device';
import { currentAccount, login, logout, toMe } from '../services/auth';
import { clientAddress } from '../http/client-address';
import { publicUrlOf } from '../http/public-url';
import { deviceAnswer, renewDeviceCookie } from './tablets';

// The login page's variants (reports-admin §2 "Login: device button and code option depending on query
// parameters"; decision 0935), outside /api like POST /login:
//   POST /login/device  { email, password, serial_number?, machineId?, remote_identifier? } → { tablet, redirectTo }
//        + the takt_tablet cookie (admins only: 403 DEVICE_ADMIN_ONLY; no session is opened)
//   POST /login/code/request { email } → { message } (the same whether or not the address has an account)
//   POST /login/code    { email, code } → { user } + the session cookie, like POST /login

const emailSchema = loginRequestSchema.shape.email;
export const deviceSchema = loginRequestSchema.extend({
  serial_number: z.string().trim().min(1).max(100).nullish(),
  machineId: idSchema.nullish(),
  remote_identifier: z.string().trim().max(200).nullish(),
});
export const codeRequestSchema = z.object({ email: emailSchema });
export const codeLoginSchema = z.object({
  email: emailSchema,
  code: z.string().trim().min(1, 'Enter the code from the e-mail.').max(20),
});

function setSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: c.var.deps.secureCookies,
    path: '/',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

/** POST /login and DELETE /logout (ARCHITECTURE.md "Conventions"); outside /api, no caller needed. */
export const authRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const { db, now, demoMode } = c.var.deps;
    const { token, me } = await login(
      db,
      await jsonBody(c, loginRequestSchema),
      now(),
      demoMode,
      clientAddress(c),
      c.var.metrics.passwordChecked,
    );
    setSessionCookie(c, token);
    return c.json({ user: me });
  })
  .post('/login/device', async (c) => {
    const { db, now, secureCookies } = c.var.deps;
    const body = await jsonBody(c, deviceSchema);
    const { tablet, token } = await registerDevice(
      db,
      {
        email: body.email,
        password: body.password,
        serialNumber: body.serial_number ?? null,
        machineId: body.machineId ?? null,
        remoteIdentifier: body.remote_identifier ?? null,
      },
      now(),
      clientAddress(c),
      c.var.metrics.passwordChecked,
    );
    return deviceAnswer(c, tablet, token, secureCookies);
  })
  .post('/login/code/request', async (c) => {
    const { db, now, mail } = c.var.deps;
    const { email } = await jsonBody(c, codeRequestSchema);
    // Links in e-mail start with the configured public address, never the request's Host (decision 0989).
    return c.json(await requestLoginCode(db, mail ?? outboxTransport, email, publicUrlOf(c.var.deps), now()));
  })
  .post('/login/code', async (c) => {
    const { db, now, demoMode } = c.var.deps;
    const body = await jsonBody(c, codeLoginSchema);
    const { token, me } = await loginWithCode(db, body, now(), demoMode, clientAddress(c));
    setSessionCookie(c, token);
    return c.json({ user: me });
  })
  .delete('/logout', async (c) => {
    const { db, now } = c.var.deps;
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await logout(db, token, now());
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  })
  // live-operations §7: GET /timesync lets clients correct their clock (offline commands' occurredAt).
  .get('/timesync', (c) => c.json({ now: c.var.deps.now() }));

export const meRoutes = new Hono<AppEnv>().get('/', async (c) => {
  // A TV is told the board it shows (decision 1041), so the floor app opens it and stays there.
  const board = boardOfCaller(c.var.caller);
  const deviceCookie = getCookie(c, TABLET_COOKIE);
  if (c.var.caller.kind === 'tablet' && deviceCookie && !c.req.header('authorization'))
    renewDeviceCookie(c, deviceCookie, c.var.deps.secureCookies);
  // reports-admin §3 "Current user" whole (decision 1105): the account's fields beside the caller's.
  const account = await currentAccount(c.var.scope, c.var.caller);
  return c.json({ ...toMe(c.var.caller, c.var.deps.demoMode), ...account, ...(board ? { board } : {}) });
});
