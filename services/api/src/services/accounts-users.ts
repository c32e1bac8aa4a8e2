import { createHash, randomBytes } from 'node:crypto';
import type { AccountLink, AccountUser, Invite, Profile, Role } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { CompanyScope, Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords';
import { hashToken } from '../auth/tokens';
import type { UserCaller } from '../http/context';
import { ApiError, forbidden, invalidInput, notFound } from '../http/errors';
import { sendMail } from '../mail/send';
import type { MailTransport } from '../mail/transport';
import {
  deleteInvite,
  findInviteByEmail,
  findInviteByToken,
  findPasswordLink,
  getInvite,
  getShiftNotifications,
  insertInvite,
  insertPasswordLink,
  listInvites,
  renewInvite,
  saveShiftNotifications,
  spendPasswordLinks,
} from '../repositories/account-links';
import type { InviteRecord } from '../repositories/account-links';
import { setUserBrand } from '../repositories/user-preferences';
import { brandRefused, mayBrandInvites } from './invite-brand';
import { getCompany } from '../repositories/company';
import { mailableUser } from './login-throttle';
import {
  countActiveAdmins,
  createUser,
  deleteUser,
  emailTaken,
  getUser,
  listUsers,
  revokeUserSessions,
  updateUser,
  userHasPassword,
} from '../repositories/users';
import type { User } from '../repositories/users';
import type { ServiceCtx } from './context';

// reports-admin §2 accounts: Users (edit, delete, lock, unlock, reset password, revoke sessions), Invites
// (list, create, resend, delete), password set and reset through e-mailed single-use links, and the Profile
// (shift notifications, revoke sessions, reset password). What the spec leaves open is decision 0880.

/** An invite's link works for a week; a password link for a day (decision 0880). */
export const INVITE_TTL_MS = 7 * 86_400_000;
export const PASSWORD_LINK_TTL_MS = 86_400_000;
/** "Forgot password" e-mails per address within the login throttle's window (decision 0880). */
export const RESET_MAILS_PER_WINDOW = 3;

/** The page an e-mailed link opens; the token rides in the fragment, which browsers never send (decision 0880). */
export const SET_PASSWORD_PATH = '/app/set-password';

export const ACCOUNT_TEXTS = {
  // live-operations §8 / reports-admin §8 E-mail texts, for every message these screens send.
  sent: 'Sent. You should get it within the next 10 minutes.',
  mailFailed: 'Something went wrong. Please try again.',
  linkInvalid: 'This link is no longer valid. Ask for a new one.',
  forgotSent: 'If an account uses that address, an e-mail with a link to set a new password is on its way.',
  lastAdmin: 'The company needs at least one administrator who is not locked.',
  notYourself: 'You cannot do that to your own account.',
  rootOnly: 'Only internal staff can change this account.',
} as const;

const linkInvalid = () => new ApiError(404, 'LINK_INVALID', ACCOUNT_TEXTS.linkInvalid);

const newLinkToken = () => randomBytes(32).toString('base64url');
const linkUrl = (origin: string, token: string) => `${origin}${SET_PASSWORD_PATH}#token=${token}`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A session row's id: the sha256 of its cookie token, as repositories/sessions.ts stores it. */
const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('base64url');

function userCaller(ctx: ServiceCtx): UserCaller {
  if (ctx.caller.kind !== 'user') throw forbidden();
  return ctx.caller;
}

const isAdmin = (u: Pick<User, 'role' | 'locked'>) => u.role === 'admin' && !u.locked;

// ---- Users (admins)

export async function accountUsers(ctx: ServiceCtx): Promise<AccountUser[]> {
  return (await listUsers(ctx.scope, ctx.now)).map((u) => ({
    id: u.id,
    email: u.email,
    displayName: u.displayName,
    role: u.role,
    isRoot: u.isRoot,
    locked: u.locked,
    createdAt: u.createdAt,
    sessions: u.sessions,
  }));
}

async function accountUser(ctx: ServiceCtx, id: string): Promise<AccountUser> {
  const found = (await accountUsers(ctx)).find((u) => u.id === id);
  if (!found) throw notFound('User');
  return found;
}

/**
 * The user an admin acts on: 404 when not of the company; internal staff's accounts only by internal staff;
 * `self` false refuses the caller's own account (an admin cannot lock or delete themselves out).
 */
async function targetOf(ctx: ServiceCtx, id: string, self: boolean): Promise<User> {
  const target = await getUser(ctx.scope, id);
  if (!target) throw notFound('User');
  if (target.isRoot && !ctx.caller.user.isRoot) throw new ApiError(403, 'FORBIDDEN', ACCOUNT_TEXTS.rootOnly);
  if (!self && target.id === ctx.caller.user.id)
    throw new ApiError(400, 'NOT_YOURSELF', ACCOUNT_TEXTS.notYourself);
  return target;
}

/** Refuses a change that would leave the company without an unlocked admin (decision 0880). */
async function keepAnAdmin(ctx: ServiceCtx, before: User, after: Pick<User, 'role' | 'locked'> | null) {
  if (!isAdmin(before) || (after && isAdmin(after))) return;
  if ((await countActiveAdmins(ctx.scope)) <= 1)
    throw new ApiError(400, 'LAST_ADMIN', ACCOUNT_TEXTS.lastAdmin);
}

export async function editUser(
  ctx: ServiceCtx,
  id: string,
  change: { displayName?: string | undefined; role?: Role | undefined },
): Promise<AccountUser> {
  const target = await targetOf(ctx, id, true);
  await keepAnAdmin(ctx, target, { role: change.role ?? target.role, locked: target.locked });
  await updateUser(ctx.scope, id, {
    ...(change.displayName !== undefined ? { displayName: change.displayName } : {}),
    ...(change.role !== undefined ? { role: change.role } : {}),
  });
  return accountUser(ctx, id);
}

/** reports-admin §4 "User: locked or unlocked": a locked user cannot log in, and their sessions end now. */
export async function setLocked(ctx: ServiceCtx, id: string, locked: boolean): Promise<AccountUser> {
  const target = await targetOf(ctx, id, false);
  await keepAnAdmin(ctx, target, { role: target.role, locked });
  await updateUser(ctx.scope, id, { locked });
  // Unlocking must not bring old sessions back: they end with the lock.
  if (locked) await revokeUserSessions(ctx.scope, id, ctx.now);
  return accountUser(ctx, id);
}

export async function removeUser(ctx: ServiceCtx, id: string): Promise<void> {
  const target = await targetOf(ctx, id, false);
  await keepAnAdmin(ctx, target, null);
  if (!(await deleteUser(ctx.scope, id))) throw notFound('User');
}

/** reports-admin §4 "sessions revoked": every session and CSV-link token of the user ends. */
export async function revokeSessions(ctx: ServiceCtx, id: string): Promise<{ revoked: number }> {
  await targetOf(ctx, id, true);
  return { revoked: await revokeUserSessions(ctx.scope, id, ctx.now) };
}

/** Mail a user a single-use link to set a new password; their password keeps working until it is used. */
async function mailPasswordLink(
  scope: CompanyScope,
  transport: MailTransport,
  user: User,
  origin: string,
  now: number,
): Promise<boolean> {
  const token = newLinkToken();
  const expiresAt = now + PASSWORD_LINK_TTL_MS;
  await insertPasswordLink(scope, {
    tokenHash: hashToken(token),
    userId: user.id,
    createdAt: now,
    expiresAt,
  });
  const result = await sendMail(
    scope,
    transport,
    {
      userId: user.id,
      to: user.email,
      subject: 'Set a new Takt password',
      text:
        `Hello ${user.displayName},\n\nOpen this link to set a new password for ${user.email}:\n\n` +
        `${linkUrl(origin, token)}\n\nThe link works once, until ${day(expiresAt)}. ` +
        'If you did not ask for it, ignore this e-mail: your password stays as it is.\n',
    },
    now,
  );
  return result.ok;
}

/** reports-admin §2 Users "reset password": e-mails the user a link (the failure text if it cannot). */
export async function sendResetLink(
  ctx: ServiceCtx,
  transport: MailTransport,
  id: string,
  origin: string,
): Promise<{ sent: boolean; message: string }> {
  const target = await targetOf(ctx, id, true);
  const sent = await mailPasswordLink(ctx.scope, transport, target, origin, ctx.now);
  return { sent, message: sent ? ACCOUNT_TEXTS.sent : ACCOUNT_TEXTS.mailFailed };
}

// ---- Invites (InviteUsers)

const publicInvite = (i: InviteRecord): Invite => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invitedBy: i.invitedBy,
  createdAt: i.createdAt,
  sentAt: i.sentAt,
  expiresAt: i.expiresAt,
  brandOverride: i.brandOverride,
});

