import type { Kysely } from 'kysely';
import { permissionsFor } from '@takt/domain';
import type { MeAnswer, LoginRequest, Me } from '@takt/domain';
import type { CompanyScope, Database } from '@takt/db';
import { checkLoginPassword } from '../auth/passwords';
import type { Caller } from '../http/context';
import { ApiError } from '../http/errors';
import { getCompany } from '../repositories/company';
import type { Company } from '../repositories/company';
import { getShiftNotifications } from '../repositories/account-links';
import { createSession, revokeSession } from '../repositories/sessions';
import { findUserForLogin } from '../repositories/users';
import type { User } from '../repositories/users';
import { loginKeys, noteGoodLogin, takeLoginAttempt } from './login-throttle';

// Logging users in and out (ARCHITECTURE.md "Conventions": POST /login, DELETE /logout); the routes set and
// clear the session cookie.

type Db = Kysely<Database>;

const badLogin = () => new ApiError(401, 'INVALID_CREDENTIALS', 'The e-mail or password is incorrect.');

export function toMe(caller: Pick<Caller, 'user' | 'company'>, demoMode: boolean): Me {
  const { user, company } = caller;
  const isAdmin = user.role === 'admin' || user.isRoot;
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    isRoot: user.isRoot,
    isAdmin,
    isOperator: user.role === 'operator',
    permissions: permissionsFor({ tier: company.productTier, isRoot: user.isRoot, isAdmin, demoMode }),
    company: {
      id: company.id,
      name: company.name,
      timezone: company.timezone,
      locale: company.locale,
      product_tier: company.productTier,
    },
  };
}

/**
 * The account part of GET /api/me (reports-admin §3 "Current user", decision 1105): two reads for a logged-in
 * user; a tablet, TV or API key is no account and reads nothing.
 */
export async function currentAccount(
  scope: CompanyScope,
  caller: Caller,
): Promise<Pick<MeAnswer, 'shifts' | 'notify' | 'hasPassword' | 'hasGoogleOAuth' | 'createdAt'>> {
  if (caller.kind !== 'user')
    return { shifts: [], notify: false, hasPassword: false, hasGoogleOAuth: false, createdAt: null };
  const [row, prefs] = await Promise.all([
    scope
      .selectFrom('users')
      .select(['password_hash', 'created_at'])
      .where('id', '=', caller.user.id)
      .executeTakeFirst(),
    getShiftNotifications(scope, caller.user.id),
  ]);
  return {
    // Until the user saves a choice, notifications come for every shift (decision 0936), as the profile says.
    ...(prefs ?? { notify: true, shifts: [] }),
    hasPassword: (row?.password_hash ?? '') !== '',
    hasGoogleOAuth: false,
    createdAt: row ? Number(row.created_at) : null,
  };
}

/**
 * Checks the credentials, throttled per account and address (decision 0988): the user and their company, or
 * 401 with one text for an unknown e-mail, a wrong password and a locked user. The throttle's hit is taken
 * before the password is checked, and an unknown e-mail costs the same argon2 check as a known one.
 * `passwordChecked` is called once per argon2 check (metrics). Mutates rate_limits.
 */
export async function authenticate(
  db: Db,
  credentials: LoginRequest,
  now: number,
  address: string | null = null,
  passwordChecked?: () => void,
): Promise<{ user: User; company: Company }> {
  const keys = loginKeys(credentials.email, address);
  await takeLoginAttempt(db, keys, now);
  const found = await findUserForLogin(db, credentials.email);
  // An unknown e-mail and a wrong password answer the same text after the same work, so logins cannot probe
  // for accounts.
  const matches = await checkLoginPassword(found?.passwordHash, credentials.password, passwordChecked);
  if (!found || found.user.locked || !matches) throw badLogin();
  await noteGoodLogin(db, keys);
  const company = await getCompany(db, found.user.companyId);
  if (!company) throw badLogin();
  return { user: found.user, company };
}

/** Opens a session for a user already checked: its cookie token and the user as GET /api/me answers. */
export async function openSession(
  db: Db,
  who: { user: User; company: Company },
  now: number,
  demoMode: boolean,
): Promise<{ token: string; me: Me }> {
  const { token } = await createSession(db, { companyId: who.company.id, userId: who.user.id }, now);
  return { token, me: toMe(who, demoMode) };
}

/**
 * Checks the credentials and opens a session: its token and the user as GET /api/me answers. `address` is
 * the client's address for throttling (decision 0988); null when unknown.
 */
export async function login(
  db: Db,
  credentials: LoginRequest,
  now: number,
  demoMode: boolean,
  address: string | null = null,
  passwordChecked?: () => void,
): Promise<{ token: string; me: Me }> {
  return openSession(db, await authenticate(db, credentials, now, address, passwordChecked), now, demoMode);
}

/** Ends the session of a token (mutates the sessions table). */
export async function logout(db: Db, token: string, now: number): Promise<void> {
  await revokeSession(db, token, now);
}
