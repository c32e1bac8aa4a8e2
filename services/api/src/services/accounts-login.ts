import { randomInt } from 'node:crypto';
import type { LoginRequest, Me } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { hashToken } from '../auth/tokens';
import { ApiError, invalidInput } from '../http/errors';
import { sendMail } from '../mail/send';
import type { MailTransport } from '../mail/transport';
import { replaceLoginCode, spendLoginCode } from '../repositories/accounts-login-codes';
import { getCompany } from '../repositories/company';
import { getMachine } from '../repositories/machines';
import { activateTablet, associateTablet, issueTabletToken, requestCode } from '../repositories/tablets';
import type { Tablet } from '../repositories/tablets';
import { findUserForLogin } from '../repositories/users';
import { authenticate, openSession } from './auth';
import { loginKeys, mailableUser, noteGoodLogin, takeLoginAttempt } from './login-throttle';

// The login page's variants (reports-admin §2 "Login: device button and code option depending on query
// parameters"; decision 0935): "Use this device" registers the browser as a tablet of the admin's company
// with the admin's e-mail and password, and the code option signs a user in with a one-time code e-mailed to
// them. Both go through the login throttle (decision 0842).

type Db = Kysely<Database>;

/** A sign-in code works this long, once. */
export const LOGIN_CODE_TTL_MS = 10 * 60_000;
/** Code e-mails per address within the login throttle's window, so nobody can fill a mailbox with them. */
export const LOGIN_CODE_MAILS_PER_WINDOW = 3;
export const LOGIN_CODE_LENGTH = 6;

export const LOGIN_TEXTS = {
  deviceAdminOnly: 'Only an admin can register this device.',
  codeSent: 'If an account uses that address, a sign-in code is on its way.',
  codeWrong: 'The code is wrong or has expired. Ask for a new one.',
} as const;

/** Six digits: typed from an e-mail, often on a tablet's number pad. */
const newLoginCode = () => String(randomInt(0, 10 ** LOGIN_CODE_LENGTH)).padStart(LOGIN_CODE_LENGTH, '0');
const normalizeLoginCode = (code: string) => code.replace(/\s/g, '');

/** A serial number for a browser that did not send one (the floor app sends the one it keeps). */
const webSerial = () => `WEB-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;

/**
 * "Use this device": an admin's credentials register this browser as an active tablet of their company, bound
 * to `machineId` when given, as if the tablet had shown a code and the admin had entered it (live-operations
 * §2 registration, decision 0500). Answers the tablet and its device token; no user session is opened.
 * Mutates tablets (and rate_limits).
 */
export async function registerDevice(
  db: Db,
  input: LoginRequest & {
    serialNumber: string | null;
    machineId: string | null;
    remoteIdentifier: string | null;
  },
  now: number,
  address: string | null,
  passwordChecked?: () => void,
): Promise<{ tablet: Tablet; token: string }> {
  const { user } = await authenticate(db, input, now, address, passwordChecked);
  if (!(user.role === 'admin' || user.isRoot))
    throw new ApiError(403, 'DEVICE_ADMIN_ONLY', LOGIN_TEXTS.deviceAdminOnly);
  return db.transaction().execute(async (trx) => {
    const scope = companyScope(trx, user.companyId);
    if (input.machineId) {
      const machine = await getMachine(scope, input.machineId);
      if (!machine || machine.decommissionedAt != null)
        throw invalidInput([{ field: 'machineId', code: 'not_found', message: 'Machine not found.' }]);
    }
    const { tablet } = await requestCode(trx, input.serialNumber ?? webSerial(), now);
    const claimed = await associateTablet(trx, tablet.id, {
      companyId: user.companyId,
      machineId: input.machineId,
      remoteIdentifier: input.remoteIdentifier,
      userId: user.id,
    });
    const token = claimed ? await issueTabletToken(trx, tablet.id) : null;
    const active = token ? await activateTablet(trx, token, now) : undefined;
    // Only a concurrent registration of the same serial number can take the pending row first.
    if (!token || !active)
      throw new ApiError(409, 'DEVICE_BUSY', 'This device is being registered. Try again.');
    return { tablet: active, token };
  });
}

/**
 * The code option's first step: e-mail the user a new code (the previous one stops working). Answers the
 * same text whether or not the address has an account, and sends nothing to a locked one. Mutates
 * login_codes, mail_outbox and rate_limits (the per-address mail count).
 */
export async function requestLoginCode(
  db: Db,
  transport: MailTransport,
  email: string,
  origin: string,
  now: number,
): Promise<{ message: string }> {
  const user = await mailableUser(db, 'code', email, LOGIN_CODE_MAILS_PER_WINDOW, now);
  if (!user) return { message: LOGIN_TEXTS.codeSent };
  const code = newLoginCode();
  await db.transaction().execute(async (trx) => {
    const scope = companyScope(trx, user.companyId);
    await replaceLoginCode(scope, {
      userId: user.id,
      codeHash: hashToken(code),
      createdAt: now,
      expiresAt: now + LOGIN_CODE_TTL_MS,
    });
    await sendMail(
      scope,
      transport,
      {
        userId: user.id,
        to: user.email,
        // Not in the subject: subjects show on lock screens and in notification previews (issue 26).
        subject: 'Your Takt sign-in code',
        text:
          `Hello ${user.displayName},\n\nYour code to sign in to Takt as ${user.email} is:\n\n    ${code}\n\n` +
          `Enter it on the sign-in page (${origin}/app/?code). It works once, for 10 minutes. ` +
          'If you did not ask for it, ignore this e-mail: nobody can sign in without the code.\n',
      },
      now,
    );
  });
  return { message: LOGIN_TEXTS.codeSent };
}

/**
 * The code option's second step: a valid code opens a session like POST /login. A wrong or expired code
 * counts as a failed login of the account and the address (decision 0988), so guessing stops after 5 tries.
 * Mutates login_codes, sessions and rate_limits.
 */
export async function loginWithCode(
  db: Db,
  input: { email: string; code: string },
  now: number,
  demoMode: boolean,
  address: string | null,
): Promise<{ token: string; me: Me }> {
  const keys = loginKeys(input.email, address);
  await takeLoginAttempt(db, keys, now);
  const found = await findUserForLogin(db, input.email);
  const spent =
    found !== undefined &&
    !found.user.locked &&
    (await spendLoginCode(
      companyScope(db, found.user.companyId),
      found.user.id,
      hashToken(normalizeLoginCode(input.code)),
      now,
    ));
  const company = spent ? await getCompany(db, found.user.companyId) : undefined;
  if (!found || !company) throw new ApiError(401, 'INVALID_CODE', LOGIN_TEXTS.codeWrong);
  await noteGoodLogin(db, keys);
  return openSession(db, { user: found.user, company }, now, demoMode);
}