export async function invites(ctx: ServiceCtx): Promise<Invite[]> {
  return (await listInvites(ctx.scope)).map(publicInvite);
}

async function mailInvite(
  ctx: ServiceCtx,
  transport: MailTransport,
  invite: { email: string; role: Role; expiresAt: number; brandOverride: string | null },
  token: string,
  origin: string,
): Promise<boolean> {
  const { user, company } = userCaller(ctx);
  // decision 1117: the invite's brand stands where the product's name would.
  const product = invite.brandOverride ?? 'Takt';
  const result = await sendMail(
    ctx.scope,
    transport,
    {
      userId: null,
      to: invite.email,
      subject: `You are invited to ${company.name} on ${product}`,
      text:
        `Hello,\n\n${user.displayName} invited you to ${company.name} on ${product} (role: ${invite.role}).\n\n` +
        `Open this link to set your password:\n\n${linkUrl(origin, token)}\n\n` +
        `The link works once, until ${day(invite.expiresAt)}.\n`,
    },
    ctx.now,
  );
  return result.ok;
}

/**
 * reports-admin §2 Invites "create": one invite per address (§5 "one per line, trimmed"), each e-mailed its
 * link. Addresses that already have an account, or an open invite here, are refused as a list, before any
 * invite is made. Answers the invites and the addresses whose e-mail failed (those can be resent).
 */
