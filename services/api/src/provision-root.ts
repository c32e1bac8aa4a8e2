import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { hashPassword, passwordProblems } from './auth/passwords';
import { createCompany, findDemoCompany, firstCompany } from './repositories/company';
import { createUser, findUserForLogin, promoteToRoot } from './repositories/users';

// Issue 28 point 2, decision 1040: a way in for staff. Gateways, adapters, companies and the system page need a
// root user; TAKT_ROOT_EMAIL / TAKT_ROOT_PASSWORD (at start) and `npm run root` (an existing install) make one
// or promote an existing user.

/** The demo's staff login, printed at start beside DEMO_LOGINS. Demo data only. */
export const DEMO_STAFF_LOGIN = {
  role: 'root',
  email: 'staff@takt.example',
  password: 'TaktStaff1',
  displayName: 'Sam Staff',
} as const;

export type RootResult = 'created' | 'promoted' | 'exists';

/** Why a root user could not be made: a message for the person at the console. */
export class RootError extends Error {}

/**
 * Makes `email` a root user: an existing user of any company is promoted (role, company and password stay
 * as they are); a new one is created as an admin with root in the first company (the demo company when the
 * demo is on; a new company on an empty database), which needs a password that meets reports-admin §5.
 * Mutates users (and companies on an empty database).
 */
export async function ensureRoot(
  db: Kysely<Database>,
  opts: { email: string; password?: string | undefined; displayName?: string; now: number },
): Promise<RootResult> {
  const found = await findUserForLogin(db, opts.email);
  if (found) {
    if (found.user.isRoot) return 'exists';
    await promoteToRoot(db, found.user.id);
    return 'promoted';
  }
  if (!opts.password) {
    throw new RootError(
      `no user has the e-mail ${opts.email}; give a password (TAKT_ROOT_PASSWORD) to create one`,
    );
  }
  const problems = passwordProblems(opts.password);
  if (problems.length > 0) throw new RootError(problems.join(' '));
  const company =
    (await findDemoCompany(db)) ??
    (await firstCompany(db)) ??
    (await createCompany(db, { name: 'My Company' }, opts.now));
  await createUser(
    companyScope(db, company.id),
    {
      email: opts.email,
      displayName: opts.displayName ?? opts.email.split('@')[0] ?? 'Staff',
      role: 'admin',
      isRoot: true,
      passwordHash: await hashPassword(opts.password),
    },
    opts.now,
  );
  return 'created';
}
