import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  forgotPasswordRequestSchema,
  inviteCreateRequestSchema,
  setPasswordRequestSchema,
  shiftNotificationsRequestSchema,
  tokenRequestSchema,
  userUpdateRequestSchema,
} from '@takt/domain';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { requireAdmin, requirePermission } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { outboxTransport } from '../mail/transport';
import {
  ACCOUNT_TEXTS,
  accountUsers,
  createInvites,
  describeLink,
  editUser,
  forgotPassword,
  invites,
  profile,
  removeInvite,
  removeUser,
  resendInvite,
  revokeMyOtherSessions,
  revokeSessions,
  sendMyResetLink,
  sendResetLink,
  setLocked,
  setPasswordWithLink,
  updateShiftNotifications,
} from '../services/accounts-users';
import { inTransaction } from './live-ctx';
import { publicUrlOf } from '../http/public-url';

// reports-admin §2 accounts and §7 "Users: update, revoke, remove … invites (resend)" (paths not shown in the
// spec: decision 0880).

const transportOf = (c: Context<AppEnv>) => c.var.deps.mail ?? outboxTransport;
/** Links in e-mails start with the configured public address, never the request's Host (decision 0989). */
const originOf = (c: Context<AppEnv>) => publicUrlOf(c.var.deps);

/** A sent-or-not answer: the spec's E-mail texts; the attempt itself is kept in the outbox either way. */
const mailAnswer = (c: Context<AppEnv>, result: { sent: boolean; message: string }) => {
  if (!result.sent) throw new ApiError(502, 'MAIL_FAILED', result.message);
  return c.json({ message: result.message });
};

/**
 * Users of the company, for admins (reports-admin §1 "Admins configure … users").
 * GET /api/users → users by name; PUT /api/users/:id `{ displayName?, role? }` → the user
 * POST /api/users/:id/lock | /unlock → the user; POST /api/users/:id/revoke → `{ revoked }`
 * POST /api/users/:id/reset-password → `{ message }` (502 MAIL_FAILED); DELETE /api/users/:id → 204
 */
export const usersRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => accountUsers(ctx))))
  .put('/:id', async (c) => {
    const body = await jsonBody(c, userUpdateRequestSchema);
    return c.json(await inTransaction(c, (ctx) => editUser(ctx, c.req.param('id'), body)));
  })
  .post('/:id/lock', async (c) =>
    c.json(await inTransaction(c, (ctx) => setLocked(ctx, c.req.param('id'), true))),
  )
  .post('/:id/unlock', async (c) =>
    c.json(await inTransaction(c, (ctx) => setLocked(ctx, c.req.param('id'), false))),
  )
  .post('/:id/revoke', async (c) =>
    c.json(await inTransaction(c, (ctx) => revokeSessions(ctx, c.req.param('id')))),
  )
  .post('/:id/reset-password', async (c) =>
    mailAnswer(
      c,
      await inTransaction(c, (ctx) => sendResetLink(ctx, transportOf(c), c.req.param('id'), originOf(c))),
    ),
  )
  .delete('/:id', async (c) => {
    await inTransaction(c, (ctx) => removeUser(ctx, c.req.param('id')));
    return c.body(null, 204);
  });

/**
 * Invites (reports-admin §2; §6 "InviteUsers … gates the invites screen").
 * GET /api/invites → open invites, newest first
 * POST /api/invites `{ invitees: string[], role }` → 201 `{ invites, failed }`; 502 when an e-mail failed
 * POST /api/invites/:id/resend → `{ message }`; DELETE /api/invites/:id → 204
 */
export const invitesRoutes = new Hono<AppEnv>()
  .use('*', requirePermission('InviteUsers'))
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => invites(ctx))))
  .post('/', async (c) => {
    const body = await jsonBody(c, inviteCreateRequestSchema);
    const result = await inTransaction(c, (ctx) => createInvites(ctx, transportOf(c), body, originOf(c)));
    // The invites are made (and listed, to resend); only the e-mail failed.
    if (result.failed.length > 0) throw new ApiError(502, 'MAIL_FAILED', ACCOUNT_TEXTS.mailFailed);
    return c.json(result, 201);
  })
  .post('/:id/resend', async (c) =>
    mailAnswer(
      c,
      await inTransaction(c, (ctx) => resendInvite(ctx, transportOf(c), c.req.param('id'), originOf(c))),
    ),
  )
  .delete('/:id', async (c) => {
    await inTransaction(c, (ctx) => removeInvite(ctx, c.req.param('id')));
    return c.body(null, 204);
  });

/**
 * The caller's own account (reports-admin §2 "Profile: shift notifications, revoke sessions, … reset
 * password"). GET /api/profile; PUT /api/profile/shift-notifications `{ notify, shifts }`;
 * POST /api/profile/revoke-sessions → `{ revoked }` (every other session); POST /api/profile/reset-password.
 */
export const profileRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await inTransaction(c, (ctx) => profile(ctx))))
  .put('/shift-notifications', async (c) => {
    const body = await jsonBody(c, shiftNotificationsRequestSchema);
    return c.json(await inTransaction(c, (ctx) => updateShiftNotifications(ctx, body)));
  })
  .post('/revoke-sessions', async (c) => c.json(await inTransaction(c, (ctx) => revokeMyOtherSessions(ctx))))
  .post('/reset-password', async (c) =>
    mailAnswer(c, await inTransaction(c, (ctx) => sendMyResetLink(ctx, transportOf(c), originOf(c)))),
  );

/**
 * E-mailed links, without a caller (the token is the proof), mounted before the caller-guarded /api:
 * POST /api/account/link `{ token }` → `{ kind, email, companyName }` (404 LINK_INVALID)
 * POST /api/account/password `{ token, password, retype, displayName? }` → `{ email }`, once
 * POST /api/account/forgot `{ email }` → `{ message }`, the same whether or not the address has an account
 * Tokens travel in bodies, never in URLs, so they stay out of access logs.
 */
export const accountLinkRoutes = new Hono<AppEnv>()
  .post('/link', async (c) => {
    const { token } = await jsonBody(c, tokenRequestSchema);
    return c.json(await describeLink(c.var.deps.db, token, c.var.deps.now()));
  })
  .post('/password', async (c) => {
    const body = await jsonBody(c, setPasswordRequestSchema);
    return c.json(await setPasswordWithLink(c.var.deps.db, body, c.var.deps.now()));
  })
  .post('/forgot', async (c) => {
    const { email } = await jsonBody(c, forgotPasswordRequestSchema);
    const { db, now } = c.var.deps;
    return c.json(await forgotPassword(db, transportOf(c), email, originOf(c), now()));
  });