export async function createInvites(
  ctx: ServiceCtx,
  transport: MailTransport,
  input: { invitees: string[]; role: Role; brandOverride?: string | null | undefined },
  origin: string,
): Promise<{ invites: Invite[]; failed: string[] }> {
  const brandOverride = input.brandOverride ?? null;
  if (brandOverride !== null && !mayBrandInvites(userCaller(ctx))) throw brandRefused();
  const emails = [...new Set(input.invitees)];
  const issues: Array<{ field: string; code: string; message: string }> = [];
  for (const [i, email] of emails.entries()) {
    if (await emailTaken(ctx.scope.db, email))
      issues.push({ field: `invitees.${i}`, code: 'taken', message: `${email} already has an account.` });
    else if (await findInviteByEmail(ctx.scope, email))
      issues.push({ field: `invitees.${i}`, code: 'invited', message: `${email} is already invited.` });
  }
  if (issues.length > 0) throw invalidInput(issues);
  const made: Invite[] = [];
  const failed: string[] = [];
  for (const email of emails) {
    const token = newLinkToken();
    const invite: InviteRecord = {
      id: crypto.randomUUID(),
      companyId: ctx.scope.companyId,
      email,
      role: input.role,
      invitedBy: ctx.caller.user.id,
      createdAt: ctx.now,
      sentAt: ctx.now,
      expiresAt: ctx.now + INVITE_TTL_MS,
      brandOverride,
    };
    await insertInvite(ctx.scope, { ...invite, tokenHash: hashToken(token) });
    if (!(await mailInvite(ctx, transport, invite, token, origin))) failed.push(email);
    made.push(publicInvite({ ...invite, invitedBy: ctx.caller.user.displayName }));
  }
  return { invites: made, failed };
}

