import type { CompanyScope, Executor, UsersTable } from '@takt/db';

export interface User {
  id: string;
  companyId: string;
  email: string;
  displayName: string;
  role: UsersTable['role'];
  isRoot: boolean;
  locked: boolean;
}

export const toUser = (
  r: Pick<UsersTable, 'id' | 'company_id' | 'email' | 'display_name' | 'role' | 'is_root' | 'locked'>,
): User => ({
  id: r.id,
  companyId: r.company_id,
  email: r.email,
  displayName: r.display_name,
  role: r.role,
  isRoot: r.is_root === 1,
  locked: r.locked === 1,
});

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Login looks a user up by e-mail before any company is known: the one unscoped user query. */
export async function findUserForLogin(
  db: Executor,
  email: string,
): Promise<{ user: User; passwordHash: string } | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

export async function getUser(scope: CompanyScope, id: string): Promise<User | undefined> {
  const row = await scope.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

export async function createUser(
  scope: CompanyScope,
  input: { email: string; displayName: string; passwordHash: string; role: User['role']; isRoot?: boolean },
  now: number,
): Promise<User> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('users', {
      id,
      email: normalizeEmail(input.email),
      display_name: input.displayName,
      password_hash: input.passwordHash,
      role: input.role,
      is_root: input.isRoot ? 1 : 0,
      locked: 0,
      created_at: now,
    })
    .execute();
  const user = await getUser(scope, id);
  if (!user) throw new Error('user vanished after insert');
  return user;
}

// reports-admin §2 Users screen (decision 0880): the company's users, edits, lock and delete. SQL only.

/** The company's users by name, each with the count of its live login sessions. */
export async function listUsers(
  scope: CompanyScope,
  now: number,
): Promise<Array<User & { createdAt: number; sessions: number }>> {
  const rows = await scope.selectFrom('users').selectAll().orderBy('display_name').orderBy('email').execute();
  const counts = await scope
    .selectFrom('sessions')
    .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('kind', '=', 'session')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .groupBy('user_id')
    .execute();
  const byUser = new Map(counts.map((c) => [c.user_id, Number(c.n)]));
  return rows.map((r) => ({ ...toUser(r), createdAt: r.created_at, sessions: byUser.get(r.id) ?? 0 }));
}

/** Whether the user has a password to log in with (an empty hash: none; decision 1097). */
export async function userHasPassword(scope: CompanyScope, id: string): Promise<boolean> {
  const row = await scope.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
  return (row?.password_hash ?? '') !== '';
}

export async function getUserCreatedAt(scope: CompanyScope, id: string): Promise<number | undefined> {
  const row = await scope.selectFrom('users').select('created_at').where('id', '=', id).executeTakeFirst();
  return row?.created_at;
}

/** Any user (of any company) with this e-mail: addresses are unique across companies (they log in by it). */
export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateUser(
  scope: CompanyScope,
  id: string,
  change: { displayName?: string; role?: User['role']; locked?: boolean; passwordHash?: string },
): Promise<boolean> {
  const set = {
    ...(change.displayName !== undefined ? { display_name: change.displayName } : {}),
    ...(change.role !== undefined ? { role: change.role } : {}),
    ...(change.locked !== undefined ? { locked: change.locked ? 1 : 0 } : {}),
    ...(change.passwordHash !== undefined ? { password_hash: change.passwordHash } : {}),
  };
  const result = await scope.updateTable('users').set(set).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** How many unlocked admins the company has (the last one may not be removed, demoted or locked). */
export async function countActiveAdmins(scope: CompanyScope): Promise<number> {
  const row = await scope
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'admin')
    .where('locked', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Delete a user and what is theirs alone (sessions, password links, sign-in codes, preferences). Rows that record what
 * they did (mail sent, annotations made) keep the id as history. Mutates.
 */
export async function deleteUser(scope: CompanyScope, id: string): Promise<boolean> {
  await scope.deleteFrom('sessions').where('user_id', '=', id).execute();
  await scope.deleteFrom('password_resets').where('user_id', '=', id).execute();
  await scope.deleteFrom('login_codes').where('user_id', '=', id).execute();
  await scope.deleteFrom('email_preferences').where('user_id', '=', id).execute();
  await scope.deleteFrom('user_preferences').where('user_id', '=', id).execute();
  await scope.deleteFrom('shift_notifications').where('user_id', '=', id).execute();
  // Machine notifications name the user (account_id references users.id): they go with the user.
  await scope
    .deleteFrom('machine_notification_episodes')
    .where(
      'notification_id',
      'in',
      scope.selectFrom('machine_notifications').select('id').where('account_id', '=', id),
    )
    .execute();
  await scope.deleteFrom('machine_notifications').where('account_id', '=', id).execute();
  const result = await scope.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Revoke every live session and link token of a user (mutates); answers how many were live. */
export async function revokeUserSessions(scope: CompanyScope, userId: string, now: number): Promise<number> {
  const result = await scope
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks a user as root (internal staff, decision 1040). Unscoped like findUserForLogin: it runs at start and from
 * `npm run root`, before any company is known. Mutates users.
 */
export async function promoteToRoot(db: Executor, id: string): Promise<void> {
  await db.updateTable('users').set({ is_root: 1 }).where('id', '=', id).execute();
}