/** reports-admin §2 Invites "resend": a new link (the old one stops working) and a new expiry. */
export async function resendInvite(
  ctx: ServiceCtx,
  transport: MailTransport,
  id: string,
  origin: string,
): Promise<{ sent: boolean; message: string }> {
  userCaller(ctx);
  const invite = await getInvite(ctx.scope, id);
  if (!invite) throw notFound('Invite');
  const token = newLinkToken();
  const expiresAt = ctx.now + INVITE_TTL_MS;
  await renewInvite(ctx.scope, id, { tokenHash: hashToken(token), sentAt: ctx.now, expiresAt });
  const sent = await mailInvite(ctx, transport, { ...invite, expiresAt }, token, origin);
  return { sent, message: sent ? ACCOUNT_TEXTS.sent : ACCOUNT_TEXTS.mailFailed };
}

export async function removeInvite(ctx: ServiceCtx, id: string): Promise<void> {
  if (!(await deleteInvite(ctx.scope, id))) throw notFound('Invite');
}

// ---- Links (no caller: the token is the proof)

type Db = Kysely<Database>;

type Found =
  | { kind: 'invite'; invite: InviteRecord }
  | { kind: 'reset'; companyId: string; user: User; tokenHash: string };

async function findLink(db: Db, token: string, now: number): Promise<Found> {
  const tokenHash = hashToken(token);
  const invite = await findInviteByToken(db, tokenHash);
  if (invite) {
    if (invite.expiresAt <= now) throw linkInvalid();
    return { kind: 'invite', invite };
  }
  const link = await findPasswordLink(db, tokenHash);
  if (!link || link.usedAt !== null || link.expiresAt <= now) throw linkInvalid();
  const user = await getUser(companyScope(db, link.companyId), link.userId);
  if (!user || user.locked) throw linkInvalid();
  return { kind: 'reset', companyId: link.companyId, user, tokenHash };
}

/** What a link is for, so the page can say it (404 LINK_INVALID when unknown, used or expired). */
export async function describeLink(db: Db, token: string, now: number): Promise<AccountLink> {
  const found = await findLink(db, token, now);
  const companyId = found.kind === 'invite' ? found.invite.companyId : found.companyId;
  const company = await getCompany(db, companyId);
  if (!company) throw linkInvalid();
  return {
    kind: found.kind,
    email: found.kind === 'invite' ? found.invite.email : found.user.email,
    companyName: company.name,
  };
}

/**
 * Set a password through a link, once (mutates): an invite becomes a user of its company with the invite's
 * role and is deleted; a password link sets the new password, is spent with every other open link of the
 * user, and the user's sessions end (whoever held the old password is logged out).
 */
export async function setPasswordWithLink(
  db: Db,
  input: { token: string; password: string; displayName?: string | undefined },
  now: number,
): Promise<{ email: string }> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const found = await findLink(trx, input.token, now);
    if (found.kind === 'invite') {
      const { invite } = found;
      const scope = companyScope(trx, invite.companyId);
      // The invite row is the single use: whoever deletes it first creates the user.
      if (!(await deleteInvite(scope, invite.id))) throw linkInvalid();
      if (await emailTaken(trx, invite.email)) throw linkInvalid();
      const user = await createUser(
        scope,
        {
          email: invite.email,
          displayName: input.displayName ?? invite.email.split('@')[0] ?? invite.email,
          passwordHash,
          role: invite.role,
        },
        now,
      );
      if (invite.brandOverride) await setUserBrand(scope, user.id, invite.brandOverride);
      return { email: user.email };
    }
    const scope = companyScope(trx, found.companyId);
    if (!(await spendPasswordLinks(scope, found.user.id, found.tokenHash, now))) throw linkInvalid();
    await updateUser(scope, found.user.id, { passwordHash });
    await revokeUserSessions(scope, found.user.id, now);
    return { email: found.user.email };
  });
}

/**
 * "Forgot password" on the login page: a link to the account of that address, if there is one and it is not
 * locked. The answer is the same either way, so the form cannot be used to find out who has an account.
 */
export async function forgotPassword(
  db: Db,
  transport: MailTransport,
  email: string,
  origin: string,
  now: number,
): Promise<{ message: string }> {
  // At most RESET_MAILS_PER_WINDOW e-mails per address and window (decision 0842).
  const user = await mailableUser(db, 'reset', email, RESET_MAILS_PER_WINDOW, now);
  if (user)
    await db
      .transaction()
      .execute((trx) => mailPasswordLink(companyScope(trx, user.companyId), transport, user, origin, now));
  return { message: ACCOUNT_TEXTS.forgotSent };
}

// ---- Profile (the caller's own account)

export async function profile(ctx: ServiceCtx): Promise<Profile> {
  const { user } = userCaller(ctx);
  const me = await accountUser(ctx, user.id);
  // Until the user saves a choice, notifications come for every shift (decision 0936).
  const prefs = (await getShiftNotifications(ctx.scope, user.id)) ?? { notify: true, shifts: [] };
  return {
    email: me.email,
    displayName: me.displayName,
    role: me.role,
    notify: prefs.notify,
    shifts: prefs.shifts,
    sessions: me.sessions,
    // reports-admin §7 "Current user: … hasPassword, hasGoogleOAuth, createdAt" (decision 1097): no Google
    // provider is reachable, so no account has Google authorisation.
    hasPassword: await userHasPassword(ctx.scope, user.id),
    hasGoogleOAuth: false,
    createdAt: me.createdAt,
  };
}

/** reports-admin §2 Profile "shift notifications": shifts named must be the company's (400 otherwise). */
export async function updateShiftNotifications(
  ctx: ServiceCtx,
  input: { notify: boolean; shifts: string[] },
): Promise<Profile> {
  const { user } = userCaller(ctx);
  const shifts = [...new Set(input.shifts)];
  if (shifts.length > 0) {
    const known = new Set(
      (await ctx.scope.selectFrom('shifts').select('id').where('id', 'in', shifts).execute()).map(
        (s) => s.id,
      ),
    );
    const issues = shifts.flatMap((id, i) =>
      known.has(id) ? [] : [{ field: `shifts.${i}`, code: 'not_found', message: 'Shift not found.' }],
    );
    if (issues.length > 0) throw invalidInput(issues);
  }
  await saveShiftNotifications(ctx.scope, user.id, { notify: input.notify, shifts }, ctx.now);
  return profile(ctx);
}

/** reports-admin §2 Profile "revoke sessions": every other session of the caller ends; this one stays. */
export async function revokeMyOtherSessions(ctx: ServiceCtx): Promise<{ revoked: number }> {
  const caller = userCaller(ctx);
  const result = await ctx.scope
    .updateTable('sessions')
    .set({ revoked_at: ctx.now })
    .where('user_id', '=', caller.user.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.now)
    .where('id', '!=', sessionIdOf(caller.sessionToken))
    .executeTakeFirst();
  return { revoked: Number(result.numUpdatedRows) };
}

/** reports-admin §2 Profile "reset password": a link to the caller's own address. */
export async function sendMyResetLink(
  ctx: ServiceCtx,
  transport: MailTransport,
  origin: string,
): Promise<{ sent: boolean; message: string }> {
  const { user } = userCaller(ctx);
  const sent = await mailPasswordLink(ctx.scope, transport, user, origin, ctx.now);
  return { sent, message: sent ? ACCOUNT_TEXTS.sent : ACCOUNT_TEXTS.mailFailed };
}
